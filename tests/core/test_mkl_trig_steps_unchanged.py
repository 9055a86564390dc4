"""``core._mkl_trig``'s float32 sin/cos steps with 0-d constants and one reduction of |x| for the route give the bits
of the steps they replaced (issue #23).

The reference below is ``_small``/``_steps`` as they stood before the cut (commit 2e8bf282), kept verbatim (the
table route for |x| > 10000, ``_big``, is unchanged and shared). hypothesis draws float32 bit patterns (every
sign and exponent, inf, NaN, the 10000 edge) and block sizes; both must agree bit for bit. The torch oracle
tests are ``test_mkl_trig_oracle.py``."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _mkl_trig as T

_U32 = np.uint32


def _old_small(x, out, cos):
    a = np.abs(x)
    if cos:
        t = a + T._HALF_PI
        t *= T._INV_PI
    else:
        t = a * T._INV_PI
    t += T._SHIFT
    n = t.astype(np.float64)
    n -= T._D_SHIFT_COS if cos else T._D_SHIFT
    r = a.astype(np.float64)
    p = n * T._PI_1
    r -= p
    np.multiply(n, T._PI_2, out=p)
    r -= p
    r2 = np.multiply(r, r, out=n)
    np.multiply(r2, T._S[0], out=p)
    for c in T._S[1:]:
        p += c
        p *= r2
    p *= r
    p += r
    bits = t.view(_U32)
    bits <<= _U32(31)
    if not cos:
        bits ^= x.view(_U32) & T._SIGN
    np.bitwise_xor(p.astype(np.float32).view(_U32), bits, out=out.view(_U32))


def _old_steps(x, out, cos):
    fast = x.min() >= -T._LIMIT and x.max() <= T._LIMIT
    if fast:
        _old_small(x, out, cos)
        return
    with np.errstate(all="ignore"):
        _old_small(x, out, cos)
        off = ~(np.abs(x) <= T._LIMIT)
        finite = np.isfinite(x)
        big = off & finite
        if big.any():
            out[big] = T._big(np.abs(x[big]) if cos else x[big], int(cos))
        bad = ~finite
        out[bad] = x[bad] - x[bad]


def _assert_same(x):
    for cos in (False, True):
        old, new = np.empty_like(x), np.empty_like(x)
        _old_steps(x, old, cos)
        T._steps(x, new, cos)
        np.testing.assert_array_equal(new.view(_U32), old.view(_U32))


_EDGES = [0x00000000, 0x00000001, 0x3F800000, 0x40490FDB, 0x461C4000, 0x461C4001, 0x4B400000, 0x7F7FFFFF, 0x7F800000,
          0x7FC00000]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.integers(0, 2 ** 32 - 1), st.sampled_from(_EDGES + [b | 0x80000000 for b in _EDGES])),
                min_size=1, max_size=200))
def test_any_bit_patterns_give_the_old_steps_bits(patterns):
    _assert_same(np.array(patterns, _U32).view(np.float32))


@settings(max_examples=60, deadline=None)
@given(st.integers(1, 5000), st.floats(0.01, 10000), st.integers(0, 2 ** 32 - 1))
def test_blocks_of_ordinary_values_give_the_old_steps_bits(n, scale, seed):
    x = np.random.default_rng(seed).uniform(-scale, scale, n).astype(np.float32)
    _assert_same(x)


def test_a_million_values_within_10000_give_the_old_steps_bits():
    x = np.random.default_rng(0).uniform(-10000, 10000, 1 << 20).astype(np.float32)
    for block in np.split(x, 64):
        _assert_same(block)
