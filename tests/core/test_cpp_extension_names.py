"""torch.utils.cpp_extension's names (peft's BOFT tries its CUDA kernel through ``load`` and falls back): a missing
source is torch's FileNotFoundError, there is no CUDA or ROCm toolkit, and core refuses to build."""

from __future__ import annotations

import importlib

import pytest

import core


def test_missing_sources_and_toolkits_as_torch(torch, tmp_path):
    for lib in (torch, core):
        ext = importlib.import_module(f"{lib.__name__}.utils.cpp_extension")
        assert (ext.CUDA_HOME, ext.ROCM_HOME, ext.IS_HIP_EXTENSION) == (None, None, False)
        with pytest.raises(FileNotFoundError):
            ext.load(name="fbd", sources=[str(tmp_path / "missing.cpp"), str(tmp_path / "missing.cu")])


def test_core_refuses_to_build(tmp_path):
    source = tmp_path / "op.cpp"
    source.write_text("int f() { return 1; }\n")
    with pytest.raises(RuntimeError, match="cannot build C\\+\\+ extensions"):
        core.utils.cpp_extension.load(name="op", sources=[str(source)])
    with pytest.raises(RuntimeError, match="cannot build"):
        core.utils.cpp_extension.load_inline(name="op", cpp_sources="")
