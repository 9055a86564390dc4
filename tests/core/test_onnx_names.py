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


def test_custom_op_symbolic_registration_checks_names_as_torch(torch):
    """torchvision's ops register their ONNX symbolics when imported (``torch.onnx.register_custom_op_symbolic``)."""
    from core.onnx import symbolic_opset11  # noqa: F401 (importable, as torchvision imports it)
    from core.onnx.symbolic_helper import parse_args

    def symbolic(g, boxes, scores, iou):
        return (boxes, scores, iou)

    for lib in (core, torch):
        lib.onnx.register_custom_op_symbolic("tvtest::nms", symbolic, 11)
        lib.onnx.unregister_custom_op_symbolic("tvtest::nms", 11)
    for name, error in (("nms", "OnnxExporterError"), ("tv::9nms", "OnnxExporterError"), ("onnx::Add", "ValueError")):
        with pytest.raises(Exception) as theirs:
            torch.onnx.register_custom_op_symbolic(name, symbolic, 11)
        with pytest.raises(Exception) as ours:
            core.onnx.register_custom_op_symbolic(name, symbolic, 11)
        assert type(ours.value).__name__ == type(theirs.value).__name__ == error
        assert str(ours.value) == str(theirs.value)
    wrapped = parse_args("v", "v", "f")(symbolic)
    assert wrapped.__name__ == torch.onnx.symbolic_helper.parse_args("v", "v", "f")(symbolic).__name__ == "symbolic"


def test_tensor_proto_data_type_values_are_torchs(torch):
    ours, theirs = core.onnx.TensorProtoDataType, torch.onnx.TensorProtoDataType
    assert {k: int(v) for k, v in ours.__members__.items()} == {k: int(v) for k, v in theirs.__members__.items()}
    assert int(ours.FLOAT) == int(theirs.FLOAT) == 1 and int(ours.INT64) == int(theirs.INT64)
