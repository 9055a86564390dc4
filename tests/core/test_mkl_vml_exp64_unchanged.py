"""``core._mkl_vml``'s float64 exp (``vexp64``) after the twenty-fifth session's cut gives the bits of the steps it
replaced.

The reference is ``_dexp_steps`` as it stood before (commit 9d38d74e), kept verbatim: the fast route is now
decided by the min and max of x against the least |x| past the vector range (where the high words' max did) and
the table index is int64. Both run on the same inputs, bit for bit, on any CPU (torch's bits are
``test_mkl_vml_f64_oracle.py``'s question)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import _mkl_vml
from core._mkl_vml import _D_BLOCK, _D_POLY, _D_SHIFT, _D_TOP, _F64, _U64, _dexp_constants, _quiet


def _old_dexp_steps(x, out):
    inv, l1, l2, high, low = _dexp_constants()
    p4, p3, p2, p1 = _D_POLY
    top = (x.view(_U64) >> _U64(32)) & _U64(0x7FFFFFFF)
    fast = bool(top.max() <= _D_TOP)
    with _quiet(fast):
        t = x * inv
        t += _D_SHIFT
        n = t - _D_SHIFT
        r = n * l1
        np.subtract(x, r, out=r)
        n *= l2
        r -= n
        p = r * p4
        p += p3
        p *= r
        p += p2
        p *= r
        p += p1
        np.multiply(r, r, out=n)
        p *= n
        p += r
        bits = t.view(_U64)
        j = bits & _U64(63)
        a = high.take(j)
        p *= a
        p += low.take(j)
        p += a
        bits <<= _U64(46)
        bits &= _U64(0xFFF0000000000000)
        np.add(p.view(_U64), bits, out=out.view(_U64))
    if not fast:
        off = top > _D_TOP
        out[off] = np.exp(x[off])


def _same(x):
    flat = np.ascontiguousarray(x).reshape(-1)
    old = np.empty(flat.size, _F64)
    with np.errstate(all="ignore"):
        for i in range(0, flat.size, _D_BLOCK):
            _old_dexp_steps(flat[i:i + _D_BLOCK], old[i:i + _D_BLOCK])
        new = _mkl_vml.vexp64(x)
    assert np.array_equal(old.view(np.uint64), new.reshape(-1).view(np.uint64))


_BOUND = float(np.array(0x4086232B00000000, np.uint64).view(np.float64))
_SPECIAL = [0.0, -0.0, 5e-324, np.inf, -np.inf, np.nan, _BOUND, -_BOUND, np.nextafter(_BOUND, 0),
            -np.nextafter(_BOUND, 0), 709.78, -745.0, 1e308]


@settings(max_examples=150, deadline=None)
@given(scale=st.sampled_from([1e-300, 1e-6, 1.0, 20.0, 700.0, 800.0]), size=st.integers(1, 20000),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=4))
def test_vexp64_gives_the_old_steps_bits(scale, size, seed, special):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size) * scale
    x[rng.integers(0, size, len(special))] = special
    _same(x)


def test_random_bit_patterns_give_the_old_steps_bits():
    _same(np.random.default_rng(5).integers(0, 2 ** 64, 100_000, dtype=np.uint64).view(np.float64))
