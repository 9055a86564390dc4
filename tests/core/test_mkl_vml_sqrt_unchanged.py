"""``core._mkl_vml``'s float32 sqrt after the twenty-fifth session's cut gives the bits of the steps it replaced.

The reference is ``_sqrt_steps`` as it stood before (commit 9d38d74e), kept verbatim: the route is now decided
by one test of the looked-up estimates (``count_nonzero`` on small blocks, a min on large ones) instead of two
reductions of the keys. Both run on the same inputs, bit for bit, on any CPU (the steps are NumPy's; whether they
are torch's bits is ``test_mkl_vml_oracle.py``'s question)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _mkl_vml
from core._mkl_vml import _HALF, _KEY_LOW, _KEY_TOP, _LOW, _TOP, _U32, _quiet, _table, blockwise


def _old_sqrt_steps(x, out):
    key = np.right_shift(x.view(_U32), 11)
    fast = key.min() >= _KEY_LOW and key.max() <= _KEY_TOP
    r = _table().take(key, mode="raise" if fast else "clip")
    with _quiet(fast):
        y = x * r
        r *= _HALF
        e = y * r
        np.subtract(_HALF, e, out=e)
        t = y * e
        y += t
        np.multiply(r, e, out=t)
        r += t
        np.multiply(y, y, out=t)
        np.subtract(x, t, out=t)
        t *= r
        np.add(t, y, out=out)
    if not fast:
        off = (x.view(_U32) - _U32(_LOW)) > _U32(_TOP - _LOW)
        if off.any():
            out[off] = np.sqrt(x[off])


def _same(x):
    with np.errstate(all="ignore"):
        old, new = blockwise(x, _old_sqrt_steps), _mkl_vml.vsqrt(x)
    assert np.array_equal(old.view(_U32), new.view(_U32))


_EDGES = [0, 0x80000000, 1, 0x007FFFFF, _LOW, _LOW + 1, _TOP - 1, _TOP, _TOP + 1, 0x7F7FF7FF, 0x7F7FF800,
          0x7F7FFFFF, 0x7F800000, 0x7F800001, 0xFFC00000, 0xBF800000, 0x3F800000, 0x40800000]


@settings(max_examples=200, deadline=None)
@given(size=st.sampled_from([1, 3, 105, 2047, 2048, 2049, 16384, 16385, 40000]), seed=st.integers(0, 2 ** 32 - 1),
       edges=st.lists(st.sampled_from(_EDGES), max_size=4), positive=st.booleans())
def test_vsqrt_gives_the_old_steps_bits(size, seed, edges, positive):
    rng = np.random.default_rng(seed)
    bits = rng.integers(_LOW, _TOP + 1, size, dtype=np.uint32) if positive else \
        rng.integers(0, 2 ** 32, size, dtype=np.uint32)
    places = rng.integers(0, size, len(edges))
    bits[places] = edges
    _same(bits.view(np.float32))


def test_every_997th_positive_normal_float_gives_the_old_steps_bits():
    _same(np.arange(_LOW, 0x7F800000, 997, dtype=np.uint32).view(np.float32))
