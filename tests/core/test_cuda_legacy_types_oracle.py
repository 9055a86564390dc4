"""torch.cuda.FloatTensor and its siblings: names that exist without a GPU, as in PyTorch's CPU build."""

import pytest

import core

NAMES = ["FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "LongTensor", "IntTensor", "ShortTensor",
         "CharTensor", "ByteTensor", "BoolTensor"]


@pytest.mark.parametrize("name", NAMES)
def test_cuda_legacy_type_prints_its_torch_name(torch, name):
    assert repr(getattr(core.cuda, name)).replace("core", "torch") == repr(getattr(torch.cuda, name))


def test_an_old_tutorials_tensor_type_choice_runs_without_a_gpu(torch):
    for lib in (core, torch):
        cuda = lib.cuda.is_available()
        Tensor = lib.cuda.FloatTensor if cuda else lib.FloatTensor
        assert Tensor is lib.FloatTensor
        assert Tensor([1, 2]).dtype is lib.float32


def test_a_cpu_tensor_is_not_an_instance_of_a_cuda_type(torch):
    for lib in (core, torch):
        t = lib.zeros(2)
        assert not isinstance(t, lib.cuda.FloatTensor)
        assert isinstance(t, lib.FloatTensor)


@pytest.mark.skipif(core.cuda.is_available(), reason="without a GPU only: the call builds a tensor with one")
@pytest.mark.parametrize("args", [(3,), ([1.0, 2.0],), ()])
def test_calling_a_cuda_type_without_a_gpu_raises_torchs_type_error(torch, args):
    with pytest.raises(TypeError) as theirs:
        torch.cuda.FloatTensor(*args)
    with pytest.raises(TypeError) as ours:
        core.cuda.FloatTensor(*args)
    assert str(ours.value) == str(theirs.value)
