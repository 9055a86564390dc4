"""``Tensor.view`` and ``Tensor.reshape`` with sizes that are not ints: PyTorch's parser errors, word for word.

Core took any number and truncated it (``x.view(2.7, 3)`` was a 2x3 view); PyTorch refuses floats, and decides from
a list's first element whether it has a list of ints at all, which picks the message.
"""

import numpy as np
import pytest

import core

CASES = [(1.0, 6), ((1.0, 6),), (6, 1.0), ((6, 1.0),), ((2.0, 3.0),), ([1.0, 6],), (True, 6), ((True, 6),),
         ("a", 6), (None,), (2.5,), ((2.5,),)]
INT_LIKE = [(6, True), (np.int64(2), 3), ((np.int64(2), -1),), ([3, 2],), (-1,), ((2, -1),)]


def _outcome(lib, method, args):
    x = lib.ones(6)
    try:
        return tuple(getattr(x, method)(*args).shape)
    except Exception as e:  # the type is part of what is compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("method", ["view", "reshape"])
@pytest.mark.parametrize("args", CASES + INT_LIKE, ids=repr)
def test_sizes_are_parsed_as_torch_parses_them(torch, method, args):
    assert _outcome(core, method, args) == _outcome(torch, method, args)


@pytest.mark.parametrize("method", ["view", "reshape"])
def test_an_integer_tensor_is_a_size_and_a_float_tensor_is_not(torch, method):
    calls = [lambda lib: (lib.tensor(2), 3), lambda lib: ((lib.tensor(2), 3),), lambda lib: (lib.tensor(2.0), 3)]
    for lib_args in calls:
        assert _outcome(core, method, lib_args(core)) == _outcome(torch, method, lib_args(torch))


def test_a_float_size_is_not_truncated():
    with pytest.raises(TypeError):
        core.ones(6).view(2.7, 3)


def test_view_of_a_dtype_still_reinterprets(torch):
    assert core.ones(2).view(core.int32).tolist() == torch.ones(2).view(torch.int32).tolist()
