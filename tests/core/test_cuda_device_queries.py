"""torch.cuda's device queries and events: without a GPU they fail as PyTorch's CPU build does (so an unguarded
call stops a script on the same line); with one, CuPy answers them."""

from __future__ import annotations

import pytest

import core

no_gpu = pytest.mark.skipif(core.cuda.is_available(), reason="checks a machine without a GPU")
gpu = pytest.mark.skipif(not core.cuda.is_available(), reason="needs a CUDA GPU with CuPy")


@no_gpu
@pytest.mark.parametrize("call", [lambda c: c.get_device_name(0), lambda c: c.get_device_capability(),
                                  lambda c: c.get_device_properties(0), lambda c: c.mem_get_info(),
                                  lambda c: c.set_device(0), lambda c: c.Event(enable_timing=True)],
                         ids=["get_device_name", "get_device_capability", "get_device_properties", "mem_get_info",
                              "set_device", "Event"])
def test_device_queries_without_a_gpu_fail_as_torchs_cpu_build(call, torch):
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA")
    caught = []
    for lib in (torch, core):
        with pytest.raises(Exception) as info:
            call(lib.cuda)
        caught.append((type(info.value).__name__, str(info.value).replace("'core.", "'torch.")))
    assert caught[0] == caught[1]


@gpu
def test_device_queries_with_a_gpu_describe_it():
    props = core.cuda.get_device_properties(0)
    assert core.cuda.get_device_name(0) == props.name and isinstance(props.name, str) and props.name
    assert core.cuda.get_device_capability(0) == (props.major, props.minor) and props.major >= 3
    free, total = core.cuda.mem_get_info()
    assert 0 < free <= total == props.total_memory
    core.cuda.set_device(0)
    assert core.cuda.current_device() == 0


@gpu
def test_cuda_events_time_work_on_the_gpu():
    start, end = core.cuda.Event(enable_timing=True), core.cuda.Event(enable_timing=True)
    start.record()
    x = core.ones(256, 256, device="cuda")
    (x @ x).sum().item()
    end.record()
    end.synchronize()
    assert end.query() and start.elapsed_time(end) >= 0.0
