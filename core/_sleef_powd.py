"""PyTorch's float64 ``pow`` on the CPU: SLEEF's ``pow_u10`` (``Sleef_powd8_u10``, its AVX-512 build with fused
multiply-adds) in the vector steps, the C library's ``pow`` in the scalar ones, bit for bit.

torch 2.13's double ``pow`` kernels (``tensor ** number``, ``pow(tensor, tensor)``, ``number ** tensor``) are
``cpu_kernel_vec`` loops: ``Vectorized<double>::pow`` on two vectors (16 doubles) at a time, ``std::pow`` on the
last ``n % 16`` elements, all of a shorter tensor and strided operands. SLEEF's function is not correctly rounded:
NumPy's power differed from it in ~6% of elements. Its steps (SLEEF's ``xpow``,
``logk`` and ``expk``, ``src/libm/sleefsimddp.c`` with ``dd.h``'s FMA forms, Boost Software License; the
coefficients are SLEEF's)::

    e = getexp(|x| / 0.75);  m = getmant(|x|) in [0.75, 1.5)       # |x| = m 2^e (subnormals too)
    X = dddiv(m - 1, m + 1);  X2 = ddsqu(X)                         # double-double
    t = poly9(X2.hi) (Estrin)                                       # logk: ln|x| as a double-double L
    L = e ln2 + 2X + X^3 (2/3) + X^5 t
    D = L y;  q = rint(D / ln2);  s = D - q ln2 (L2U, L2L)          # expk
    r = 2^q (1 + s + s^2 poly10(s))                                 # 2^(q >> 1) 2^(q - (q >> 1))
    inf where D > ln(DBL_MAX), 0 where D < -1000; signs, zeros, infinities and NaNs as C's pow

each fused multiply-add rounded once: Dekker's product and TwoSum (exact), or the BLAS's fused ``daxpy`` where the
multiplier is one number (``core._daxpy``); a first pass rounds those that only make low words twice and redoes
the few elements that could differ (``_steps``). A NaN operand gives SLEEF's all-ones NaN (``-nan``), as torch's.
Cost: ~20 ms of CPU per 10^5 elements, ~75x NumPy's power (``benchmarks/bench_pow.py``; the float32 port's ratio
is alike), and ~0.5 ms per call on small tensors (~250 NumPy calls).
Measured against torch 2.13 on an AMD EPYC Zen 4: 5 million pairs over wide ranges (subnormal, huge, negative
bases with integer exponents, results near overflow and underflow, every pair of 18 special values): bit for bit.
"""

from __future__ import annotations

import functools

import numpy as np

from core import _daxpy, _glibc
from core._arange_values import fma_sum
from core._sleef import vector_loop
from core._sleef_logd import _scaled_fma
from core._sleef_pow import kernel_split

__all__ = ["pow_u10", "c_pow", "pow_float64", "pow_number_float64"]

_F64 = np.float64
_L2U, _L2L = .69314718055966295651160180568695068359375, .28235290563031577122588448175013436025525412068e-12
_R_LN2 = 1.442695040888963407359924681001892137426645954152985934135449406931
_LOG_DBL_MAX = float.fromhex("0x1.62e42fefa39efp+9")  # (SLEEF since 2024-11; earlier 709.78271114955742909)
_LOGK = (0.116255524079935043668677, 0.103239680901072952701192, 0.117754809412463995466069,
         0.13332981086846273921509, 0.153846227114512262845736, 0.181818180850050775676507,
         0.222222222230083560345903, 0.285714285714249172087875, 0.400000000000000077715612)
_EXPK = (2.51069683420950419527139e-08, 2.76286166770270649116855e-07, 2.75572496725023574143864e-06,
         2.48014973989819794114153e-05, 0.000198412698809069797676111, 0.0013888888939977128960529,
         0.00833333333332371417601081, 0.0416666666665409524128449, 0.166666666666666740681535,
         0.500000000000000999200722)
_LN2 = (0.693147180559945286226764, 2.319046813846299558417771e-17)
_TWO_THIRDS = (0.666666666666666629659233, 3.80554962542412056336616e-17)
_MINUS_NAN = np.array(0xFFFFFFFFFFFFFFFF, np.uint64).view(_F64)  # SLEEF ORs the bits of a NaN operand's result


def _split(a):
    """Veltkamp's split of float64 ``a`` into 26- and 27-bit halves."""
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _product_error(a, b, p, sa=None, sb=None):
    """``a b - p`` exactly for ``p = a * b`` (Dekker), given ``a``'s and ``b``'s splits or not."""
    ah, al = _split(a) if sa is None else sa
    bh, bl = _split(b) if sb is None else sb
    return ((ah * bh - p) + ah * bl + al * bh) + al * bl


def _fma(a, b, c, sa=None, sb=None):
    """``a b + c`` rounded once: Dekker's product and TwoSum, ended by ``core._arange_values.fma_sum`` (its
    steps: ``fma``'s, given the splits)."""
    p = a * b
    e = _product_error(a, b, p, sa, sb)
    s = p + c
    z = s - p
    return fma_sum(s, (p - (s - z)) + (c - z), e)


_STACK = 512  # elements from which a number's fma is a daxpy call (~12 us of Python and ctypes each)


def _numbers_fma(x, sx, c1: tuple, c0: tuple, stack: bool = True):
    """The rows ``c1[i] x + c0[i]`` (numbers, c1's nonzero), each rounded once: a (len(c1), x.size) array; ``x`` 1-D.
    Below ``_STACK`` elements and with ``stack``, Dekker's product and TwoSum (a non-finite lane's NaN may differ
    from the ``daxpy``'s: callers whose such lanes reach their result pass ``stack=False``)."""
    if (x.size >= _STACK or not stack) and _daxpy.available():
        rows = np.empty((len(c1), x.size))
        rows[:] = np.array(c0).reshape(-1, 1)
        for row, c in zip(rows, c1):
            _daxpy.daxpy_(row, x, c)
        return rows
    a, split_a, b = _columns(c1, c0)
    return _fma(a, x, b, sa=split_a, sb=sx)


def _number_fma(x, sx, c: float, y, stack: bool = True):
    """``c x + y`` rounded once, ``c`` a nonzero number and ``y`` an array that may be overwritten (``stack``: as
    ``_numbers_fma``'s)."""
    if (x.size >= _STACK or not stack) and y.flags.c_contiguous and _daxpy.daxpy_(y, x, c):
        return y
    a, split_a, _ = _columns((c,), (0.0,))
    return _fma(a[0], x, y, sa=(split_a[0][0], split_a[1][0]), sb=sx)


@functools.lru_cache(maxsize=256)
def _columns(c1: tuple, c0: tuple):
    """``c1`` and ``c0`` as (k, 1) columns, with ``c1``'s split."""
    a = np.array(c1).reshape(-1, 1)
    return a, _split(a), np.array(c0).reshape(-1, 1)


def _fma_number(x, alpha: float, y):
    """``fma(x, alpha, y)`` for an array ``x`` and a number ``alpha`` (``y`` a fresh array or a number)."""
    return _scaled_fma(x, alpha, y)


def _poly4(x, sx, x2, s2, c3, c2, c1, c0):
    return _fma(x2, _fma_number(x, c3, c2), _fma_number(x, c1, c0), sa=s2)


def _poly8(x, sx, x2, s2, x4, s4, c):
    return _fma(x4, _poly4(x, sx, x2, s2, *c[:4]), _poly4(x, sx, x2, s2, *c[4:]), sa=s4)


def _logk(d, low):
    """SLEEF's ``logk`` of positive finite ``d``: ln(d) as a double-double (hi, lo); ``low`` is the form of the
    multiply-adds that only make low words (``_fma`` or ``_unfused``)."""
    with np.errstate(over="ignore"):
        scaled = d * (1.0 / 0.75)
    e = np.where(scaled == np.inf, 1024.0, (np.frexp(scaled)[1] - 1).astype(_F64))  # vgetexp
    bits = np.where(d < np.finfo(_F64).tiny, d * 2.0 ** 64, d).view(np.uint64) & np.uint64(0x000FFFFFFFFFFFFF)
    bits |= np.where(bits >= np.uint64(1 << 51), np.uint64(1022 << 52), np.uint64(1023 << 52))
    m = bits.view(_F64)  # vgetmant(d), normalised to [0.75, 1.5): a significand from 1.5 up is halved
    nx = m - 1.0  # (exact: ddadd2's error is 0)
    dx = m + 1.0
    dy = (1.0 - (dx - (dx - 1.0))) + (m - (dx - 1.0))  # ddadd2(1, m)'s error
    t = 1.0 / dx  # dddiv(nx, dx, dy)
    st = _split(t)
    xx = nx * t
    u = _product_error(t, nx, xx, st)
    w = 1.0 - dx * t - _product_error(dx, t, dx * t, sb=st)  # fnma(dx, t, 1): exact (|1 - dx t| < 2^-52)
    xy = low(xx, low(-dy, t, w, sb=st), u)
    sxx = _split(xx)
    x2x = xx * xx  # ddsqu
    x2y = low(xx + xx, xy, _product_error(xx, xx, x2x, sxx, sxx))
    s2 = _split(x2x)
    x4 = x2x * x2x
    s4 = _split(x4)
    x8 = x4 * x4
    x16 = x8 * x8
    t = _fma_number(x16, _LOGK[0], _poly8(x2x, s2, x4, s4, x8, _split(x8), _LOGK[1:]))
    sx = _LN2[0] * e  # ddmul((ln2 hi, lo), e)
    sy = _fma_number(e, _LN2[1], _fma_number(e, _LN2[0], -sx))
    sx, sy = _dd_add(sx, sy, xx * 2, xy * 2)
    cx, cy = _dd_mul(x2x, x2y, xx, xy, low, s2, sxx)  # X^3
    sx, sy = _dd_add(sx, sy, *_dd_mul_constant(cx, cy, _TWO_THIRDS))
    cx, cy = _dd_mul(x2x, x2y, cx, cy, low, s2)  # X^5
    p = cx * t
    sx, sy = _dd_add(sx, sy, p, low(cy, t, _product_error(cx, t, p)))
    return sx, sy


def _dd_add(xx, xy, yx, yy):
    """``ddadd``: (xx, xy) + (yx, yy) for |x| >= |y|."""
    s = xx + yx
    return s, (((xx - s) + yx) + xy) + yy


def _dd_mul(xx, xy, yx, yy, low, sx=None, sy=None):
    """``ddmul`` of two pairs (FMA form)."""
    s = xx * yx
    return s, low(xx, yy, low(xy, yx, _product_error(xx, yx, s, sx, sy)))


def _dd_mul_constant(xx, xy, c):
    """``ddmul`` of a pair by the constant pair ``c``."""
    s = xx * c[0]
    return s, _fma_number(xx, c[1], _fma_number(xy, c[0], _fma_number(xx, c[0], -s)))


def _dd_mul_number(xx, xy, y: float):
    """``ddmul_vd2_vd2_vd`` of a pair by a number (``tensor ** number``'s exponent)."""
    s = xx * y
    if y == 0:
        return s, xy * 0.0
    return s, _fma_number(xy, y, _fma_number(xx, y, -s))


def _dd_mul_array(xx, xy, y, low):
    """``ddmul_vd2_vd2_vd`` of pairs by an array (or of one pair of numbers by an array: ``number ** tensor``)."""
    s = xx * y
    if np.ndim(xx) == 0:  # (fma(xx, y, -s) with xx a number: the BLAS's daxpy on y)
        return s, _fma_number(y, float(xy), _fma_number(y, float(xx), -s)) if xx else xy * y
    return s, low(xy, y, _product_error(xx, y, s))


def _expk(dx, dy, low, check: bool = False):
    """SLEEF's ``expk`` of the double-double (dx, dy): exp as a double, 0 below -1000. With ``check``, also where
    the low words' last bits could matter (``_steps``): where ``rint`` of the quotient by ln 2, the normalised
    reduced argument or the sum before the scaling lies within a margin of a rounding boundary."""
    u = (dx + dy) * _R_LN2
    dq = np.rint(u)
    q = np.where(np.abs(dq) < 2 ** 31, dq, 0).astype(np.int64)
    sx, sy = _dd_add2(dx, dy, dq * -_L2U)
    sx, sy = _dd_add2(sx, sy, dq * -_L2L)
    x = sx + sy  # ddnormalize
    y = (sx - x) + sy
    sxs = _split(x)
    s2 = x * x
    ss2 = _split(s2)
    s4 = s2 * s2
    ss4 = _split(s4)
    s8 = s4 * s4
    u8 = _fma(s8, _fma_number(x, _EXPK[0], _EXPK[1]), _poly8(x, sxs, s2, ss2, s4, ss4, _EXPK[2:]))
    tx = 1.0 + x  # ddadd(1, s)
    ty = ((1.0 - tx) + x) + y
    qy = low(x + x, y, _product_error(x, x, s2, sxs, sxs))  # ddsqu(s) = (s2, qy)
    p = s2 * u8
    tx, ty = _dd_add(tx, ty, p, low(qy, u8, _product_error(s2, u8, p, ss2)))
    r = tx + ty
    risk = None
    if check:
        eps = 2.0 ** -88 * (1 + np.abs(dx))  # bounds the low words' error, ~2^-96 (1 + |D|), with room
        risk = (0.5 - np.abs(u - dq) <= 2.0 ** -48 * (1 + np.abs(u)))
        ax = np.abs(x)
        risk |= (ax > 2.0 ** -30) & ((np.abs(y) + eps >= _half_ulp(ax)) | (np.abs(sy) > np.abs(sx)))
        risk |= np.abs(ty - (r - tx)) + 2 * eps >= np.where(r > 1, 2.0 ** -53, 2.0 ** -54)  # (r in [0.7, 1.42])
        risk |= ~np.isfinite(r)
        risk &= (dx >= -1000) & (dx <= _LOG_DBL_MAX)
    h = q >> 1
    r = r * ((h + 0x3FF) << 52).view(_F64) * ((q - h + 0x3FF) << 52).view(_F64)  # vldexp2
    return np.where(dx < -1000, 0.0, r), risk


def _half_ulp(a):
    """Half the gap from normal ``a > 0`` to its nearer neighbour (below a power of two the gap halves)."""
    power = (a.view(np.uint64) & np.uint64(0x7FF0000000000000)).view(_F64)  # 2^floor(log2 a)
    return power * np.where(a == power, 2.0 ** -54, 2.0 ** -53)


def _unfused(a, b, c, sa=None, sb=None):
    """``a b + c`` rounded twice: the low words' multiply-adds in ``_steps``'s first pass."""
    return a * b + c


def _dd_add2(xx, xy, y):
    """``ddadd2_vd2_vd2_vd``: (xx, xy) + y, the sum's error kept whatever the sizes."""
    s = xx + y
    v = s - xx
    return s, ((xx - (s - v)) + (y - v)) + xy


def _finish(r, dx, x, y):
    """``xpow``'s overflow, sign and special-value selections on ``r = expk(D)``."""
    r = np.where(dx > _LOG_DBL_MAX, np.inf, r)
    ordinary = (x > 0) & (x < np.inf) & np.isfinite(y)
    if not ordinary.all():  # (selections every element would pass through unchanged, skipped when none is odd)
        yisint = np.rint(y) == y
        yisodd = (np.rint(y * 0.5) != y * 0.5) & yisint
        r = r * np.where(x > 0, 1.0, np.where(yisint, np.where(yisodd, -1.0, 1.0), np.nan))
        ax = np.abs(x)
        efx = np.where(np.signbit(y), 1.0 - ax, ax - 1.0)  # vmulsign(|x| - 1, y)
        r = np.where(np.isinf(y), np.where(efx < 0, 0.0, np.where(efx == 0, 1.0, np.inf)), r)
        edge = np.where(np.signbit(y) ^ (x == 0), 0.0, np.inf)
        edge = np.where(yisodd & np.signbit(x), -edge, edge)  # vmulsign(edge, yisodd ? x : 1)
        r = np.where(np.isinf(x) | (x == 0), edge, r)
        r = np.where(np.isnan(x) | np.isnan(y), _MINUS_NAN, r)
    return np.where((y == 0) | (x == 1), 1.0, r)


_BLOCK = 8192  # elements a step: its ~300 temporaries stay in cache (and below malloc's mmap threshold)


def pow_u10(x, y) -> np.ndarray:
    """SLEEF's ``pow_u10`` of two float64 arrays or numbers (broadcast together)."""
    x, y = np.asarray(x, _F64), np.asarray(y, _F64)
    shape = np.broadcast_shapes(x.shape, y.shape)
    with np.errstate(all="ignore"):
        if x.ndim == 0:  # number ** tensor: one logarithm
            lx, ly = _logk(_safe_base(x.reshape(1)), _fma)
            logs = float(lx[0]), float(ly[0])
        if not shape:
            return _steps(x.reshape(1), y.reshape(1), logs)[0].reshape(())
        xs = x if x.ndim == 0 else np.broadcast_to(x, shape).reshape(-1)
        ys = y if y.ndim == 0 else np.broadcast_to(y, shape).reshape(-1)
        out = np.empty(xs.size if x.ndim else ys.size, _F64)
        for start in range(0, out.size, _BLOCK):
            part = np.s_[start:start + _BLOCK]
            out[part] = _steps(xs if x.ndim == 0 else xs[part], ys if y.ndim == 0 else ys[part],
                               logs if x.ndim == 0 else None)
    return out.reshape(shape)


def _safe_base(x):
    """|x|, with 1 for the zeros, infinities and NaNs whose results ``_finish`` sets."""
    ax = np.abs(x)
    return np.where((ax > 0) & (ax < np.inf), ax, 1.0)


def _steps(x, y, logs, low=_unfused):
    """``xpow`` of a block: ``x`` a 1-d array (or 0-d with its logarithm ``logs``), ``y`` 1-d or 0-d.

    NOTE: a first pass rounds the multiply-adds that only make low words (~2^-53 of their pair) twice: ~40% fewer
    NumPy passes than Dekker's exact form. That moves each low word by an ulp or so, the result's value by under
    ~2^-96 (1 + |D|) relative (D = ln|x| y), and so its bits only where a rounding boundary lies that close:
    ``_expk`` flags those elements (ties such as 3 ** 34, a few in 10^9 others) and they are computed again with
    every multiply-add exact."""
    lx, ly = _logk(_safe_base(x), low) if logs is None else logs
    if y.ndim == 0:
        dx, dy = _dd_mul_number(lx, ly, float(y) if np.isfinite(y) else 0.0)
    else:
        dx, dy = _dd_mul_array(lx, ly, np.where(np.isfinite(y), y, 0.0), low)
    r, risk = _expk(dx, dy, low, check=low is _unfused)
    out = _finish(r, dx, x, y)
    if risk is not None and risk.any():
        at = np.flatnonzero(risk)
        out[at] = _steps(x if x.ndim == 0 else x[at], y if y.ndim == 0 else y[at], logs, _fma)
    return out


def c_pow(x, y) -> np.ndarray:
    """``std::pow(double, double)``: the C library's ``pow`` per element (broadcast), at any size (as
    ``core._glibc.pow_number``); NumPy's power without glibc."""
    x, y = np.broadcast_arrays(np.asarray(x, _F64), np.asarray(y, _F64))
    if _glibc._C_POW is None:
        with np.errstate(all="ignore"):
            return np.power(x, y)
    return np.fromiter(map(_glibc._C_POW, x.ravel().tolist(), y.ravel().tolist()), _F64, x.size).reshape(x.shape)


def pow_number_float64(x: np.ndarray, exponent: float) -> np.ndarray:
    """``x ** exponent`` for a float64 array in torch's kernel's split (``core._sleef.vector_loop``): SLEEF's in the
    vector steps, the C library's ``pow`` in the scalar ones."""
    return vector_loop(x, lambda v: pow_u10(v, exponent), lambda v: _glibc.pow_number(v, exponent))


def pow_float64(base, exponent):
    """``pow`` of float64 NumPy arrays (either may be 0-d) in PyTorch's kernel's split."""
    return kernel_split(np.asarray(base, _F64), np.asarray(exponent, _F64), pow_u10, c_pow)

