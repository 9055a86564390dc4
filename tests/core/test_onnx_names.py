"""``core.onnx`` has PyTorch's exporter names, so scripts that import ``torch.onnx`` run; export fails as torch's
does without the exporter's packages."""

import importlib.util

import pytest

import core


def test_onnx_is_a_lazily_loaded_submodule_with_torchs_public_names(torch):
    import core.onnx

    assert core.onnx is core.__getattr__("onnx")
    for name in ("export", "is_in_onnx_export", "OnnxExporterError"):
        assert hasattr(torch.onnx, name) and hasattr(core.onnx, name)
    assert core.onnx.is_in_onnx_export() is torch.onnx.is_in_onnx_export() is False
    assert issubclass(core.onnx.OnnxExporterError, RuntimeError)
    assert issubclass(torch.onnx.OnnxExporterError, RuntimeError)


def test_export_raises_like_torch_without_onnxscript(torch, tmp_path):
    if importlib.util.find_spec("onnxscript") is not None:
        pytest.skip("onnxscript is installed: torch's exporter would write the file")
    with pytest.raises(ModuleNotFoundError) as theirs:
        torch.onnx.export(torch.nn.Linear(2, 2), (torch.zeros(1, 2),), str(tmp_path / "t.onnx"))
    with pytest.raises(ModuleNotFoundError) as ours:
        core.onnx.export(core.nn.Linear(2, 2), (core.zeros(1, 2),), str(tmp_path / "c.onnx"))
    assert str(ours.value) == str(theirs.value)


def test_legacy_export_says_onnx_is_not_installed():
    with pytest.raises(core.onnx.OnnxExporterError, match="Module onnx is not installed!"):
        core.onnx.export(core.nn.Linear(2, 2), (core.zeros(1, 2),), "m.onnx", dynamo=False)
