"""SLEEF's ``erfd_u10`` (``xerf_u1``, its AVX-512 build with fused multiply-adds) on float64 arrays: what
``Vectorized<double>::erf()`` gives inside ATen kernels such as float64 GELU's (2026-12-06, from SLEEF's
``sleefsimddp.c``, ``dd.h`` and ``estrin.h``, Boost Software License; the coefficients are SLEEF's)::

    x = |a|;  t = POLY21(x) (Estrin, x2 x4 x8 x16)              # one set of 21 coefficients for x <= 2.5, one above
    t2 = poly4dd(x, t, C2, C1, C0)                               # double-double: C0 + C1 x + (C2 + t x) x^2
    s = (1 + t2 x)^16, then 1 / s (ddrec)     for x <= 2.5       # Abramowitz and Stegun: erfc = 1 / s
    s = expk(t2)                              above
    erf = -((s - 1).hi + (s - 1).lo), with a's sign; 2/sqrt(pi) x below 1e-8, 1 from 6 and at +-inf, a at +-0

each fused multiply-add rounded once (``core._sleef_logd._fma``: Dekker's product and TwoSum), ``expk`` SLEEF's
(``core._sleef_powd._expk``). Lanes take the same steps whatever their neighbours (SLEEF's branch for a vector
all below 2.5 computes what the other branch's selections give them), so the elements up to 2.5 and those above
go through their own steps here, with numbers for coefficients: their fmas with a number are the BLAS's fused
``daxpy``, and a large array goes in blocks of 16,384; in the branch up to 2.5 (finite operands) an
``fma(a, b, -(a b))`` is Dekker's error term alone, and those that only make low words are rounded twice in a
first pass, the few elements near a rounding boundary computed again (``_steps``). Cost (CPU, load ~13): 512x512
~60 ms, 200 elements ~0.23 ms (~140 ms with per-element coefficients and both branches for all, ~100 ms in one
block).
"""

from __future__ import annotations

import numpy as np

from core._sleef_logd import _scaled_fma
from core._sleef_powd import (
    _STACK,
    _columns,
    _expk,
    _half_ulp,
    _number_fma,
    _numbers_fma,
    _product_error,
    _split,
    _unfused,
)
from core._sleef_powd import _fma as _fma_split

__all__ = ["erfd_u10"]

_LOW = (-0.2083271002525222097e-14, +0.7151909970790897009e-13, -0.1162238220110999364e-11,
        +0.1186474230821585259e-10, -0.8499973178354613440e-10, +0.4507647462598841629e-9,
        -0.1808044474288848915e-8, +0.5435081826716212389e-8, -0.1143939895758628484e-7,
        +0.1215442362680889243e-7, +0.1669878756181250355e-7, -0.9808074602255194288e-7,
        +0.1389000557865837204e-6, +0.2945514529987331866e-6, -0.1842918273003998283e-5,
        +0.3417987836115362136e-5, +0.3860236356493129101e-5, -0.3309403072749947546e-4,
        +0.1060862922597579532e-3, +0.2323253155213076174e-3, +0.1490149719145544729e-3)
_HIGH = (-0.4024015130752621932e-18, +0.3847193332817048172e-16, -0.1749316241455644088e-14,
         +0.5029618322872872715e-13, -0.1025221466851463164e-11, +0.1573695559331945583e-10,
         -0.1884658558040203709e-9, +0.1798167853032159309e-8, -0.1380745342355033142e-7,
         +0.8525705726469103499e-7, -0.4160448058101303405e-6, +0.1517272660008588485e-5,
         -0.3341634127317201697e-5, -0.2515023395879724513e-5, +0.6539731269664907554e-4,
         -0.3551065097428388658e-3, +0.1210736097958368864e-2, -0.2605566912579998680e-2,
         +0.1252823202436093193e-2, +0.1820191395263313222e-1, -0.1021557155453465954e+0)
_DD_LOW = ((0.0092877958392275604405, 7.9287559463961107493e-19), (0.042275531758784692937, 1.3785226620501016138e-19),
           (0.07052369794346953491, 9.5846628070792092842e-19))
_DD_HIGH = ((-0.63691044383641748361, -2.4249477526539431839e-17), (-1.1282926061803961737, -6.2970338860410996505e-17),
            (-1.2261313785184804967e-05, -5.5329707514490107044e-22))
_TWO_OVER_SQRT_PI = 1.12837916709551262756245475959
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce


def _poly21(x, c, low: bool):
    """SLEEF's ``POLY21`` (Estrin's scheme, each step an fma) with the numbers ``c[0]`` (x^20) ... ``c[20]``; ``x`` the
    powers x, x2, x4, x8, x16 with their splits. A number times a power is the BLAS's fused ``daxpy``
    (``core._sleef_logd._scaled_fma``: one pass for Dekker's ~20) from ``_STACK`` elements, Dekker's with the
    number's split made once below (``_numbers_fma``; above 2.5, where infinities and NaN pass, always the
    ``daxpy``); the independent fmas of each level are one 2-D step."""
    (x1, s1), (x2, s2), (x4, s4), (x8, s8), (x16, s16) = x
    leaves = _numbers_fma(x1, s1, c[1::2], c[2::2], low)               # c1 x + c2, c3 x + c4, ..., c19 x + c20
    quads = _fma_split(x2, leaves[0::2], leaves[1::2], s2)        # poly4(c1..c4), poly4(c5..c8), ..., poly4(c17..c20)
    octs = _fma_split(x4, quads[1::2], quads[2::2], s4)           # poly8(c5..c12), poly8(c13..c20)
    poly5 = _number_fma(x4, s4, c[0], quads[0], low)
    poly16 = _fma_split(x8, octs[0], octs[1], s8)
    return _fma_split(x16, poly5, poly16, s16)


def _dd_mul_d(xx, xy, y, sy, finite: bool = False, low=_fma_split):
    """``ddmul_vd2_vd2_vd``: the array pair (xx, xy) times the array ``y`` (split ``sy``); ``finite``: every operand
    finite, so ``fma(y, xx, -s)`` is the product's error (Dekker's error term, without the TwoSum of a zero);
    ``low``: the form of the multiply-add that only makes the low word."""
    s = xx * y
    inner = _product_error(y, xx, s, sy) if finite else _fma_split(y, xx, -s, sy)
    return s, low(y, xy, inner, sy)


def _dd_mul_numbers(cx: float, cy: float, y, sy, low: bool, unfused: bool = False):
    """``ddmul_vd2_vd2_vd``: the pair of numbers (cx, cy) times the array ``y`` (split ``sy``; its elements finite
    where ``low``: there, below ``_STACK``, ``fma(y, cx, -s)`` is the product's error); ``unfused``: the last
    multiply-add, which only makes the low word, rounded twice."""
    s = cx * y
    if y.size >= _STACK or not low:
        error = _scaled_fma(y, cx, -s)
    else:
        a, split_a, _ = _columns((cx,), (0.0,))
        error = _product_error(a[0], y, s, (split_a[0][0], split_a[1][0]), sy)
    if unfused:
        return s, y * cy + error
    return s, _scaled_fma(y, cy, error) if y.size >= _STACK or not low else _number_fma(y, sy, cy, error)


def _dd_add(xx, xy, yx, yy):
    """``ddadd_vd2_vd2_vd2``: (xx, xy) + (yx, yy), |x| >= |y|."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _dd_squ_finite(xx, xy, low=_fma_split):
    """``ddsqu`` of a finite pair: ``fma(xx, xx, -s)`` is the product's error, and ``2 xx``'s split twice
    ``xx``'s (Veltkamp's steps scale exactly by 2)."""
    s = xx * xx
    hi, lo = _split(xx)
    error = _product_error(xx, xx, s, (hi, lo), (hi, lo))
    if low is _unfused:
        return s, (xx + xx) * xy + error
    return s, low(xx + xx, xy, error, sa=(hi + hi, lo + lo))


def _steps(x: np.ndarray, low: bool) -> np.ndarray:
    """-erf(x) + ... : SLEEF's steps for x = |a| all at most 2.5 (``low``) or all above, before the selections.

    NOTE: up to 2.5 a first pass rounds the eight multiply-adds that only make low words twice (those of
    poly2dd_b, ddmla, t2 x, the four ddsqu and ddrec; every high word, the product errors and the residual
    ``1 - r R`` stay exact): ~1/6 fewer NumPy passes. The high words come out the same, ``R = (1 + t2 x)^16``'s
    low word moves by under ~2^-99 of it (each squaring doubles its relative error) and so the reciprocal's, and
    the sum ``s + (w + ry)`` by under ~2^-98 (absolute: r = 1/R <= 1); the elements whose sum lies within 2^-92
    of a rounding boundary (none among random values from 1e-8 to 2.5: half an ulp of erf >= 1e-8 is above
    2^-80) are computed again with every multiply-add exact, those below 1e-8 are replaced after."""
    if not low:
        s, w, ry = _branch(x, False)
        return -(s + (w + ry))
    s, w, ry = _branch(x, True, _unfused)
    inner = w + ry
    r = s + inner
    v = r - s
    err = (s - (r - v)) + (inner - v)                             # (TwoSum) the sum's rounding error
    risk = (_half_ulp(np.abs(r)) - np.abs(err) <= 2.0 ** -92) & (x >= 1e-8)
    if risk.any():
        at = np.flatnonzero(risk)
        s, w, ry = _branch(x[at], True)
        r[at] = s + (w + ry)
    return -r


def _branch(x: np.ndarray, low: bool, lowf=_fma_split):
    """SLEEF's steps up to ``rx - 1``'s TwoSum: (s, w) and the reciprocal's low word ``ry`` (``_steps``)."""
    powers = [x]
    for _ in range(4):
        powers.append(powers[-1] * powers[-1])
    powers = [(p, _split(p)) for p in powers]
    (_, sx), (x2, s2) = powers[0], powers[1]
    t = _poly21(powers, _LOW if low else _HIGH, low)
    (c2x, c2y), (c1x, c1y), (c0x, c0y) = _DD_LOW if low else _DD_HIGH
    mx = t * x                                                    # ddmul((t, 0), x): fma(0, x, e) is e + 0 x
    if low:  # (finite operands: fma(a, b, -(a b)) is the product's error)
        ax, ay = _dd_add(c2x, c2y, mx, _product_error(x, t, mx, sx) + 0.0 * x)  # poly2dd(x, t, C2)
    else:
        ax, ay = _dd_add(c2x, c2y, mx, _fma_split(x, t, -mx, sx) + 0.0 * x)
    bx, by = _dd_add(c0x, c0y, *_dd_mul_numbers(c1x, c1y, x, sx, low, lowf is _unfused))  # poly2dd_b(x, C1, C0)
    tx, ty = _dd_add(bx, by, *_dd_mul_d(ax, ay, x2, s2, low, lowf))  # ddmla(x^2, a, b)
    if low:
        mx, my = _dd_mul_d(tx, ty, x, sx, True, lowf)
        rx = 1.0 + mx                                             # ddadd_vd2_vd_vd2(1, t2 x)
        ry = ((1.0 - rx) + mx) + my
        for _ in range(4):
            rx, ry = _dd_squ_finite(rx, ry, lowf)
        sx = 1.0 / rx                                             # ddrec
        ssx = _split(sx)
        rx, ry = sx, sx * lowf(-ry, sx, _fma_split(-rx, sx, 1.0, sb=ssx), sb=ssx)
    else:
        rx, ry = _expk(tx, ty, _fma_split)[0], 0.0
    s = rx - 1.0                                                  # ddadd2_vd2_vd2_vd(r, -1)
    v = s - rx
    w = (rx - (s - v)) + (-1.0 - v)
    return s, w, ry


def erfd_u10(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``erfd_u10`` of a float64 array (module docstring).

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


_BLOCK = 16384


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
        if x.size and _MIN(x, None) >= 1e-8 and _MAX(x, None) < 6:  # (False with a NaN): no selection takes
            return np.copysign(z, flat)
        z = np.where(x < 1e-8, x * _TWO_OVER_SQRT_PI, z)
        z = np.where((x >= 6) | np.isinf(flat), 1.0, z)
        z = np.where(flat == 0, 0.0, z)
        return np.copysign(z, flat)
