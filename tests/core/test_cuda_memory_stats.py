"""``torch.cuda``'s peak-memory resets as PyTorch's CPU build has them: a script that calls them unguarded on a
machine without a GPU stops on the same line with the same error."""

from __future__ import annotations

import pytest

import core


@pytest.mark.skipif(core.cuda.is_available(), reason="with a GPU there is nothing to refuse")
def test_reset_peak_memory_stats_without_a_gpu_raises_torchs_attribute_error(torch):
    for lib, module in ((core, "core._C"), (torch, "torch._C")):
        with pytest.raises(AttributeError, match=f"module '{module}' has no attribute '_cuda_resetPeakMemoryStats'"):
            lib.cuda.reset_peak_memory_stats()


@pytest.mark.skipif(core.cuda.is_available(), reason="with a GPU there is nothing to refuse")
def test_reset_max_memory_allocated_warns_that_it_resets_all_peaks_then_resets_them(torch):
    for lib in (core, torch):
        with pytest.warns(FutureWarning, match="now calls torch.cuda.reset_peak_memory_stats"):
            with pytest.raises(AttributeError):
                lib.cuda.reset_max_memory_allocated()


def test_peak_memory_queries_read_zero_without_a_gpu_as_torchs_cpu_build(torch):
    if core.cuda.is_available():
        pytest.skip("a GPU holds memory")
    assert core.cuda.max_memory_allocated() == torch.cuda.max_memory_allocated() == 0
