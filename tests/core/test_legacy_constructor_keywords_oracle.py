"""The legacy constructors' keyword forms: ``torch.Tensor(size=(2, 3), device=ctx)`` (d2l-pytorch's RNN from scratch
builds its parameters so), ``FloatTensor(data=[...])``, ``Tensor(other=t)``; PyTorch's parser takes one of them
alone, a ``size`` of ints only, and ``data`` must be a sequence."""

import numpy as np
import pytest

from tests.core.oracle import check, check_error

BUILD = {
    "tensor_size_tuple": lambda lib: lib.Tensor(size=(2, 3)).zero_(),
    "tensor_size_list": lambda lib: lib.Tensor(size=[4]).fill_(1.5),
    "tensor_size_empty": lambda lib: lib.Tensor(size=()).fill_(2.0),
    "tensor_size_Size": lambda lib: lib.Tensor(size=lib.Size([3, 1])).zero_(),
    "tensor_size_device": lambda lib: lib.Tensor(size=(2,), device="cpu").normal_(std=0.01).mul(0),
    "tensor_data": lambda lib: lib.Tensor(data=[1.0, 2.5]),
    "tensor_data_array": lambda lib: lib.Tensor(data=np.arange(3.0)),
    "tensor_other": lambda lib: lib.Tensor(other=lib.ones(2)),
    "float_size": lambda lib: lib.FloatTensor(size=(2, 2)).zero_(),
    "long_size": lambda lib: lib.LongTensor(size=(3,)).zero_(),
    "double_data": lambda lib: lib.DoubleTensor(data=[[1, 2], [3, 4]]),
    "long_data": lambda lib: lib.LongTensor(data=(5, 6)),
}

REFUSED = {
    "int_size": lambda lib: lib.Tensor(size=2),
    "float_in_size": lambda lib: lib.Tensor(size=(2.5,)),
    "size_and_positional": lambda lib: lib.Tensor(2, size=(2,)),
    "size_and_data": lambda lib: lib.Tensor(data=(1, 2), size=(2,)),
    "unknown_keyword": lambda lib: lib.Tensor(foo=3),
    "data_int": lambda lib: lib.Tensor(data=3),
    "data_tensor": lambda lib: lib.Tensor(data=lib.ones(2)),
    "legacy_unknown_keyword": lambda lib: lib.FloatTensor(shape=(2,)),
    "legacy_data_int": lambda lib: lib.LongTensor(data=3),
}


@pytest.mark.parametrize("name", sorted(BUILD))
def test_keyword_construction(name, torch):
    check(lambda lib: BUILD[name](lib), [], torch)


@pytest.mark.parametrize("name", sorted(REFUSED))
def test_keyword_errors(name, torch):
    check_error(lambda lib: REFUSED[name](lib), [], torch)


def test_invalid_combination_message_lists_signatures():
    import core

    with pytest.raises(TypeError, match=r"new\(\) received an invalid combination of arguments - got \(foo=int, \)"):
        core.Tensor(foo=3)
    with pytest.raises(TypeError, match=r"data must be a sequence \(got int\)"):
        core.Tensor(data=3)
