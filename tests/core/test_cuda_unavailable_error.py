"""Asking for CUDA on a machine without it fails as PyTorch's CPU build does (``AssertionError: Torch not compiled
with CUDA enabled``: the book's GPU cells print that), and core's error is also a RuntimeError whose note says
what core needs."""

from __future__ import annotations

import pytest

import core

pytestmark = pytest.mark.skipif(core.cuda.is_available(), reason="checks the error of a machine without a GPU")


@pytest.mark.parametrize("ask", [lambda lib: lib.ones(2).to("cuda"), lambda lib: lib.zeros(2, device="cuda"),
                                 lambda lib: lib.tensor([1.0]).cuda()], ids=["to", "factory", "cuda_method"])
def test_a_cuda_request_raises_torchs_assertion_error_and_message(ask, torch):
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA")
    caught = []
    for lib in (torch, core):
        with pytest.raises(AssertionError) as info:
            ask(lib)
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[0] == caught[1] == ("AssertionError", "Torch not compiled with CUDA enabled")


def test_cores_cuda_error_is_also_a_runtime_error_that_says_what_core_needs():
    with pytest.raises(RuntimeError) as info:
        core.ones(2).to("cuda")
    assert any("CuPy" in note for note in info.value.__notes__)


@pytest.mark.parametrize("ask", [lambda lib: lib.ones(2).cuda(1), lambda lib: lib.ones(2).cuda(device=0),
                                 lambda lib: lib.nn.Linear(2, 2).cuda(1), lambda lib: lib.ones(2).cuda(-1)],
                         ids=["index", "index_keyword", "module_index", "negative_index"])
def test_a_cuda_device_index_without_a_gpu_raises_torchs_runtime_error(ask, torch):
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA")
    caught = []
    for lib in (torch, core):
        with pytest.raises(RuntimeError) as info:
            ask(lib)
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[0] == caught[1]


@pytest.mark.parametrize("call", [lambda lib: lib.cuda.synchronize(), lambda lib: lib.cuda.synchronize("cpu"),
                                  lambda lib: lib.accelerator.synchronize()],
                         ids=["cuda", "cuda_cpu_device", "accelerator"])
def test_synchronize_without_a_gpu_raises_what_torch_raises(call, torch):
    if torch.cuda.is_available():
        pytest.skip("this torch has CUDA")
    caught = []
    for lib in (torch, core):
        with pytest.raises(Exception) as info:
            call(lib)
        caught.append((type(info.value).__name__, str(info.value)))
    assert caught[0] == caught[1]


def test_a_bool_device_for_cuda_is_a_type_error_as_in_torch(torch):
    caught = []
    for lib in (torch, core):
        with pytest.raises(TypeError) as info:
            lib.ones(2).cuda(True)
        caught.append(str(info.value))
    assert caught[0] == caught[1]
