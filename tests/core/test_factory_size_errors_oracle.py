"""Factory size arguments that are not ints: PyTorch's argument parser's errors, word for word.

The parser decides from a size list's first element alone whether it has a list of ints (so ``channels / 4``, a
float, fails with "found element of type float at pos 0"); a bad later element fails while the list is unpacked;
sizes given one by one count as a list only when the first is an int (else: too many arguments, or for ``rand`` and
``randn`` the list of their signatures).
"""

import numpy as np
import pytest

import core

CALLS = [
    ("empty", ((2.5, 3),)), ("zeros", ([2.0, 3],)), ("ones", ((True, 3),)), ("empty", (("a", 3),)),
    ("zeros", ((None, 3),)), ("ones", ((2.5,),)), ("full", ((2.5, 3), 1.0)), ("rand", ((2.5, 3),)),
    ("zeros", ((3, 2.5),)), ("empty", ((2, 3, 4.0),)), ("randn", ((3, None),)),
    ("empty", (2.5, 3)), ("zeros", (True, 3, 4)), ("ones", ("a", 2)), ("rand", (2.5, 3)), ("randn", (True, 3, 4)),
    ("zeros", (3, 2.5)), ("zeros", (2.5,)), ("zeros", (True,)), ("randn", (True,)),
]


def _error(lib, name, args):
    try:
        getattr(lib, name)(*args)
    except Exception as e:  # the type is part of what is compared
        return type(e).__name__, str(e)
    return None


@pytest.mark.parametrize(("name", "args"), CALLS, ids=[f"{n}{a!r}" for n, a in CALLS])
def test_non_int_size_raises_torchs_error(torch, name, args):
    theirs = _error(torch, name, args)
    assert theirs is not None
    assert _error(core, name, args) == theirs


KEYWORD_AND_METHOD_CALLS = [
    lambda lib: lib.zeros(size=[2.5, 3]), lambda lib: lib.zeros(size=(2, 2.5)), lambda lib: lib.zeros(size=2.5),
    lambda lib: lib.rand(size=(2.5,)), lambda lib: lib.ones(size=(np.float32(2),)),
    lambda lib: lib.empty((np.float64(2), 3)), lambda lib: lib.ones(2).new_zeros(size=(2.5,)),
    lambda lib: lib.ones(2).new_zeros((2.0, 3)), lambda lib: lib.ones(2).new_ones(2.0, 3),
    lambda lib: lib.ones(2).new_zeros(2, 3.0), lambda lib: lib.ones(2).new_zeros(), lambda lib: lib.zeros(),
]


def _outcome(call, lib):
    try:
        return tuple(call(lib).shape)
    except Exception as e:  # the type is part of what is compared
        return type(e).__name__, str(e)


@pytest.mark.parametrize("index", range(len(KEYWORD_AND_METHOD_CALLS)))
def test_sizes_by_keyword_and_new_factories_raise_torchs_errors(torch, index):
    """``size=`` names no position and the argument's own type; ``new_zeros`` names itself; NumPy scalar types are
    named ``numpy.float64``."""
    call = KEYWORD_AND_METHOD_CALLS[index]
    assert _outcome(call, core) == _outcome(call, torch)


@pytest.mark.parametrize("size", [(3, True), (np.int64(2), 3), [2, 3]])
def test_int_like_sizes_build_the_same_shape(torch, size):
    assert tuple(core.zeros(size).shape) == tuple(torch.zeros(size).shape)


def test_a_float_channel_count_in_a_layer_fails_as_in_torch(torch):
    """pytorch-cifar's ShuffleNet computes ``mid_planes = out_planes / 4``: the Conv2d's weight can't be made."""
    assert _error(core.nn, "Conv2d", (24, 60 / 4, 1)) == _error(torch.nn, "Conv2d", (24, 60 / 4, 1))
