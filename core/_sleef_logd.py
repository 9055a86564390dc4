"""SLEEF's ``logd_u10`` (``xlog_u1``, its AVX-512 build with fused multiply-adds) on float64 arrays, bit for bit:
what ``Vectorized<double>::log()`` gives on ATen's AVX-512 build, so float64 log_softmax's log of its sums.

For positive finite x (2026-12-06, from SLEEF's ``sleefsimddp.c`` and ``dd.h``, its FMA forms)::

    e = getexp(x / 0.75);  m = getmant(x) in [0.75, 1.5)            # x = m 2^e
    X = dddiv(m - 1 (TwoSum), m + 1 (TwoSum))                       # a double-double quotient
    x2 = X.hi^2;  x4 = x2^2;  x8 = x4^2
    t = fma(x8, fma(x4, C6, fma(x2, C5, C4)), fma(x4, fma(x2, C3, C2), fma(x2, C1, C0)))   # Estrin
    S = ddmul((ln2_hi, ln2_lo), e);  S = ddadd(S, 2 X);  S = ddadd(S, (x2 X.hi) t)
    log = S.hi + S.lo

each ``fma`` one rounding (``core.nn.functional._flash_cpu``'s exact Dekker/TwoSum form). Zero gives -inf, negative
numbers and NaN give NaN, +inf gives +inf (SLEEF's fixup).
"""

from __future__ import annotations

import numpy as np

from core import _daxpy

__all__ = ["log1pd_u10", "logd_u10"]

_POLY = (0.1532076988502701353e+0, 0.1525629051003428716e+0, 0.1818605932937785996e+0, 0.2222214519839380009e+0,
         0.2857142932794299317e+0, 0.3999999999635251990e+0, 0.6666666666667333541e+0)
_LN2_HI, _LN2_LO = 0.693147180559945286226764, 2.319046813846299558417771e-17


def _fma(a, b, c):
    from core.nn.functional._flash_cpu import _fma_split, _split  # (core.nn imports core: not at core's import)

    return _fma_split(a, *_split(a), b, *_split(np.float64(b)), c)


def _scaled_fma(x, alpha: float, y):
    """``fma(alpha, x, y)`` for a float64 array ``x`` and a number ``alpha``: OpenBLAS's fused ``daxpy`` on ``y``
    (a fresh array, a number filled out to ``x``'s shape) where ``core._daxpy`` has one, else Dekker's form."""
    if type(x) is np.ndarray:  # (a 0-d x's steps give NumPy scalars)
        y = y if type(y) is np.ndarray and y.ndim else np.full(x.shape, y)
        if _daxpy.daxpy_(y, x, alpha):
            return y
    return _fma(x, alpha, y)


def _two_sum(a, b):
    s = a + b
    v = s - a
    return s, (a - (s - v)) + (b - v)


def _getexp(y: np.ndarray) -> np.ndarray:
    """``vgetexp`` of positive ``y`` as SLEEF's log and log1p take it: floor(log2 y), 1024 where y overflowed
    (x above 2^1024 * 0.75)."""
    with np.errstate(over="ignore"):
        e = (np.frexp(y)[1] - 1).astype(np.float64)
    return np.where(y == np.inf, 1024.0, e)


def _steps(x: np.ndarray) -> np.ndarray:
    """``xlog_u1`` of positive finite normal float64 ``x``.

    NOTE: the six fmas with a constant multiplier (the polynomial's inner terms, ``e ln 2``'s error) are one
    ``daxpy`` each (``_scaled_fma``) instead of Dekker's product and TwoSum (~16 NumPy passes), and ``t``, the
    quotient's reciprocal, is split once for its four fmas (each keeps its operands' order): the same bits
    (``test_sleef_logd_steps_unchanged``)."""
    from core.nn.functional._flash_cpu import _fma_split, _split

    e = _getexp(x * (1.0 / 0.75))
    bits = x.view(np.uint64) & np.uint64(0x000FFFFFFFFFFFFF)
    top = bits >= np.uint64(0x0008000000000000)          # getmant(x), normalised to [0.75, 1.5): a significand
    bits |= np.where(top, np.uint64(1022 << 52), np.uint64(1023 << 52))  # from 1.5 up is halved
    m = bits.view(np.float64)
    nx, ny = _two_sum(m, -1.0)
    dx, dy = _two_sum(m, 1.0)
    t = 1.0 / dx                                         # dddiv
    split_t = _split(t)
    s = nx * t
    u = _fma_split(t, *split_t, nx, *_split(nx), -s)
    v = _fma_split(-dy, *_split(-dy), t, *split_t, _fma_split(-dx, *_split(-dx), t, *split_t, 1.0))
    hx = s
    hy = _fma(s, v, _fma_split(ny, *_split(ny), t, *split_t, u))
    return _log_sum(hx, hy, e)


def _log_sum(hx, hy, e):
    """``e ln 2 + 2 X + X^3 poly(X^2)`` as SLEEF's ``xlog_u1`` and ``xlog1p`` both finish, ``X = (hx, hy)``."""
    c6, c5, c4, c3, c2, c1, c0 = _POLY
    x2 = hx * hx
    x4 = x2 * x2
    x8 = x4 * x4
    poly = _fma(x8, _scaled_fma(x4, c6, _scaled_fma(x2, c5, c4)),
                _fma(x4, _scaled_fma(x2, c3, c2), _scaled_fma(x2, c1, c0)))
    sx = _LN2_HI * e                                     # ddmul((ln2_hi, ln2_lo), e)
    sy = _scaled_fma(e, _LN2_LO, _scaled_fma(e, _LN2_HI, -sx))
    ax, ay = hx * 2, hy * 2                              # ddadd(S, 2X): |S| >= |2X| assumed, as SLEEF's
    r = sx + ax
    sy = (((sx - r) + ax) + sy) + ay
    sx = r
    w = (x2 * hx) * poly                                 # ddadd(S, w)
    r = sx + w
    sy = ((sx - r) + w) + sy
    return r + sy


def logd_u10(x: np.ndarray) -> np.ndarray:
    """SLEEF's ``logd_u10`` of a float64 array (module docstring)."""
    x = np.asarray(x, np.float64)
    out = np.empty_like(x)
    ok = (x > 0) & (x < np.inf) & (x >= np.finfo(np.float64).tiny)
    if ok.all():
        return _steps(x)
    out[ok] = _steps(x[ok])
    with np.errstate(divide="ignore", invalid="ignore"):
        out[~ok] = np.log(x[~ok])  # 0: -inf, negative and NaN: NaN, inf: inf (SLEEF's fixup)
    return out


_LOG1P_BOUND = float.fromhex("0x1.c7b1f3cac7433p+1019")  # (1e307) above it SLEEF's log1p takes its log


def log1pd_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``log1pd_u10`` (``xlog1p``, AVX-512 form with fused multiply-adds) of a float64 array, bit for bit:
    what ``Vectorized<double>::log1p()`` gives (float64 softplus). Its steps::

        e = getexp((d + 1) / 0.75);  t = 2^-e;  m = fma(d, t, t - 1)        # 1 + d = (1 + m) 2^e
        X = dddiv((m, 0), ddadd(2, m));  then ``xlog_u1``'s sum (``_log_sum``)

    d above 1e307: SLEEF's ``logd_u10``; below -1 and NaN: NaN; -1: -inf; -0: -0."""
    from core.nn.functional._flash_cpu import _fma_split, _split

    d = np.asarray(d, np.float64)
    with np.errstate(all="ignore"):
        ok = (d > -1) & (d <= _LOG1P_BOUND)
        core = d if ok.all() else np.where(ok, d, 0.0)
        e = _getexp((core + 1) * (1.0 / 0.75))
        t = np.ldexp(1.0, -e.astype(np.int64))
        m = core * t + (t - 1)                           # (fma(d, t, t - 1): d t is exact, a power of 2)
        dx = 2 + m                                       # ddadd(2, m)
        dy = (2 - dx) + m
        r = 1.0 / dx                                     # dddiv((m, 0), (dx, dy))
        split_r = _split(r)
        hx = m * r
        u = _fma_split(r, *split_r, m, *_split(m), -hx)
        v = _fma_split(-dy, *_split(-dy), r, *split_r, _fma_split(-dx, *_split(-dx), r, *split_r, 1.0))
        hy = _fma(hx, v, u)
        out = _log_sum(hx, hy, e)
        if ok.all():
            return out
        big = d > _LOG1P_BOUND
        if big.any():
            out[big] = logd_u10(d[big])
        out[(d < -1) | np.isnan(d)] = np.nan
        out[d == -1] = -np.inf
        out[(d == 0) & np.signbit(d)] = -0.0
        return out
