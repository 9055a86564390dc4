"""SLEEF's ``tanhd_u10`` (``xtanh``, with fused multiply-adds) on float64 arrays: what ``Vectorized<double>::tanh()``
gives inside kernels such as float64 mish's (2026-12-06, from SLEEF's ``sleefsimddp.c`` and ``dd.h``)::

    d = expk2((|x|, 0))                  # exp|x| as a double-double
    e = ddrec(d);  tanh = dddiv(ddadd2(d, -e), ddadd2(d, e))
    1 beyond 18.714973875, the sign of x; a NaN comes out with all bits set

each ``fma`` rounded once (``core._sleef_logd._fma``, Dekker's product and TwoSum).
"""

from __future__ import annotations

import numpy as np

from core._sleef_logd import _fma

__all__ = ["tanhd_u10"]

_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_L2U = .69314718055966295651160180568695068359375
_L2L = .28235290563031577122588448175013436025525412068e-12
_EXPK2_POLY = (0.1602472219709932072e-9, 0.2092255183563157007e-8, 0.2505230023782644465e-7,
               0.2755724800902135303e-6, 0.2755731892386044373e-5, 0.2480158735605815065e-4,
               0.1984126984148071858e-3, 0.1388888888886763255e-2, 0.8333333333333347095e-2,
               0.4166666666666669905e-1)
_ALL_ONES = np.array(0xFFFFFFFFFFFFFFFF, np.uint64).view(np.float64)


def _add2(xx, xy, y):
    """``ddadd2_vd2_vd2_vd``: (xx, xy) + y, the rounding error kept whatever the sizes."""
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
    """``ddadd_vd2_vd_vd2``: x + (yx, yy), |x| >= |y|."""
    s = x + yx
    return s, ((x - s) + yx) + yy


def _expk2(y):
    """SLEEF's ``expk2`` of (y, 0), y >= 0."""
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


def tanhd_u10(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``tanhd_u10`` of a float64 array (module docstring)."""
    x = np.asarray(x, np.float64)
    with np.errstate(all="ignore"):
        y = np.minimum(np.abs(x), 19.0)  # (beyond 18.71 the result is 1: no overflow in between)
        dx, dy = _expk2(y)
        ex = 1.0 / dx                                         # ddrec
        ey = ex * _fma(-dy, ex, _fma(-dx, ex, 1.0))
        nx, ny = _add2(dx, dy - ey, -ex)                      # ddadd2(d, -e): the lows summed first
        mx, my = _add2(dx, dy + ey, ex)
        t = 1.0 / mx                                          # dddiv
        s = nx * t
        qy = _fma(s, _fma(-my, t, _fma(-mx, t, 1.0)), _fma(ny, t, _fma(t, nx, -s)))
        r = s + qy
        r = np.where((np.abs(x) > 18.714973875) | np.isnan(r), 1.0, r)
        r = np.copysign(r, x)
    return np.where(np.isnan(x), _ALL_ONES, r)
