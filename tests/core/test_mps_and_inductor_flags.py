"""torch.mps answers as PyTorch does on a machine without Metal, and torch._inductor.config has PyTorch's
defaults for the flags GPT training scripts set."""

from __future__ import annotations

import importlib

import pytest

import core

FLAGS = ["coordinate_descent_tuning", "max_autotune", "max_autotune_gemm", "freezing", "fx_graph_cache", "debug",
         "epilogue_fusion"]


def test_mps_queries_answer_as_torchs_without_the_backend(torch):
    if torch.mps.is_available():
        pytest.skip("this torch has Metal")
    for lib in (torch, core):
        assert (lib.mps.is_available(), lib.mps.device_count(), lib.mps.manual_seed(0)) == (False, 0, None)


@pytest.mark.parametrize("call", ["seed", "synchronize", "empty_cache", "get_rng_state", "current_allocated_memory",
                                  "driver_allocated_memory"])
def test_mps_calls_that_need_the_backend_raise_torchs_error(call, torch):
    if torch.mps.is_available():
        pytest.skip("this torch has Metal")
    messages = []
    for lib in (torch, core):
        with pytest.raises(RuntimeError) as info:
            getattr(lib.mps, call)()
        messages.append(str(info.value))
    assert messages[0] == messages[1]


def test_inductor_config_flags_have_torchs_defaults_and_can_be_set(torch):
    ours, theirs = (importlib.import_module(lib.__name__ + "._inductor.config") for lib in (core, torch))
    assert [getattr(ours, f) for f in FLAGS] == [getattr(theirs, f) for f in FLAGS]
    assert (ours.triton.cudagraphs, ours.triton.unique_kernel_names) == \
        (theirs.triton.cudagraphs, theirs.triton.unique_kernel_names)
    ours.coordinate_descent_tuning = True
    try:
        assert importlib.import_module("core._inductor.config").coordinate_descent_tuning is True
    finally:
        ours.coordinate_descent_tuning = False
