"""Type promotion of arithmetic against PyTorch: every dtype pair, over the three tiers (dimensioned
tensors, 0-d tensors, Python numbers), for ``+ - * / // %`` (values and dtypes), and ``result_type``."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.test_math_ops import same_or_same_error

DTYPES = ["float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool"]
OPS = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b, "truediv": lambda a, b: a / b,
    "floordiv": lambda a, b: a // b, "mod": lambda a, b: a % b,
}
SCALARS = [3, -2, 2.5, -0.75, True, False, 0, 1e20]

_VALUES = {"bool": [True, False, True, True], "uint8": [3, 2, 200, 7], "int8": [3, -2, 100, -7]}


def values(dtype: str, shape=(4,)) -> np.ndarray:
    """Non-zero values (so integer divisions give numbers), some near the dtype's limits to show wrapping."""
    base = _VALUES.get(dtype, [3, -2, 100, -7] if not dtype.startswith("float") else [3.5, -2.0, 100.25, -0.5])
    arr = np.resize(np.array(base, dtype=dtype), shape)
    return np.asarray(arr)


def zero_d(dtype: str) -> np.ndarray:
    return np.asarray(values(dtype)[1])


@pytest.mark.parametrize("dtype_a", DTYPES)
@pytest.mark.parametrize("op", list(OPS))
def test_tensor_pairs_of_every_dtype_promote_like_torch(op, dtype_a, torch):
    fn = OPS[op]
    for dtype_b in DTYPES:
        a, b = values(dtype_a, (2, 4)), values(dtype_b)
        same_or_same_error(lambda lib, x, y: fn(x, y), [a, b], torch)            # dimensioned, dimensioned
        same_or_same_error(lambda lib, x, y: fn(x, y), [a, zero_d(dtype_b)], torch)  # dimensioned, 0-d
        same_or_same_error(lambda lib, x, y: fn(x, y), [zero_d(dtype_a), b], torch)  # 0-d, dimensioned
        same_or_same_error(lambda lib, x, y: fn(x, y), [zero_d(dtype_a), zero_d(dtype_b)], torch)  # 0-d, 0-d


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("op", list(OPS))
def test_python_numbers_never_widen_a_tensor_of_their_category(op, dtype, torch):
    fn = OPS[op]
    for s in SCALARS:
        for arr in (values(dtype, (2, 4)), zero_d(dtype)):
            same_or_same_error(lambda lib, x, s=s: fn(x, s), [arr], torch)
            same_or_same_error(lambda lib, x, s=s: fn(s, x), [arr], torch)


@pytest.mark.parametrize("op", list(OPS))
def test_three_tiers_combine_by_category(op, torch):
    fn = OPS[op]
    cases = [("int32", "int64"), ("int8", "float64"), ("uint8", "int8"), ("float16", "float64"), ("bool", "int64"),
             ("int64", "float16"), ("bool", "float32")]
    for dim_dtype, zero_dtype in cases:
        for s in (2, 2.5, True):
            same_or_same_error(lambda lib, x, z, s=s: fn(fn(x, z), s), [values(dim_dtype), zero_d(zero_dtype)], torch)
            same_or_same_error(lambda lib, x, z, s=s: fn(z, fn(s, x)), [values(dim_dtype), zero_d(zero_dtype)], torch)


def test_result_type_matches_torch_over_every_tier(torch):
    for da in DTYPES:
        for db in DTYPES:
            for a, b in ((values(da), values(db)), (values(da), zero_d(db)), (zero_d(da), zero_d(db))):
                ours = core.result_type(core.tensor(a), core.tensor(b))
                theirs = torch.result_type(torch.tensor(a), torch.tensor(b))
                assert str(ours) == str(theirs), (da, db, a.ndim, b.ndim)
        for s in SCALARS:
            expected = torch.result_type(torch.tensor(values(da)), s)
            assert str(core.result_type(core.tensor(values(da)), s)) == str(expected)


def test_int_true_division_and_default_dtype_follow_torch(torch):
    same_or_same_error(lambda lib, x: x / 2, [values("int64")], torch)
    same_or_same_error(lambda lib, x: x / x, [values("int32")], torch)
    same_or_same_error(lambda lib, x: lib.exp(x), [values("int64")], torch)
    prev = (core.get_default_dtype(), torch.get_default_dtype())
    try:
        core.set_default_dtype(core.float64)
        torch.set_default_dtype(torch.float64)
        for fn in (lambda lib, x: x / 2, lambda lib, x: x * 2.5, lambda lib, x: lib.sqrt(x), lambda lib, x: x // 0.5,
                   lambda lib, x: x.float() * 2.5):
            same_or_same_error(fn, [values("int64")], torch)
    finally:
        core.set_default_dtype(prev[0])
        torch.set_default_dtype(prev[1])


def test_integer_overflow_wraps_silently_like_torch(torch):
    big = np.array([2 ** 62, -2 ** 63, 2 ** 63 - 1])
    for fn in (lambda lib, x: x * 4, lambda lib, x: x + x, lambda lib, x: -x, lambda lib, x: x // -1,
               lambda lib, x: x % -1,
               lambda lib, x: x.int() * 3, lambda lib, x: x.to(lib.uint8) - 200, lambda lib, x: x.to(lib.int8) * 100):
        same_or_same_error(fn, [big], torch)
