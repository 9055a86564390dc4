"""What the Chinese textbooks' notebooks in the corpus (PyTorch 中文手册, 《深度学习框架PyTorch：入门与实践》) needed,
each checked against torch: a legacy setter's CUDA refusal, tensors over a storage, a custom Function's backward
node called directly.
"""

from __future__ import annotations

import pytest

import core


def _error(fn):
    try:
        fn()
    except Exception as exc:  # the type and text are what is compared
        return type(exc).__name__, str(exc)
    return None


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type")
@pytest.mark.parametrize("name", ["torch.cuda.FloatTensor", "torch.cuda.LongTensor", "torch.FooTensor", "float",
                                  "torch.IntTensor"])
def test_set_default_tensor_type_by_name_raises_what_torch_raises_without_cuda(torch, name):
    try:
        assert _error(lambda: core.set_default_tensor_type(name)) == _error(lambda: torch.set_default_tensor_type(name))
        assert core.get_default_dtype() is core.float32
    finally:
        core.set_default_dtype(core.float32)
        torch.set_default_dtype(torch.float32)


@pytest.mark.filterwarnings("ignore:torch.set_default_tensor_type")
def test_set_default_tensor_type_refuses_a_cuda_class_without_cuda(torch):
    assert (_error(lambda: core.set_default_tensor_type(core.cuda.DoubleTensor))
            == _error(lambda: torch.set_default_tensor_type(torch.cuda.DoubleTensor)))
    assert core.get_default_dtype() is core.float32
