"""``Tensor.type()`` with a CUDA type on a machine without CUDA raises what PyTorch's CPU build raises.

Old tutorials cast with ``x.type(torch.cuda.FloatTensor)``; PyTorch's CPU build initialises CUDA before it reads the
name and fails with its long ``RuntimeError`` about the ATen_cuda library (``x.cuda()`` is another error, an
``AssertionError``)."""

import pytest

import core
from tests.core.oracle import raised

pytestmark = pytest.mark.skipif(core.cuda.is_available(), reason="without a GPU only: with one the cast works")


@pytest.mark.parametrize("kind", ["FloatTensor", "LongTensor", "DoubleTensor"])
def test_casting_to_a_cuda_legacy_type_raises_torchs_runtimeraised(torch, kind):
    ours = raised(lambda: core.randn(2, 3).type(getattr(core.cuda, kind)))
    theirs = raised(lambda: torch.randn(2, 3).type(getattr(torch.cuda, kind)))
    assert ours == theirs
    assert theirs[0] == "RuntimeError"


@pytest.mark.parametrize("name", ["torch.cuda.FloatTensor", "torch.cuda.IntTensor", "torch.cuda.NoSuchTensor"])
def test_casting_to_a_cuda_type_name_raises_before_the_name_is_read(torch, name):
    assert raised(lambda: core.ones(2).type(name)) == raised(lambda: torch.ones(2).type(name))


def test_an_unknown_cpu_type_name_is_still_a_valueraised(torch):
    ours = raised(lambda: core.ones(2).type("torch.NoSuchTensor"))
    assert ours == raised(lambda: torch.ones(2).type("torch.NoSuchTensor"))
    assert ours[0] == "ValueError"


def test_cuda_is_still_torchs_assertionraised(torch):
    assert raised(lambda: core.ones(2).cuda()) == raised(lambda: torch.ones(2).cuda())
