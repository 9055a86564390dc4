"""``core._sleef_erfd.erfd_u10`` after the thirtieth session's cuts gives the bits of the port as it stood before them
(commit 5e310623), kept verbatim below: every fma of the low branch's double-double steps a full Dekker product and
TwoSum on freshly split operands, ``fma(a, b, -(a b))`` included, and the selections always taken. Hypothesis draws
values over the whole range (both branches and the 2.5 edge, signed zeros, subnormals, the 1e-8 and 6 cut-offs,
huge values, infinities, NaN) and random bit patterns (NaN payloads too); torch's bits are
``test_gelu_erf_double_oracle.py``'s question."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core._sleef_erfd import _DD_HIGH, _DD_LOW, _HIGH, _LOW, _TWO_OVER_SQRT_PI, erfd_u10
from core._sleef_logd import _fma, _scaled_fma
from core._sleef_powd import _expk, _split
from core._sleef_powd import _fma as _fma_split

_BLOCK = 16384


def _poly21(x, c):
    """SLEEF's ``POLY21`` (Estrin's scheme, each step an fma) with the numbers ``c[0]`` (x^20) ... ``c[20]``; ``x`` the
    powers x, x2, x4, x8, x16 with their splits. A number times a power is the BLAS's fused ``daxpy``
    (``core._sleef_logd._scaled_fma``: one pass for Dekker's ~20)."""
    (x1, _), (x2, s2), (x4, s4), (x8, s8), (x16, s16) = x

    def poly4(a3, a2, a1, a0):
        return _fma_split(x2, _scaled_fma(x1, a3, a2), _scaled_fma(x1, a1, a0), s2)

    def poly8(k):  # c[k] ... c[k + 7]
        return _fma_split(x4, poly4(*c[k:k + 4]), poly4(*c[k + 4:k + 8]), s4)

    poly5 = _scaled_fma(x4, c[0], poly4(*c[1:5]))
    poly16 = _fma_split(x8, poly8(5), poly8(13), s8)
    return _fma_split(x16, poly5, poly16, s16)


def _dd_mul_d(xx, xy, y, sy):
    """``ddmul_vd2_vd2_vd``: the array pair (xx, xy) times the array ``y`` (split ``sy``)."""
    s = xx * y
    return s, _fma_split(y, xy, _fma_split(y, xx, -s, sy), sy)


def _dd_mul_numbers(cx: float, cy: float, y):
    """``ddmul_vd2_vd2_vd``: the pair of numbers (cx, cy) times the array ``y``."""
    s = cx * y
    return s, _scaled_fma(y, cy, _scaled_fma(y, cx, -s))


def _dd_add(xx, xy, yx, yy):
    """``ddadd_vd2_vd2_vd2``: (xx, xy) + (yx, yy), |x| >= |y|."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _dd_squ(xx, xy):
    s = xx * xx
    return s, _fma(xx + xx, xy, _fma(xx, xx, -s))


def _steps(x: np.ndarray, low: bool) -> np.ndarray:
    """-erf(x) + ... : SLEEF's steps for x = |a| all at most 2.5 (``low``) or all above, before the selections."""
    powers = [x]
    for _ in range(4):
        powers.append(powers[-1] * powers[-1])
    powers = [(p, _split(p)) for p in powers]
    (_, sx), (x2, s2) = powers[0], powers[1]
    t = _poly21(powers, _LOW if low else _HIGH)
    (c2x, c2y), (c1x, c1y), (c0x, c0y) = _DD_LOW if low else _DD_HIGH
    mx = t * x                                                    # ddmul((t, 0), x): fma(0, x, e) is e + 0 x
    ax, ay = _dd_add(c2x, c2y, mx, _fma_split(x, t, -mx, sx) + 0.0 * x)  # poly2dd(x, t, C2)
    bx, by = _dd_add(c0x, c0y, *_dd_mul_numbers(c1x, c1y, x))     # poly2dd_b(x, C1, C0)
    tx, ty = _dd_add(bx, by, *_dd_mul_d(ax, ay, x2, s2))          # ddmla(x^2, a, b)
    if low:
        mx, my = _dd_mul_d(tx, ty, x, sx)
        rx = 1.0 + mx                                             # ddadd_vd2_vd_vd2(1, t2 x)
        ry = ((1.0 - rx) + mx) + my
        for _ in range(4):
            rx, ry = _dd_squ(rx, ry)
        sx = 1.0 / rx                                             # ddrec
        rx, ry = sx, sx * _fma(-ry, sx, _fma(-rx, sx, 1.0))
    else:
        rx, ry = _expk(tx, ty, _fma_split)[0], 0.0
    s = rx - 1.0                                                  # ddadd2_vd2_vd2_vd(r, -1)
    v = s - rx
    w = (rx - (s - v)) + (-1.0 - v)
    return -(s + (w + ry))


def _old_erfd_u10(a: np.ndarray) -> np.ndarray:
    """The earlier port (module docstring).

    NOTE: each element's steps are its own, so the elements up to 2.5 and those above go through their own steps
    with numbers for coefficients (SLEEF selects per lane; the daxpy and the skipped branch pay the compress), and
    a large array goes ``_BLOCK`` elements at a time (its ~600 passes then stay in cache: 512x512 ~1.5x faster)."""
    a = np.asarray(a, np.float64)
    flat = a.reshape(-1)
    if flat.size <= 2 * _BLOCK:
        return _erf(flat).reshape(a.shape)
    out = np.empty(flat.size, np.float64)
    for i in range(0, flat.size, _BLOCK):
        out[i:i + _BLOCK] = _erf(flat[i:i + _BLOCK])
    return out.reshape(a.shape)




def _erf(flat: np.ndarray) -> np.ndarray:
    """``erfd_u10``'s steps and selections on a 1-D array."""
    with np.errstate(all="ignore"):
        x = np.abs(flat)
        o25 = x <= 2.5
        if o25.all():
            z = _steps(x, True)
        elif not o25.any():
            z = _steps(x, False)
        else:
            z = np.empty_like(x)
            z[o25] = _steps(x[o25], True)
            z[~o25] = _steps(x[~o25], False)
        z = np.where(x < 1e-8, x * _TWO_OVER_SQRT_PI, z)
        z = np.where((x >= 6) | np.isinf(flat), 1.0, z)
        z = np.where(flat == 0, 0.0, z)
        return np.copysign(z, flat)


_SPECIAL = [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, np.inf, -np.inf, np.nan, -np.nan, 2.5,
            np.nextafter(2.5, 3), -2.5, 6.0, np.nextafter(6.0, 0), 1e-8, np.nextafter(1e-8, 0), 1e308, -1e308, 1e-300]


def _same(x):
    old, new = _old_erfd_u10(x), erfd_u10(x)
    assert new.shape == old.shape and new.dtype == np.float64
    assert np.array_equal(old.view(np.uint64), new.view(np.uint64))


@settings(max_examples=120, deadline=None)
@given(scale=st.sampled_from([1e-300, 1e-9, 1e-3, 1.0, 2.5, 4.0, 7.0, 1e300]), size=st.integers(1, 3000),
       seed=st.integers(0, 2 ** 32 - 1), special=st.lists(st.sampled_from(_SPECIAL), max_size=5))
def test_erfd_u10_gives_the_earlier_ports_bits(scale, size, seed, special):
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 1, size) * scale
    x[rng.integers(0, size, len(special))] = special
    _same(x)


def test_random_bit_patterns_sweeps_and_shapes_give_the_earlier_ports_bits():
    rng = np.random.default_rng(5)
    _same(rng.integers(0, 2 ** 64, 100_000, dtype=np.uint64).view(np.float64))
    _same(np.linspace(-7.0, 7.0, 50_001))  # (a large array: in blocks)
    _same(rng.uniform(-2.5, 2.5, 40_000))  # (the low branch alone, large)
    _same(np.linspace(-3.0, 3.0, 200 * 150).reshape(200, 150).T)
    _same(np.array(0.75))
    _same(np.zeros((0, 3)))


def test_values_near_a_rounding_boundary_are_computed_again_with_the_earlier_ports_bits():
    near = [float.fromhex(h) for h in ("0x1.b044189340590p-26", "0x1.815177c05ddabp-26", "0x1.81504638d3524p-26")]
    rng = np.random.default_rng(6)
    x = rng.permutation(np.concatenate([near, -np.array(near), rng.uniform(-2.5, 2.5, 1000)]))
    _same(x)
    _same(np.exp(rng.uniform(np.log(1e-8), np.log(2.5), 60_000)))  # (small values: a few flagged in blocks)


def test_the_first_pass_moves_only_the_reciprocals_low_word_and_by_less_than_its_check_allows():
    from core import _sleef_erfd
    from core._sleef_powd import _unfused

    rng = np.random.default_rng(7)
    x = np.concatenate([rng.uniform(1e-8, 2.5, 100_000), np.exp(rng.uniform(np.log(1e-8), np.log(2.5), 100_000))])
    s1, w1, ry1 = _sleef_erfd._branch(x, True, _unfused)
    s2, w2, ry2 = _sleef_erfd._branch(x, True)
    assert np.array_equal(s1, s2) and np.array_equal(w1, w2)
    assert np.abs(ry1 - ry2).max() <= 2.0 ** -96  # (the check allows 2^-92)
