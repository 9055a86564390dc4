"""``core._sleef_tanhd.tanhd_u10`` after the thirtieth session's cut (each operand split once for all its fmas, the
fmas with a number multiplier through OpenBLAS's fused ``daxpy``, large arrays in blocks) gives the bits of the
first port (commit 5e310623), kept verbatim below with every fma Dekker's product and TwoSum on freshly split
operands. Hypothesis draws values over the whole range (signed zeros, subnormals, the 18.714973875 cut-off,
huge values, infinities, NaN); torch's bits are ``test_mish_sleef_oracle.py``'s and ``test_gelu_double_oracle.py``'s
question."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._sleef_logd import _fma
from core._sleef_tanhd import _EXPK2_POLY, _L2L, _L2U, _R_LN2, tanhd_u10

_ALL_ONES = np.array(0xFFFFFFFFFFFFFFFF, np.uint64).view(np.float64)


def _add2(xx, xy, y):
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _squ(x, y):
    s = x * x
    return s, _fma(x + x, y, _fma(x, x, -s))


def _mul2(xx, xy, yx, yy):
    s = xx * yx
    return s, _fma(xx, yy, _fma(xy, yx, _fma(xx, yx, -s)))


def _add_scalar(x, yx, yy):
    s = x + yx
    return s, ((x - s) + yx) + yy


def _expk2(y):
    dq = np.rint(y * _R_LN2)
    q = dq.astype(np.int64)
    sx, sy = _add2(y, 0.0, dq * -_L2U)
    sx, sy = _add2(sx, sy, dq * -_L2L)
    s2x, s2y = _squ(sx, sy)
    s4x, s4y = _squ(s2x, s2y)
    s8 = s4x * s4x
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _EXPK2_POLY

    def mla(a, b, c):
        return _fma(a, np.float64(b) if np.ndim(b) == 0 else b, c)

    def poly4(x, x2, a3, a2, a1, a0):
        return _fma(x2, mla(x, a3, a2), mla(x, a1, a0))
    u = _fma(s8, mla(sx, c9, c8), _fma(s4x, poly4(sx, s2x, c7, c6, c5, c4), poly4(sx, s2x, c3, c2, c1, c0)))
    c = np.float64(0.1666666666666666574e+0)
    mx = sx * c
    tx, ty = _add_scalar(0.5, mx, _fma(sy, c, _fma(sx, c, -mx)))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, sx, sy))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, sx, sy))
    mx = s4x * u
    my = _fma(s4y, u, _fma(s4x, u, -mx))
    r = tx + mx
    ty = (((tx - r) + mx) + ty) + my
    half = q >> 1
    return np.ldexp(np.ldexp(r, half), q - half), np.ldexp(np.ldexp(ty, half), q - half)


def _old_tanhd_u10(x):
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        y = np.minimum(np.abs(x), 19.0)
        dx, dy = _expk2(y)
        ex = 1.0 / dx
        ey = ex * _fma(-dy, ex, _fma(-dx, ex, 1.0))
        nx, ny = _add2(dx, dy - ey, -ex)
        mx, my = _add2(dx, dy + ey, ex)
        t = 1.0 / mx
        s = nx * t
        qy = _fma(s, _fma(-my, t, _fma(-mx, t, 1.0)), _fma(ny, t, _fma(t, nx, -s)))
        r = s + qy
        r = np.where((np.abs(x) > 18.714973875) | np.isnan(r), 1.0, r)
        r = np.copysign(r, x)
    return np.where(np.isnan(x), _ALL_ONES, r)


_SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, np.inf, -np.inf, np.nan, -np.nan, 18.714973875,
            np.nextafter(18.714973875, 19), -18.714973875, 19.0, 1e308, -1e308, 0.5 * np.log(2), 1e-300, 0.3466]


def _same(x):
    old, new = _old_tanhd_u10(x), tanhd_u10(x)
    assert new.shape == old.shape and new.dtype == np.float64
    assert np.array_equal(old.view(np.uint64), new.view(np.uint64))


@settings(max_examples=120, deadline=None)
@given(scale=st.sampled_from([1e-300, 1e-8, 1e-3, 0.3, 1.0, 5.0, 19.0, 30.0, 1e300]), size=st.integers(1, 3000),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=5))
def test_tanhd_u10_gives_the_first_ports_bits(scale, size, seed, special):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size) * scale
    x[rng.integers(0, size, len(special))] = special
    _same(x)


def test_random_bit_patterns_a_dense_sweep_and_shapes_give_the_first_ports_bits():
    rng = np.random.default_rng(11)
    _same(rng.integers(0, 2 ** 64, 100_000, dtype=np.uint64).view(np.float64))
    _same(np.linspace(-20.0, 20.0, 50_001))  # (a large array: in blocks)
    _same(np.linspace(-3.0, 3.0, 200 * 150).reshape(200, 150).T)  # (a transposed one)
    _same(np.array(0.75))
    _same(np.zeros((0, 3)))


def test_tiny_values_among_others_are_computed_again_with_the_first_ports_bits():
    rng = np.random.default_rng(12)
    x = np.concatenate([rng.uniform(-1, 1, 3000) * 1e-15, rng.standard_normal(3000), np.zeros(50), -np.zeros(50)])
    _same(rng.permutation(x))
    _same(np.concatenate([rng.uniform(-1, 1, 20_000) * 1e-14, rng.uniform(-19, 19, 20_000)]))  # (in blocks)


def test_the_first_pass_moves_only_low_words_and_by_less_than_its_check_allows():
    from core import _sleef_tanhd
    from core._sleef_powd import _fma as exact

    rng = np.random.default_rng(13)
    y = np.abs(np.concatenate([rng.uniform(-19, 19, 100_000), rng.standard_normal(100_000) * 1e-3]))
    s1, qy1, _ = _sleef_tanhd._quotient(y, _sleef_tanhd._unfused)
    s2, qy2, _ = _sleef_tanhd._quotient(y, exact)
    assert np.array_equal(s1, s2)
    assert np.abs(qy1 - qy2).max() <= 2.0 ** -100  # (the check allows 2^-96 + 2^-90 r)
