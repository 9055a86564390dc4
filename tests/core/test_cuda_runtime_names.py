"""``torch.cuda``'s initialisation, stream, CUDA-generator and memory-statistics names answer as PyTorch's CPU
build answers them on a machine without a GPU: the same values, or the same exception type and message."""

import pytest

import core

pytestmark = pytest.mark.skipif(core.cuda.is_available(), reason="the CPU build's answers need a machine without CUDA")

CALLS = {
    "is_initialized": (), "init": (), "current_stream": (), "default_stream": (), "Stream": (),
    "get_rng_state": (), "get_rng_state_all": (), "seed": (), "seed_all": (), "initial_seed": (),
    "get_arch_list": (), "get_gencode_flags": (), "memory_stats": (), "ipc_collect": (),
    "set_per_process_memory_fraction": (0.5,), "can_device_access_peer": (0, 1),
}


def _outcome(fn, args):
    try:
        return "value", fn(*args)
    except Exception as e:  # the CPU build's refusals are part of what is compared
        return type(e).__name__, str(e).split("\n")[0]


@pytest.mark.parametrize("name", list(CALLS))
def test_a_cuda_runtime_call_without_a_gpu_answers_as_torchs_cpu_build(torch, name):
    mine = _outcome(getattr(core.cuda, name), CALLS[name])
    theirs = _outcome(getattr(torch.cuda, name), CALLS[name])
    assert mine == theirs


def test_set_rng_state_is_accepted_and_a_stream_context_of_none_runs_its_block(torch):
    for lib in (core, torch):
        assert lib.cuda.set_rng_state(lib.ByteTensor(8)) is None
        ran = []
        with lib.cuda.stream(None):
            ran.append(True)
        assert ran == [True]


def test_the_renamed_cached_memory_queries_warn_and_answer_zero(torch):
    for lib in (core, torch):
        with pytest.warns(FutureWarning, match="renamed to `torch.cuda.memory_reserved`"):
            assert lib.cuda.memory_cached() == 0
        with pytest.warns(FutureWarning, match="renamed to `torch.cuda.max_memory_reserved`"):
            assert lib.cuda.max_memory_cached() == 0
