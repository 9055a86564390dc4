"""Oracle tests for methods and functions called with too few, too many or unknown arguments: the exception type
is torch's (a TypeError from its argument parser, an IndexError where torch takes the extra ints as dims), and
where the parser's words are cheap to give, the message too.

Before: ``x.flip()`` flipped nothing, ``x.split()`` raised AttributeError, ``x.expand()`` a RuntimeError,
``x.to(1, 2, 3, 4, 5)`` an AssertionError about CUDA, ``x.sort(0, True, True)`` sorted stably, ``x.squeeze(0, 2)``
refused the dims torch's method takes as varargs and ``torch.einsum()`` raised TypeError.
"""

from __future__ import annotations

import pytest

CALLS = {
    "sum_too_many": lambda lib, x: x.sum(0, True, lib.float32, 5),
    "view_unknown_keyword": lambda lib, x: x.view(2, 3, k=1),
    "transpose_too_few": lambda lib, x: x.transpose(0),
    "transpose_too_many": lambda lib, x: x.transpose(0, 1, 2),
    "add_too_many": lambda lib, x: x.add(1, 2, 3),
    "softmax_no_dim": lambda lib, x: x.softmax(),
    "unsqueeze_no_dim": lambda lib, x: x.unsqueeze(),
    "matmul_none": lambda lib, x: x.matmul(),
    "narrow_too_few": lambda lib, x: x.narrow(0, 0),
    "split_nothing": lambda lib, x: x.split(),
    "split_function_nothing": lambda lib, x: lib.split(x),
    "flip_nothing": lambda lib, x: x.flip(),
    "flip_function_nothing": lambda lib, x: lib.flip(x),
    "expand_nothing": lambda lib, x: x.expand(),
    "sort_stable_positional": lambda lib, x: x.sort(0, True, True),
    "sort_function_stable_positional": lambda lib, x: lib.sort(x, 0, True, True),
    "squeeze_varargs": lambda lib, x: x.reshape(1, 1, 6).squeeze(0, 1),
    "squeeze_varargs_keep": lambda lib, x: x.reshape(1, 1, 6).squeeze(0, 2),
    "squeeze_varargs_out_of_range": lambda lib, x: x.squeeze(0, 1, 2),
    "to_too_many": lambda lib, x: x.to(1, 2, 3, 4, 5),
    "einsum_nothing": lambda lib, x: lib.einsum(),
    "cat_nothing": lambda lib, x: lib.cat(),
    "zeros_unknown_keyword": lambda lib, x: lib.zeros(2, foo=1),
    "linear_no_weight": lambda lib, x: lib.nn.functional.linear(x),
    "topk_nothing": lambda lib, x: x.topk(),
    "gather_no_index": lambda lib, x: x.gather(0),
    "clamp_too_many": lambda lib, x: lib.clamp(x, 0, 1, 2, 3),
    "arange_too_many": lambda lib, x: lib.arange(1, 2, 3, 4),
}

WORDED = {"split_function_nothing", "flip_nothing", "flip_function_nothing", "expand_nothing", "to_too_many",
          "einsum_nothing", "squeeze_varargs_out_of_range"}


def _outcome(lib, name):
    x = lib.arange(6.0).reshape(2, 3)
    try:
        out = CALLS[name](lib, x)
    except Exception as error:  # (the type is what is compared)
        return type(error).__name__, str(error).split("\n")[0]
    return "ok", out.tolist(), out.stride()


@pytest.mark.parametrize("name", sorted(CALLS))
def test_wrong_arity_raises_torchs_exception_type(name, torch):
    import core

    ours, theirs = _outcome(core, name), _outcome(torch, name)
    assert ours[0] == theirs[0]
    if ours[0] == "ok" or name in WORDED:
        assert ours == theirs
