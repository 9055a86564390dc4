"""clamp(min=number, max=number) through ``np.clip`` (the twenty-eighth session) gives the bits of maximum-then-minimum.

Before (commit 5a65a8d4) ``_clamp_arrays`` (then in ``core.ops.math_binary``, now ``core.ops.math_clamp``) took
``np.maximum`` and then ``np.minimum``, two passes; with both bounds numbers other than 0 (no ties to keep) it now
takes NumPy's one-pass ``clip``. Both routes run on the same random bit patterns (NaN payloads, infinities,
subnormals, -0), bounds (NaN, inf, lo > hi) and layouts, and must give the same bytes, dtype and strides.
"""

import sys

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import core
import core.ops.math_clamp

_MB = sys.modules["core.ops.math_clamp"]
_BOUNDS = st.sampled_from([-0.5, 0.5, 1.0, -1.0, 3, -2, float("inf"), float("-inf"), float("nan"), 1e-40, -1e30,
                           1e300, 2.5])


@settings(max_examples=200, deadline=None)
@given(shape=st.lists(st.integers(1, 40), min_size=1, max_size=3), lo=_BOUNDS, hi=_BOUNDS,
       dtype=st.sampled_from([np.float32, np.float64]), seed=st.integers(0, 2 ** 32 - 1), transposed=st.booleans())
def test_clip_gives_maximum_then_minimums_bits(shape, lo, hi, dtype, seed, transposed):
    rng = np.random.default_rng(seed)
    uint = np.uint32 if dtype == np.float32 else np.uint64
    bits = rng.integers(0, np.iinfo(uint).max, shape, dtype=uint, endpoint=True)
    x = core.tensor(bits.view(dtype))
    if transposed:
        x = x.t() if x.dim() == 2 else x.transpose(0, -1)
    if dtype == np.float32 and 1e300 in (lo, hi):
        return  # (refused: the bound does not fit float32)
    results = []
    for clips in (False, True):
        _MB._clips = (lambda *a: False) if not clips else _CLIPS
        try:
            results.append(_MB._clamp_arrays(x, lo, hi))
        finally:
            _MB._clips = _CLIPS
    old, new = results
    assert old.dtype == new.dtype and old.shape == new.shape and old.strides == new.strides
    assert np.array_equal(np.ascontiguousarray(old).view(np.uint8), np.ascontiguousarray(new).view(np.uint8))


_CLIPS = _MB._clips
