"""float32 cumsum/cumprod's float64 scan after the twenty-eighth session's cut gives the bits of the call it replaced.

The reference is ``scan(x, axis=dim, dtype=np.float64)`` (NumPy's cumsum or cumprod casting as it goes), as
``core.ops.cumulative._accumulated`` called it before (commit 5a65a8d4); now the scan runs in place on one float64
copy, and along a dim other than the last as a loop over its rows. Both run on the same inputs (NaN, infinities,
-0, huge and tiny values), bit for bit, with the row loop's size limits lowered so small cases take it too.
"""

import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core.ops.cumulative  # noqa: F401

_CUM = sys.modules["core.ops.cumulative"]
_SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 3e38, -3e38, 1e-45, 1e30, -1e-30]


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 9), min_size=1, max_size=4), dim=st.integers(0, 3),
       scan=st.sampled_from([np.cumsum, np.cumprod]), dtype=st.sampled_from([np.float32, np.float16, np.float64]),
       seed=st.integers(0, 2 ** 32 - 1), specials=st.lists(st.sampled_from(_SPECIAL), max_size=4),
       rows=st.booleans(), transposed=st.booleans())
def test_float64_scan_gives_the_old_calls_bits(shape, dim, scan, dtype, seed, specials, rows, transposed):
    rng = np.random.default_rng(seed)
    dim = dim % len(shape)
    x = (rng.standard_normal(shape) * rng.choice([0.5, 1.0, 3.0])).astype(dtype)
    x.reshape(-1)[rng.integers(0, x.size, len(specials))] = specials
    if transposed:  # (a strided input)
        x = x.T
    old = scan(x, axis=dim, dtype=np.float64)
    limit = _CUM._ROW_MIN
    _CUM._ROW_MIN = 0 if rows else limit
    try:
        with np.errstate(all="ignore"):
            new = _CUM._scan_float64(scan, x, dim)
    finally:
        _CUM._ROW_MIN = limit
    assert new.dtype == old.dtype and new.shape == old.shape
    assert np.array_equal(np.ascontiguousarray(old).view(np.uint64), np.ascontiguousarray(new).view(np.uint64))
