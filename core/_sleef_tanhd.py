"""SLEEF's ``tanhd_u10`` (``xtanh``, with fused multiply-adds) on float64 arrays: what ``Vectorized<double>::tanh()``
gives inside kernels such as float64 mish's and GELU's tanh form (2026-12-06, from SLEEF's ``sleefsimddp.c`` and
``dd.h``)::

    d = expk2((|x|, 0))                  # exp|x| as a double-double
    e = ddrec(d);  tanh = dddiv(ddadd2(d, -e), ddadd2(d, e))
    1 beyond 18.714973875, the sign of x; a NaN comes out with all bits set

each ``fma`` rounded once: Dekker's product and TwoSum, or OpenBLAS's fused ``daxpy`` where the multiplier is a
number (``core._sleef_logd._scaled_fma``). Cost (CPU, load ~1): 512x512 ~40 ms, 200 elements ~0.3 ms
(``test_sleef_tanhd_unchanged``: the bits of the first port, whose every fma split both operands: 111 ms, 0.73 ms).
"""

from __future__ import annotations

import numpy as np

from core._sleef_logd import _scaled_fma

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


def _split(a):
    """Veltkamp's split of float64 ``a`` into 26- and 27-bit halves (``a`` well inside the range)."""
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return a, hi, a - hi


def _fma(a, b, c):
    """``a b + c`` rounded once, ``a`` and ``b`` as ``_split`` gives them (the value and its halves): Dekker's
    product and TwoSum, ``core._sleef_logd._fma``'s operations."""
    a, ah, al = a
    b, bh, bl = b
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    z = s - p
    return s + (((p - (s - z)) + (c - z)) + e)


def _add2(xx, xy, y):
    """``ddadd2_vd2_vd2_vd``: (xx, xy) + y, the rounding error kept whatever the sizes."""
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _add_scalar(x, yx, yy):
    """``ddadd_vd2_vd_vd2``: x + (yx, yy), |x| >= |y|."""
    s = x + yx
    return s, ((x - s) + yx) + yy


def _squ(sx, y):
    """``ddsqu`` of (x, y), ``sx`` x's split: (x^2, its low word)."""
    x = sx[0]
    s = x * x
    return s, _fma(_split(x + x), _split(y), _fma(sx, sx, -s))


def _mul2(xx, xy, sy, yy):
    """``ddmul`` of (xx, xy) and (y, yy), ``sy`` y's split."""
    y = sy[0]
    s = xx * y
    sxx = _split(xx)
    return s, _fma(sxx, _split(yy), _fma(_split(xy), sy, _fma(sxx, sy, -s)))


def _expk2(y):
    """SLEEF's ``expk2`` of (y, 0), y >= 0, as two words scaled by 2^q."""
    dq = np.rint(y * _R_LN2)
    q = dq.astype(np.int64)
    sx, sy = _add2(y, 0.0, dq * -_L2U)
    sx, sy = _add2(sx, sy, dq * -_L2L)
    ssx = _split(sx)
    s2x, s2y = _squ(ssx, sy)
    ss2 = _split(s2x)
    s4x, s4y = _squ(ss2, s2y)
    ss4 = _split(s4x)
    s8 = s4x * s4x
    c9, c8, c7, c6, c5, c4, c3, c2, c1, c0 = _EXPK2_POLY

    def poly4(a3, a2, a1, a0):
        return _fma(ss2, _split(_scaled_fma(sx, a3, a2)), _scaled_fma(sx, a1, a0))
    u = _fma(_split(s8), _split(_scaled_fma(sx, c9, c8)),
             _fma(ss4, _split(poly4(c7, c6, c5, c4)), poly4(c3, c2, c1, c0)))
    mx = sx * _SIXTH
    tx, ty = _add_scalar(0.5, mx, _scaled_fma(sy, _SIXTH, _scaled_fma(sx, _SIXTH, -mx)))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, ssx, sy))
    tx, ty = _add_scalar(1.0, *_mul2(tx, ty, ssx, sy))
    su = _split(u)
    mx = s4x * u
    my = _fma(_split(s4y), su, _fma(ss4, su, -mx))
    r = tx + mx
    ty = (((tx - r) + mx) + ty) + my
    half = q >> 1
    return np.ldexp(np.ldexp(r, half), q - half), np.ldexp(np.ldexp(ty, half), q - half)


def _steps(x: np.ndarray) -> np.ndarray:
    """``xtanh`` of a 1-D block (module docstring)."""
    y = np.minimum(np.abs(x), 19.0)  # (beyond 18.71 the result is 1: no overflow in between)
    dx, dy = _expk2(y)
    ex = 1.0 / dx                                         # ddrec
    sex, sdx = _split(ex), _split(-dx)
    ey = ex * _fma(_split(-dy), sex, _fma(sdx, sex, 1.0))
    nx, ny = _add2(dx, dy - ey, -ex)                      # ddadd2(d, -e): the lows summed first
    mx, my = _add2(dx, dy + ey, ex)
    t = 1.0 / mx                                          # dddiv
    st = _split(t)
    s = nx * t
    qy = _fma(_split(s), _split(_fma(_split(-my), st, _fma(_split(-mx), st, 1.0))),
              _fma(_split(ny), st, _fma(st, _split(nx), -s)))
    r = s + qy
    r = np.where((np.abs(x) > 18.714973875) | np.isnan(r), 1.0, r)
    r = np.copysign(r, x)
    return np.where(np.isnan(x), _ALL_ONES, r)


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
