"""``torch.autograd.profiler.emit_nvtx`` / ``emit_itt`` against PyTorch's CPU build: disabled NVTX (what tuning
guides write) and ITT enter and leave quietly; enabled NVTX needs CUDA and fails as torch's does."""

from __future__ import annotations

import pytest

import core


def test_disabled_nvtx_and_itt_ranges_are_no_ops_and_enabled_nvtx_needs_cuda(torch):
    if torch.cuda.is_available() or core.cuda.is_available():
        pytest.skip("a GPU is present: NVTX ranges work")
    for lib in (core, torch):
        profiler = lib.autograd.profiler
        with profiler.emit_nvtx(enabled=False):
            value = (lib.ones(2) * 2).tolist()
        with profiler.emit_itt():
            value += lib.ones(1).tolist()
        assert value == [2.0, 2.0, 1.0]
        with pytest.raises(AssertionError, match="Torch not compiled with CUDA enabled"):
            with profiler.emit_nvtx():
                pass
