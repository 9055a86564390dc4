"""SLEEF's ``tanhd_u10`` (``xtanh``, with fused multiply-adds) on float64 arrays: what ``Vectorized<double>::tanh()``
gives inside kernels such as float64 mish's and GELU's tanh form (2026-12-06, from SLEEF's ``sleefsimddp.c`` and
``dd.h``)::

    d = expk2((|x|, 0))                  # exp|x| as a double-double
    e = ddrec(d);  tanh = dddiv(ddadd2(d, -e), ddadd2(d, e))
    1 beyond 18.714973875, the sign of x; a NaN comes out with all bits set

each ``fma`` rounded once: Dekker's product and TwoSum, or OpenBLAS's fused ``daxpy`` where the multiplier is a
number (``core._sleef_logd._scaled_fma``; below 2,048 elements Dekker's with the number split once), an
``fma(a, b, -(a b))`` Dekker's error term alone; those that only make low words are rounded twice in a first
pass, the few elements near a rounding boundary computed again (``_steps``). Cost (CPU, load ~13): 512x512 ~36 ms,
200 elements ~0.2 ms (``test_sleef_tanhd_unchanged``: the bits of the first port, whose every fma split both
operands: 111 ms, 0.73 ms).
"""

from __future__ import annotations

import numpy as np

from core._sleef_powd import _columns, _fma, _number_fma, _numbers_fma, _product_error, _split

__all__ = ["tanhd_u10"]

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_EXPK2_POLY = (0.1602472219709932072e-9, 0.2092255183563157007e-8, 0.2505230023782644465e-7,
               0.2755724800902135303e-6, 0.2755731892386044373e-5, 0.2480158735605815065e-4,
               0.1984126984148071858e-3, 0.1388888888886763255e-2, 0.8333333333333347095e-2,
               0.4166666666666669905e-1)
_SIXTH = 0.1666666666666666574e+0
_ALL_ONES = np.array(0xFFFFFFFFFFFFFFFF, np.uint64).view(np.float64)
_BLOCK = 8192  # elements a step: its ~500 temporaries stay in cache
_MAX = np.maximum.reduce


def _add2(xx, xy, y):
    """``ddadd2_vd2_vd2_vd``: (xx, xy) + y, the rounding error kept whatever the sizes."""
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _add_scalar(x, yx, yy):
    """``ddadd_vd2_vd_vd2``: x + (yx, yy), |x| >= |y|."""
    s = x + yx
    return s, ((x - s) + yx) + yy


def _unfused(a, b, c, sa=None, sb=None):
    """``a b + c`` rounded twice: the multiply-adds that only make low words, in ``_steps``'s first pass."""
    return a * b + c


def _squ(x, sx, y, low):
    """``ddsqu`` of (x, y), ``sx`` x's split: (x^2, its low word). (2 x's split is twice x's: Veltkamp's steps
    scale exactly by 2; ``fma(x, x, -x^2)`` is the product's error: every operand here is finite.)"""
    s = x * x
    return s, low(x + x, y, _product_error(x, x, s, sx, sx), sa=None if low is _unfused else (sx[0] + sx[0],
                                                                                            sx[1] + sx[1]))


def _mul2(xx, xy, y, sy, yy, low):
    """``ddmul`` of (xx, xy) and (y, yy), ``sy`` y's split."""
    s = xx * y
    sxx = _split(xx)
    return s, low(xx, yy, low(xy, y, _product_error(xx, y, s, sxx, sy), sb=sy), sa=sxx)


def _expk2(y, low):
    """SLEEF's ``expk2`` of (y, 0), y >= 0, as two words scaled by 2^q."""
    dq = np.rint(y * _R_LN2)
    q = dq.astype(np.int64)
    sx, sy = _add2(y, 0.0, dq * -_L2U)
    sx, sy = _add2(sx, sy, dq * -_L2L)
    ssx = _split(sx)
    s2x, s2y = _squ(sx, ssx, sy, low)
    ss2 = _split(s2x)
    s4x, s4y = _squ(s2x, ss2, s2y, low)
    ss4 = _split(s4x)
    s8 = s4x * s4x
    leaves = _numbers_fma(sx, ssx, _EXPK2_POLY[0::2], _EXPK2_POLY[1::2])  # c9 s + c8, c7 s + c6, ..., c1 s + c0
    quads = _fma(s2x, leaves[1::2], leaves[2::2], sa=ss2)                # poly4(c7..c4), poly4(c3..c0)
    u = _fma(s8, leaves[0], _fma(s4x, quads[0], quads[1], sa=ss4))
    mx = sx * _SIXTH
    a, split_a, _ = _columns((_SIXTH,), (0.0,))
    split_a = (split_a[0][0], split_a[1][0])
    error = _product_error(sx, a[0], mx, ssx, split_a)
    tx, ty = _add_scalar(0.5, mx, sy * _SIXTH + error if low is _unfused else _number_fma(sy, _split(sy), _SIXTH,
                                                                                           error))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, sx, ssx, sy, low))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, sx, ssx, sy, low))
    su = _split(u)
    mx = s4x * u
    my = low(s4y, u, _product_error(s4x, u, mx, ss4, su), sb=su)
    r = tx + mx
    ty = (((tx - r) + mx) + ty) + my
    return np.ldexp(r, q), np.ldexp(ty, q)  # (SLEEF's two scalings by 2^(q/2): each exact here, so one)


def _steps(x: np.ndarray) -> np.ndarray:
    """``xtanh`` of a 1-D block (module docstring).

    NOTE: a first pass rounds the multiply-adds that only make low words twice (each pair's high word, and the
    exact residuals ``1 - d e`` and product errors, are the exact pass's): ~1/3 fewer NumPy passes. That moves a low
    word by a few of its ulps, ~2^-104 of its pair's value, and the quotient ``s + qy`` by under ~2^-103 (the
    numerator ``d - 1/d`` cancels to ~2y only where q = 0, d and 1/d within [0.7, 1.42]: an absolute bound) plus
    ~2^-102 of it; its rounding changes only where a boundary lies that close: the elements whose sum's error
    comes within ``2^-96 + 2^-90 r`` of a half-ulp are computed again with every multiply-add exact (measured: the
    high words equal, the low words at most 2^-103 apart, none flagged among 3.3M values from 1e-6 to 19; |x|
    below ~2^-43, whose half-ulp is that small, all flagged but zeros)."""
    ax = np.abs(x)
    s, qy, r = _quotient(np.minimum(ax, 19.0), _unfused)  # (beyond 18.71 the result is 1: no overflow in between)
    err = np.abs(qy - (r - s))                            # (Fast2Sum: |s| >= |qy|) the sum's rounding error
    risk = _half_ulp(r) - err <= 2.0 ** -96 + 2.0 ** -90 * r
    risk &= (ax <= 18.714973875) & (ax > 0)  # (x = 0: every product exact in both passes)
    if risk.any():
        at = np.flatnonzero(risk)
        r[at] = _quotient(np.minimum(ax[at], 19.0), _fma)[2]
    if x.size and _MAX(ax, None) <= 18.714973875:  # (False with a NaN): no selection takes
        return np.copysign(r, x)
    r = np.where((ax > 18.714973875) | np.isnan(r), 1.0, r)
    r = np.copysign(r, x)
    return np.where(np.isnan(x), _ALL_ONES, r)


def _half_ulp(r):
    """Half the smaller gap from ``r >= 0`` to a neighbour (0 for zero and subnormals: always checked)."""
    power = (r.view(np.uint64) & np.uint64(0x7FF0000000000000)).view(np.float64)  # 2^floor(log2 r)
    return power * np.where(r == power, 2.0 ** -54, 2.0 ** -53)


def _quotient(y, low):
    """``dddiv(ddadd2(d, -e), ddadd2(d, e))`` for ``d = expk2(y)``, ``e = 1/d``: its high word ``s``, low word
    ``qy`` and ``s + qy``; ``low`` the form of the multiply-adds that only make low words."""
    dx, dy = _expk2(y, low)
    ex = 1.0 / dx                                         # ddrec
    sex = _split(ex)
    ey = ex * low(-dy, ex, _fma(-dx, ex, 1.0, sb=sex), sb=sex)
    nx, ny = _add2(dx, dy - ey, -ex)                      # ddadd2(d, -e): the lows summed first
    mx, my = _add2(dx, dy + ey, ex)
    t = 1.0 / mx                                          # dddiv
    st = _split(t)
    s = nx * t
    qy = low(s, low(-my, t, _fma(-mx, t, 1.0, sb=st), sb=st), low(ny, t, _product_error(t, nx, s, st), sb=st))
    return s, qy, s + qy


def tanhd_u10(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhd_u10`` of a float64 array (module docstring).

    NOTE: each operand is split once for all its fmas, the fmas with a number multiplier are one ``daxpy`` each,
    and a large array goes ``_BLOCK`` elements at a time (its passes then stay in cache)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        if x.size <= 2 * _BLOCK:
            return _steps(x.reshape(-1)).reshape(x.shape)
        flat = np.ascontiguousarray(x).reshape(-1)
        out = np.empty(flat.size, np.float64)
        for i in range(0, flat.size, _BLOCK):
            out[i:i + _BLOCK] = _steps(flat[i:i + _BLOCK])
        return out.reshape(x.shape)
