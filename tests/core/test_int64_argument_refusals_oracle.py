"""Oracle tests for Python ints past int64 and negative or huge sizes handed to ops: the exception type and the
message (its first line: torch's parser adds a C++ trace after some) are torch's.

torch reads such arguments as ``int64_t``: past it, ``narrow``/``select``/``topk``/``roll``/a nested list to
``tensor()`` raise "Overflow when unpacking long long" (core narrowed, rolled or inferred float32 from them);
a negative size names the first negative size of the result (``repeat``) or its index in the shape
(``reshape``/``view``); a shape whose element count overflows int64 is torch's "Storage size calculation
overflowed" (core let NumPy raise MemoryError or ValueError); ``new_full``'s size errors name ``new_full()``.
"""

from __future__ import annotations

import pytest

CASES = {
    "narrow_length": lambda lib, x: x.narrow(0, 0, 2 ** 63),
    "narrow_start": lambda lib, x: x.narrow(0, 2 ** 64, 1),
    "narrow_negative_length": lambda lib, x: x.narrow(0, 0, -1),
    "narrow_negative_start": lambda lib, x: x.narrow(0, -5, 1),
    "select_index": lambda lib, x: x.select(0, 2 ** 63),
    "topk_k": lambda lib, x: x.topk(2 ** 63),
    "topk_negative_k": lambda lib, x: x.topk(-1),
    "roll_shift": lambda lib, x: x.roll(2 ** 63),
    "roll_shift_dim": lambda lib, x: x.roll(2 ** 64, 0),
    "roll_int64_min": lambda lib, x: x.roll(2 ** 63 - 1, 0),
    "size_negative_item": lambda lib, x: lib.Size([-1]),
    "tensor_nested": lambda lib, x: lib.tensor([[1], [2 ** 63]]),
    "tensor_nested_float": lambda lib, x: lib.tensor([[1.5], [2 ** 63]]),
    "tensor_nested_deep": lambda lib, x: lib.tensor([[[1]], [[-2 ** 63 - 1]]]),
    "tensor_flat": lambda lib, x: lib.tensor([1, 2 ** 63]),
    "repeat_overflow": lambda lib, x: x.repeat(2 ** 63, 1),
    "repeat_negative": lambda lib, x: x.repeat(-1, 1),
    "repeat_negative_second": lambda lib, x: x.repeat(1, -2),
    "repeat_storage_overflow": lambda lib, x: x.repeat(2 ** 40, 2 ** 40),
    "expand_overflow": lambda lib, x: x.expand(2 ** 63, 3),
    "expand_negative": lambda lib, x: x.expand(-2, 3),
    "new_full_size_overflow": lambda lib, x: x.new_full((2 ** 63,), 1),
    "new_full_negative": lambda lib, x: x.new_full((-1,), 1),
    "new_full_value_overflow": lambda lib, x: x.long().new_full((2,), 2 ** 64),
    "reshape_negative": lambda lib, x: x.reshape(-2, 3),
    "view_negative_second": lambda lib, x: x.view(2, -3),
    "empty_storage_overflow": lambda lib, x: lib.empty(2 ** 62, 2 ** 62),
    "zeros_overflow": lambda lib, x: lib.zeros(2 ** 63),
}


def _outcome(lib, case):
    """(exception type name, first line of its message), or the result's values and strides."""
    x = lib.arange(6.0).reshape(2, 3)
    try:
        out = CASES[case](lib, x)
    except Exception as error:  # (the type is what is compared)
        return type(error).__name__, str(error).split("\n")[0].rstrip('"')
    return ("ok", out.tolist(), out.stride()) if hasattr(out, "stride") else ("ok", tuple(out))


@pytest.mark.parametrize("case", sorted(CASES))
def test_int64_and_size_refusals_match_torch(case, torch):
    import core

    assert _outcome(core, case) == _outcome(torch, case)
