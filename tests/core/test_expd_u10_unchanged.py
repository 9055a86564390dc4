"""SLEEF's float64 ``expd_u10`` (``core.nn.functional._flash_cpu``: float64 softmax's and flash attention's exps)
after the twenty-fifth session's cut gives the bits of the route it replaced.

The reference is ``expd_u10`` as it stood before (commit 9d38d74e), kept verbatim: each fma through
``core._fused.fma``. The new one clamps the input, shares the operands' splits, skips the overflow checks and
takes the BLAS's fused ``daxpy`` for the fmas with a constant multiplier (``core._daxpy``, where it is probed);
hypothesis draws values over the whole range (signed zeros, subnormals, both cut-offs, infinities, NaN), and
both must agree bit for bit, on any CPU (torch's bits are ``test_softmax_f64_oracle.py``'s question)."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._fused import fma as _fma
from core.nn.functional import _flash_cpu
from core.nn.functional._flash_cpu import _EXPD_POLY, _L2L_D, _L2U_D, _R_LN2_D


def _old_expd_u10(d):
    def mla(x, y, z):
        return _fma(np, x, y, z)

    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.where(np.isfinite(d), d, 0.0)
        u = np.rint(finite * _R_LN2_D)
        q = u.astype(np.int64)
        s = mla(u, -_L2U_D, finite)
        s = mla(u, -_L2L_D, s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _EXPD_POLY
        low = mla(s2, mla(s, c3, c2), mla(s, c1, c0))
        high = mla(s2, mla(s, c7, c6), mla(s, c5, c4))
        u = mla(s8, mla(s, c9, c8), mla(s4, high, low))
        u = mla(u, s, 0.5)
        u = mla(u, s, 1.0)
        u = mla(u, s, 1.0)
        half = q >> 1
        u = np.ldexp(np.ldexp(u, half), q - half)
        u = np.where(d < -1000, 0.0, u)
        u = np.where(d > 709.78271289338399678773454114191, np.inf, u)
        return np.where(np.isnan(d), d, u)


_SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, np.inf, -np.inf, np.nan, -1000.0,
            np.nextafter(-1000.0, 0), np.nextafter(-1000.0, -np.inf), 709.78271289338399678773454114191,
            np.nextafter(709.78271289338399678773454114191, np.inf), 1e308, -1e308, 0.5 * np.log(2), -745.2, 708.4]


def _same(d):
    old, new = _old_expd_u10(d), _flash_cpu.expd_u10(d)
    assert np.array_equal(old.view(np.uint64), new.view(np.uint64))


@settings(max_examples=150, deadline=None)
@given(scale=st.sampled_from([1e-300, 1e-8, 1e-3, 1.0, 30.0, 700.0, 1100.0, 1e300]), size=st.integers(1, 3000),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=5))
def test_expd_u10_gives_the_old_routes_bits(scale, size, seed, special):
    rng = np.random.default_rng(seed)
    d = rng.uniform(-1, 1, size) * scale
    d[rng.integers(0, size, len(special))] = special
    _same(d)


def test_random_bit_patterns_and_a_dense_sweep_give_the_old_routes_bits():
    rng = np.random.default_rng(7)
    _same(rng.integers(0, 2 ** 64, 200_000, dtype=np.uint64).view(np.float64))
    _same(np.linspace(-1010.0, 720.0, 400_001))  # (a large array: in blocks)
    _same(np.linspace(-1010.0, 720.0, 300 * 300).reshape(300, 300).T)  # (a transposed one: whole)


def test_a_large_array_keeps_its_shape_and_is_c_contiguous():
    d = np.random.default_rng(3).standard_normal((70, 3, 300))
    out = _flash_cpu.expd_u10(d)
    assert out.shape == d.shape and out.flags.c_contiguous and out.dtype == np.float64
