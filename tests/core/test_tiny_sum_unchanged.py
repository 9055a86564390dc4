"""``ordered_sum`` of a 1-d float32 or float64 array of 1 to 3 elements (the chapter's ``(x * w).sum()``) adds Python
floats where it called ``np.add.reduce`` (issue #23): the same bits, and the same warnings and errors under every
NumPy error state. hypothesis draws the values with signed zeros, infinities, NaNs, subnormals and sums that overflow;
the reference is ``np.add.reduce`` itself, which the route called before. The torch oracle tests of ``sum`` are
``test_reduction*``."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core._cascade_sum import ordered_sum

_F32_EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan, 3.4028235e38, -3.4028235e38, 1.7e38, 1e-45, -1e-45, 1.0,
              2.0 ** -24, 1.0 + 2.0 ** -23]
_F64_EDGES = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.7976931348623157e308, -1.7976931348623157e308, 9e307, 5e-324,
              1.0, 2.0 ** -53, 1.0 + 2.0 ** -52]


def _values(dtype, edges):
    width = 32 if dtype == np.float32 else 64
    return st.lists(st.one_of(st.sampled_from(edges), st.floats(width=width, allow_nan=True)), min_size=1,
                    max_size=3)


def _outcome(fn, x, mode):
    """(bits of the result or the error's type, the warnings' messages) under ``np.errstate(all=mode)``."""
    with warnings.catch_warnings(record=True) as caught, np.errstate(all=mode):
        warnings.simplefilter("always")
        try:
            res = fn(x)
        except FloatingPointError as error:
            return str(error), []
    arr = np.asarray(res)
    return (type(res), arr.dtype, arr.tobytes()), [str(w.message) for w in caught]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("mode", ["warn", "raise", "ignore"])
@settings(max_examples=120, deadline=None)
@given(data=st.data())
def test_tiny_whole_sum_is_add_reduce_bit_for_bit(dtype, mode, data):
    values = data.draw(_values(dtype, _F32_EDGES if dtype == np.float32 else _F64_EDGES))
    x = np.array(values, dtype)
    assert _outcome(lambda a: ordered_sum(a, (0,), False), x, mode) == _outcome(np.add.reduce, x, mode)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_tiny_sum_of_a_strided_view_and_rounding_ties(dtype):
    """A stepped view, a float32 sum whose double sum would round differently (1 + 2**-24 + 2**-24), and the
    largest finite sums."""
    big = np.finfo(dtype).max
    cases = [np.arange(6, dtype=dtype)[::2], np.array([1.0, 2.0 ** -24, 2.0 ** -24], dtype),
             np.array([big, -big, big], dtype), np.array([big / 2, big / 2], dtype), np.array([big, big], dtype),
             np.array([-0.0, -0.0, -0.0], dtype)]
    for x in cases:
        assert _outcome(lambda a: ordered_sum(a, (0,), False), x, "warn") == _outcome(np.add.reduce, x, "warn")
