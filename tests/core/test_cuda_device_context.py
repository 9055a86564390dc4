"""``torch.cuda.device`` and ``device_of`` as PyTorch's CPU build has them: the index they hold, -1 and CPU
tensors as no-ops, entering with a GPU index refused, a device that is not CUDA refused."""

import pytest

import core


@pytest.mark.parametrize("arg", [1, "cuda:2", "cuda", None, -1])
def test_cuda_device_holds_the_index_torch_holds(torch, arg):
    assert core.cuda.device(arg).idx == torch.cuda.device(arg).idx


def test_a_cpu_device_is_refused_with_torchs_error(torch):
    with pytest.raises(ValueError, match="Expected a cuda device, but got: cpu") as theirs:
        torch.cuda.device("cpu")
    with pytest.raises(ValueError) as mine:
        core.cuda.device("cpu")
    assert str(mine.value) == str(theirs.value)


@pytest.mark.skipif(core.cuda.is_available(), reason="the CPU-only answer")
def test_entering_a_gpu_index_without_cuda_raises_while_minus_one_and_cpu_tensors_run_their_block(torch):
    for lib in (core, torch):
        with pytest.raises(RuntimeError, match="compiled without CUDA support"):
            with lib.cuda.device(0):
                pass
        ran = []
        with lib.cuda.device(-1):
            ran.append("device")
        with lib.cuda.device_of(lib.ones(2)):
            ran.append("device_of")
        assert ran == ["device", "device_of"]
