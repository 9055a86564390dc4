"""glibc's float32 ``expf``, as PyTorch's scalar CPU loops call it (``std::exp`` of a float).

PyTorch's elementwise kernels such as sigmoid's take SLEEF's vectorised exp two vectors at a time and
``std::exp`` for the rest: all of a tensor under 32 elements, the tail of a longer one. That is glibc's
``expf`` (sysdeps/ieee754/flt-32/e_expf.c, since 2.27): ``2^(k/32)`` from a table times a cubic in the
remainder, all in double, then one rounding to float. It is not correctly rounded (within 0.502 ulp): about
1 input in 300 gets the other neighbour of exp(x), and a small network's sigmoid (XOR) hits one within a
few hundred training steps. The double arithmetic here is glibc's, step for step; its x86-64 build fuses
some multiply-adds, which moves the double result by ~1e-16 and so the float only where it lies that close
to a rounding midpoint (about 1 input in 10^8).
"""

from __future__ import annotations

import ctypes
import itertools
import math
import os

import numpy as np

__all__ = ["erf", "erff", "exp", "expf", "expm1f", "log1p", "log1pf", "logf", "pow_number", "tanh", "tanhf"]

_N = 32
_TAB = np.array([
    0x3ff0000000000000, 0x3fefd9b0d3158574, 0x3fefb5586cf9890f, 0x3fef9301d0125b51,
    0x3fef72b83c7d517b, 0x3fef54873168b9aa, 0x3fef387a6e756238, 0x3fef1e9df51fdee1,
    0x3fef06fe0a31b715, 0x3feef1a7373aa9cb, 0x3feedea64c123422, 0x3feece086061892d,
    0x3feebfdad5362a27, 0x3feeb42b569d4f82, 0x3feeab07dd485429, 0x3feea47eb03a5585,
    0x3feea09e667f3bcd, 0x3fee9f75e8ec5f74, 0x3feea11473eb0187, 0x3feea589994cce13,
    0x3feeace5422aa0db, 0x3feeb737b0cdc5e5, 0x3feec49182a3f090, 0x3feed503b23e255d,
    0x3feee89f995ad3ad, 0x3feeff76f2fb5e47, 0x3fef199bdd85529c, 0x3fef3720dcef9069,
    0x3fef5818dcfba487, 0x3fef7c97337b9b5f, 0x3fefa4afa2a490da, 0x3fefd0765b6e4540], np.uint64)
_INV_LN2_N = float.fromhex("0x1.71547652b82fep+0") * _N
_SHIFT = float.fromhex("0x1.8p+52")
_C0 = float.fromhex("0x1.c6af84b912394p-5") / _N / _N / _N
_C1 = float.fromhex("0x1.ebfce50fac4f3p-3") / _N / _N
_C2 = float.fromhex("0x1.62e42ff0c52d6p-1") / _N
_OVER, _UNDER = np.float32(float.fromhex("0x1.62e42ep6")), np.float32(float.fromhex("-0x1.9fe368p6"))


def _c_library_float_function(name: str):
    """The C library's ``float name(float)`` through ctypes where that library is glibc (whose functions this
    module ports), else None: for a few elements one call each is ~5x cheaper than the port's array steps."""
    try:  # NOTE: at import: confstr answers at once where platform.libc_ver and find_library take ~10 ms
        if not os.confstr("CS_GNU_LIBC_VERSION").startswith("glibc"):
            return None
        function = getattr(ctypes.CDLL("libm.so.6"), name)
    except (ValueError, OSError, AttributeError):  # no such confstr name (not glibc), no libm.so.6
        return None
    function.restype, function.argtypes = ctypes.c_float, [ctypes.c_float]
    return function


_FEW = 32  # up to this many elements, the C library's own function per element
_C_EXPF, _C_EXPM1F = _c_library_float_function("expf"), _c_library_float_function("expm1f")
_C_LOG1PF, _C_TANHF = _c_library_float_function("log1pf"), _c_library_float_function("tanhf")
_C_LOGF, _C_ERFF = _c_library_float_function("logf"), _c_library_float_function("erff")


def _per_element(function, x: np.ndarray, dtype=np.float32) -> np.ndarray:
    """``function`` (the C library's, through ctypes) of each element, into a new array of ``dtype``.

    NOTE: a scalar tail's hot path (8 of a 200-element sigmoid's values each training step): ``np.fromiter`` over
    ``map`` (~0.5 µs less for 8 elements than a list comprehension made into an array); each Python float the
    function returns is its C result exactly, converted to ``dtype`` as before."""
    return np.fromiter(map(function, x.ravel().tolist()), dtype, x.size).reshape(x.shape)


def _c_library_double_function(name: str):
    """The C library's ``double name(double)`` through ctypes where that is glibc's, else None."""
    function = _c_library_float_function(name)
    if function is not None:
        function.restype, function.argtypes = ctypes.c_double, [ctypes.c_double]
    return function


_C_EXP, _C_LOG1P = _c_library_double_function("exp"), _c_library_double_function("log1p")
_C_TANH = _c_library_double_function("tanh")
_FEW_DOUBLES = 4096  # NOTE: up to this many float64 elements, glibc's own function per element (~0.3 us each)


def exp(x: np.ndarray, *, any_size: bool = False) -> np.ndarray:
    """glibc's ``exp`` of a float64 array, element for element through the C library: a scalar loop's part (the
    last ``n % 16`` elements of float64 softplus, all of a short or strided tensor). NumPy's own (its SIMD exp,
    which differs from glibc's in the last bit on about 1 input in 20) without glibc or above ``_FEW_DOUBLES``
    elements unless ``any_size`` (where the alternative is slower than glibc's per element: SLEEF's expd_u10)."""
    x = np.asarray(x, np.float64)
    if _C_EXP is not None and (any_size or x.size <= _FEW_DOUBLES):
        return _per_element(_C_EXP, x, np.float64)
    with np.errstate(over="ignore"):
        return np.exp(x)


def _c_pow_function():
    """glibc's ``double pow(double, double)`` through ctypes, else None."""
    function = _c_library_double_function("pow")
    if function is not None:
        function.argtypes = [ctypes.c_double, ctypes.c_double]
    return function


_C_POW = _c_pow_function()


def pow_number(x: np.ndarray, exponent: float) -> np.ndarray:
    """glibc's ``pow`` of each element of a float64 array and ``exponent``: PyTorch's ``std::pow`` in its double pow
    kernel's scalar loop (a short or strided tensor, the last ``n % 16`` elements), NumPy's power without glibc.

    NOTE: at any size (no ``_FEW_DOUBLES`` limit): ~0.5 us an element, about 1.7x the vector steps' SLEEF port
    (core._sleef_powd), where NumPy's power differs from glibc's on ~5% of elements."""
    x = np.asarray(x, np.float64)
    if _C_POW is not None:
        return np.fromiter(map(_C_POW, x.ravel().tolist(), itertools.repeat(exponent, x.size)), np.float64,
                           x.size).reshape(x.shape)
    with np.errstate(all="ignore"):
        return np.power(x, exponent)


def tanh(x: np.ndarray, *, any_size: bool = False) -> np.ndarray:
    """glibc's ``tanh`` of a float64 array, as ``exp``."""
    x = np.asarray(x, np.float64)
    if _C_TANH is not None and (any_size or x.size <= _FEW_DOUBLES):
        return _per_element(_C_TANH, x, np.float64)
    return np.tanh(x)


_C_ERF = _c_library_double_function("erf")


def erf(x: np.ndarray) -> np.ndarray:
    """glibc's ``erf`` of a float64 array, element for element at any size (float64 GELU's scalar loop:
    ``std::erf``); without glibc Python's ``math.erf`` (the platform's C library's) per element."""
    x = np.asarray(x, np.float64)
    return _per_element(_C_ERF if _C_ERF is not None else math.erf, x, np.float64)


def log1p(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1p`` of a float64 array, as ``exp`` (NumPy's own differs on about 1 input in 30)."""
    x = np.asarray(x, np.float64)
    if _C_LOG1P is not None and x.size <= _FEW_DOUBLES:
        return _per_element(_C_LOG1P, x, np.float64)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log1p(x)


def log1pf(x: np.ndarray) -> np.ndarray:
    """glibc's ``log1pf`` of a float32 array, element for element through the C library: a scalar loop's tail
    (softplus's last ``n % 32`` elements, rarely more). Without glibc, log1p rounded once from float64 (which
    glibc's equals on all but about 1 input in 60)."""
    x = np.asarray(x, np.float32)
    if _C_LOG1PF is not None:
        return _per_element(_C_LOG1PF, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log1p(x.astype(np.float64)).astype(np.float32)


def logf(x: np.ndarray) -> np.ndarray:
    """glibc's ``logf`` of a float32 array, element for element through the C library (the flash attention
    kernel's ``std::log`` of each row's sum: one call a row); without glibc, log rounded once from float64 (glibc's
    is not correctly rounded: ~1 input in 2700 between 1 and 512 is the other neighbour)."""
    x = np.asarray(x, np.float32)
    if _C_LOGF is not None:
        return _per_element(_C_LOGF, x)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.log(x.astype(np.float64)).astype(np.float32)


def erff(x: np.ndarray) -> np.ndarray:
    """glibc's ``erff`` of a float32 array, element for element through the C library (a half-precision GELU's
    scalar loop); without glibc, erf rounded once from float64. glibc 2.36's is not correctly rounded: erff(-0.76373)
    is -0.7198926, one ulp from the correctly rounded -0.71989256, and a float16 GELU gradient there differs."""
    x = np.asarray(x, np.float32)
    if _C_ERFF is not None:
        return _per_element(_C_ERFF, x)
    from core.ops._special import erf  # (core.ops imports this module)
    return erf(x.astype(np.float64)).astype(np.float32)


def tanhf(x: np.ndarray) -> np.ndarray:
    """glibc's ``tanhf`` of a float32 array, element for element through the C library (mish's scalar tail);
    without glibc, tanh rounded once from float64."""
    x = np.asarray(x, np.float32)
    if _C_TANHF is not None:
        return _per_element(_C_TANHF, x)
    return np.tanh(x.astype(np.float64)).astype(np.float32)


def expf(x: np.ndarray) -> np.ndarray:
    """glibc's ``expf`` of a float32 NumPy array (any shape), element for element."""
    x = np.asarray(x, np.float32)
    if x.size <= _FEW and _C_EXPF is not None:
        return _per_element(_C_EXPF, x)
    with np.errstate(over="ignore", invalid="ignore"):
        z = _INV_LN2_N * x.astype(np.float64)  # x N / ln 2 = k + r, r in [-1/2, 1/2]
        kd = z + _SHIFT  # k in the low bits of kd's mantissa
        ki = kd.view(np.uint64)
        kd = kd - _SHIFT
        r = z - kd
        s = (_TAB[ki % _N] + (ki << np.uint64(52 - 5))).view(np.float64)  # 2^(k/N)
        y = _C2 * r + 1 + (_C0 * r + _C1) * (r * r)  # (y = C2 r + 1; y = z r^2 + y: added in glibc's order)
        out = (y * s).astype(np.float32)
        odd = ~(np.abs(x) < 88)  # |x| >= 88 or nan: glibc's special cases
        if odd.any():
            xo = x[odd]
            fix = out[odd]
            fix[xo > _OVER] = np.inf
            fix[xo < _UNDER] = 0
            nan = np.isnan(xo)
            fix[nan] = xo[nan]  # glibc returns x + x: the input's NaN, sign included (sigmoid(nan) is -nan)
            fix[xo == np.inf] = np.inf
            out[odd] = fix
    return out


_F = np.float32
_LN2_HI, _LN2_LO, _INV_LN2 = _F(6.9313812256e-01), _F(9.0580006145e-06), _F(1.4426950216e+00)
_Q = [_F(-3.3333335072e-02), _F(1.5873016091e-03), _F(-7.9365076090e-05), _F(4.0082177293e-06),
      _F(-2.0109921195e-07)]


def expm1f(x: np.ndarray) -> np.ndarray:
    """glibc's ``expm1f`` (fdlibm's, sysdeps/ieee754/flt-32/s_expm1f.c) of a float32 array, element for element:
    a reduction by ln 2 (hi and lo parts), a rational correction in float32, and the exponent put back."""
    x = np.asarray(x, _F)
    if x.size <= _FEW and _C_EXPM1F is not None:
        return _per_element(_C_EXPM1F, x)
    one, half = _F(1), _F(0.5)
    with np.errstate(all="ignore"):
        hx = x.view(np.uint32) & np.uint32(0x7FFFFFFF)
        neg = x < 0
        near = (hx > 0x3EB17218) & (hx < 0x3F851592)  # 0.5 ln 2 < |x| < 1.5 ln 2: k = +-1
        far = hx >= 0x3F851592
        k = np.where(near, np.where(neg, -1, 1), 0).astype(np.int32)
        kf = (_INV_LN2 * x + np.where(neg, -half, half)).astype(_F)
        k = np.where(far, np.trunc(np.nan_to_num(kf)).clip(-200, 200).astype(np.int32), k)
        t = k.astype(_F)
        hi = np.where(near, np.where(neg, x + _LN2_HI, x - _LN2_HI), x - t * _LN2_HI)
        lo = np.where(near, np.where(neg, -_LN2_LO, _LN2_LO), t * _LN2_LO)
        reduced = hx > 0x3EB17218
        xr = np.where(reduced, hi - lo, x)
        c = np.where(reduced, (hi - xr) - lo, _F(0))
        hfx = half * xr
        hxs = xr * hfx
        r1 = one + hxs * (_Q[0] + hxs * (_Q[1] + hxs * (_Q[2] + hxs * (_Q[3] + hxs * _Q[4]))))
        t = _F(3) - r1 * hfx
        e = hxs * ((r1 - t) / (_F(6) - xr * t))
        out = xr - (xr * e - hxs)  # k == 0
        e2 = (xr * (e - c) - c) - hxs
        kk = k.astype(np.int64)
        out = np.where(k == -1, half * (xr - e2) - half, out)
        out = np.where(k == 1, np.where(xr < _F(-0.25), _F(-2) * (e2 - (xr + half)), one + _F(2) * (xr - e2)), out)
        big = (k <= -2) | (k > 56)  # exp(x) - 1 from exp(x)'s exponent bits
        y = one - (e2 - xr)
        out = np.where(big, _scale(y, kk) - one, out)
        mid = (k >= 2) & (k < 23)  # t = 1 - 2^-k
        tm = ((0x3F800000 - (0x1000000 >> np.clip(kk, 0, 31))) & 0xFFFFFFFF).astype(np.uint32).view(_F)
        out = np.where(mid, _scale(tm - (e2 - xr), kk), out)
        high = (k >= 23) & (k <= 56)  # t = 2^-k
        th = ((np.clip(0x7F - kk, 0, 255) << 23).astype(np.uint32)).view(_F)
        out = np.where(high, _scale((xr - (e2 + th)) + one, kk), out)
        tiny = hx < 0x33000000  # |x| < 2^-25: x itself
        out = np.where(tiny, x, out)
        huge = hx >= 0x4195B844  # |x| >= 27 ln 2: -1 below, exp's overflow above
        out = np.where(huge & neg, _F(-1), out)
        out = np.where(huge & ~neg & (hx >= 0x42B17218), _F(np.inf), out)  # (glibc: 88.7228...)
        out = np.where(np.isnan(x), x, out)
    return out.astype(_F)


def _scale(y, k):
    """``y`` with ``k`` added to its exponent field (fdlibm's SET_FLOAT_WORD(y, i + (k << 23)))."""
    bits = (y.view(np.uint32).astype(np.int64) + (k << 23)) & 0xFFFFFFFF
    return bits.astype(np.uint32).view(_F)
