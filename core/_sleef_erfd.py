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
all below 2.5 computes what the other branch's selections give them).
"""

from __future__ import annotations

import numpy as np

from core._sleef_logd import _fma
from core._sleef_powd import _expk
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


def _poly21(x, x2, x4, x8, x16, c):
    """SLEEF's ``POLY21`` (Estrin's scheme, each step an fma) with coefficient arrays ``c[0]`` (x^20) ... ``c[20]``."""
    def poly4(a3, a2, a1, a0):
        return _fma(x2, _fma(x, a3, a2), _fma(x, a1, a0))

    def poly8(k):  # c[k] ... c[k + 7]
        return _fma(x4, poly4(*c[k:k + 4]), poly4(*c[k + 4:k + 8]))

    poly5 = _fma(x4, c[0], poly4(*c[1:5]))
    poly16 = _fma(x8, poly8(5), poly8(13))
    return _fma(x16, poly5, poly16)


def _dd_mul_d(xx, xy, y):
    """``ddmul_vd2_vd2_vd``: (xx, xy) * y."""
    s = xx * y
    return s, _fma(xy, y, _fma(xx, y, -s))


def _dd_add(xx, xy, yx, yy):
    """``ddadd_vd2_vd2_vd2``: (xx, xy) + (yx, yy), |x| >= |y|."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _dd_squ(xx, xy):
    s = xx * xx
    return s, _fma(xx + xx, xy, _fma(xx, xx, -s))


def erfd_u10(a: np.ndarray) -> np.ndarray:
    """SLEEF's ``erfd_u10`` of a float64 array (module docstring)."""
    a = np.asarray(a, np.float64)
    with np.errstate(all="ignore"):
        x = np.abs(a)
        x2 = x * x
        x4 = x2 * x2
        x8 = x4 * x4
        x16 = x8 * x8
        o25 = x <= 2.5
        c = [np.where(o25, lo, hi) for lo, hi in zip(_LOW, _HIGH)]
        t = _poly21(x, x2, x4, x8, x16, c)
        dd = [(np.where(o25, lo[0], hi[0]), np.where(o25, lo[1], hi[1])) for lo, hi in zip(_DD_LOW, _DD_HIGH)]
        (c2x, c2y), (c1x, c1y), (c0x, c0y) = dd
        ax, ay = _dd_add(c2x, c2y, *_dd_mul_d(t, 0.0, x))         # poly2dd(x, t, C2)
        bx, by = _dd_add(c0x, c0y, *_dd_mul_d(c1x, c1y, x))       # poly2dd_b(x, C1, C0)
        tx, ty = _dd_add(bx, by, *_dd_mul_d(ax, ay, x2))          # ddmla(x^2, a, b)
        mx, my = _dd_mul_d(tx, ty, x)
        sx = 1.0 + mx                                             # ddadd_vd2_vd_vd2(1, t2 x)
        sy = ((1.0 - sx) + mx) + my
        for _ in range(4):
            sx, sy = _dd_squ(sx, sy)
        rx = 1.0 / sx                                             # ddrec
        ry = rx * _fma(-sy, rx, _fma(-sx, rx, 1.0))
        if not o25.all():
            ex = _expk(tx, ty, _fma_split)[0]
            rx, ry = np.where(o25, rx, ex), np.where(o25, ry, 0.0)
        s = rx - 1.0                                              # ddadd2_vd2_vd2_vd(r, -1)
        v = s - rx
        w = (rx - (s - v)) + (-1.0 - v)
        z = -(s + (w + ry))
        z = np.where(x < 1e-8, x * _TWO_OVER_SQRT_PI, z)
        z = np.where((x >= 6) | np.isinf(a), 1.0, z)
        z = np.where(a == 0, 0.0, z)
        return np.copysign(z, a)
