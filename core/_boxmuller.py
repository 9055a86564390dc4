"""PyTorch's Box-Muller over blocks of 16 uniforms (``normal_fill_16``), bit for bit, on arrays.

``normal_`` on a contiguous tensor of 16 or more elements first fills it with uniforms, then turns
each block of 16 into normals: the first 8 give the radius (``sqrt(-2 log(1 - u))``), the last 8
the angle (``2 pi u``); cosines land in the first half, sines in the second.

float32 blocks go through PyTorch's AVX2 kernel (x86-64 CPUs with AVX2 or AVX-512): Cephes-style
``log256_ps`` and ``sincos256_ps`` from ``avx_mathfun.h``, compiled with fused multiply-adds.
``_log_ps`` and ``_sincos_ps`` redo those steps in float32 NumPy; a fused multiply-add is exact
in float64 (a float32 product fits in a double), rounded once to float32. float64 blocks use the
C library's ``log``, ``cos`` and ``sin`` and an exact ``fma``.
"""

from __future__ import annotations

import math

import numpy as np

from core import _libm

__all__ = ["blocks_f32", "blocks_f64", "fma64"]

_F = np.float32
_D = np.float64
_LOG_P = tuple(_F(c) for c in (7.0376836292e-2, -1.1514610310e-1, 1.1676998740e-1, -1.2420140846e-1,
                               1.4249322787e-1, -1.6668057665e-1, 2.0000714765e-1, -2.4999993993e-1,
                               3.3333331174e-1))
_SQRTHF = _F(0.707106781186547524)
_LOG_Q1, _LOG_Q2 = _F(-2.12194440e-4), _F(0.693359375)
_FOPI = _F(1.27323954473516)
_DP = (_F(-0.78515625), _F(-2.4187564849853515625e-4), _F(-3.77489497744594108e-8))
_COS_P = (_F(2.443315711809948e-005), _F(-1.388731625493765e-003), _F(4.166664568298827e-002))
_SIN_P = (_F(-1.9515295891e-4), _F(8.3321608736e-3), _F(-1.6666654611e-1))
_TWO_PI_F = _F(2.0 * math.pi)


_CHUNK = 2048  # blocks per pass: a chunk's work arrays (16384 values each) stay in cache


class _Work:
    """One chunk's work arrays, allocated once per ``blocks_f32`` call and reused for every chunk.

    NOTE: a hot path (``nn.Embedding(50000, 300)``'s init is 15M normals). Every step writes into these with
    ``out=``; each fused multiply-add is two NumPy calls (the exact float64 product, then the float64 sum stored
    straight into float32: one rounding of the exact double product plus ``c``), and a float32 operand
    used by several steps is widened to float64 once. The operations and their order are those of
    ``avx_mathfun.h``, so the bits are too (``tests/core/test_boxmuller_f32.py`` checks every float32 uniform).
    """

    def __init__(self, m: int):
        self.x64, self.z64 = np.empty(m, _D), np.empty(m, _D)
        self.t = np.empty(2 * m, _D)
        self.a, self.x, self.y, self.z, self.e, self.c, self.s = (np.empty(m, _F) for _ in range(7))
        self.j, self.k = np.empty(m, np.int32), np.empty(m, np.int32)
        self.small = np.empty(m, bool)

    def fma(self, a, b, c, out):
        """``out = a * b + c`` rounded once to float32 (the product taken in float64, where it is exact)."""
        t = self.t[:out.size].reshape(out.shape)
        if a.dtype == _D:
            np.multiply(a, b, out=t)
        else:
            np.copyto(t, a)  # (a cast, then a float64 multiply: faster than np.multiply's dtype=)
            t *= b
        np.add(t, c, out=out, casting="unsafe")
        return out

    def horner(self, coefs, x64, out):
        """``out = (...(c0 * x + c1) * x + ...) + cn``, each step a float32 fused multiply-add."""
        t = self.t[:out.size]
        np.multiply(x64, coefs[0], out=t)
        np.add(t, coefs[1], out=out, casting="unsafe")
        for p in coefs[2:]:
            np.copyto(t, out)
            t *= x64
            np.add(t, p, out=out, casting="unsafe")
        return out


def _log_ps(w: _Work, m: int):
    """``log256_ps`` of ``w.a[:m]`` (positive float32: the uniforms' ``1 - u`` lie in (0, 1]), into ``w.y``."""
    bits = w.a[:m].view(np.int32)
    j, k, e, x, y, z, c = w.j[:m], w.k[:m], w.e[:m], w.x[:m], w.y[:m], w.z[:m], w.c[:m]
    np.right_shift(bits, 23, out=j)
    j -= 126
    e[...] = j
    np.bitwise_and(bits, ~0x7F800000, out=k)
    k |= 0x3F000000
    mant = k.view(_F)  # mantissa scaled into [0.5, 1)
    small = np.less(mant, _SQRTHF, out=w.small[:m])
    e -= small
    np.multiply(mant, small, out=y)
    np.subtract(mant, _F(1), out=x)
    x += y  # x - 1 + x where small (NOTE: not np.add's where=, which is twenty times slower)
    np.multiply(x, x, out=z)
    x64 = w.x64[:m]
    x64[...] = x
    w.horner(_LOG_P, x64, y)
    y *= x
    np.multiply(e, _LOG_Q1, out=c)
    w.fma(y, z, c, y)
    z *= _F(0.5)
    y -= z
    y += x
    # the last fused multiply-add's product e * _LOG_Q2 is exact in float32 (a small integer times a 9-bit
    # constant), so it is a plain float32 add
    np.multiply(e, _LOG_Q2, out=z)
    y += z
    return y


def _sincos_ps(w: _Work, m: int):
    """``sincos256_ps`` of ``w.x[:m]`` (non-negative float32: angles in [0, 2 pi)): (sin, cos) in ``w.c``, ``w.s``."""
    x, y, z, c, s, j, k = w.x[:m], w.y[:m], w.z[:m], w.c[:m], w.s[:m], w.j[:m], w.k[:m]
    np.multiply(x, _FOPI, out=y)
    np.copyto(j, y, casting="unsafe")  # truncation, as _mm256_cvttps_epi32
    j += 1
    j &= ~1
    # x - j * pi/4 in three fused multiply-adds; j is an even integer up to 8, so the first two products (of 8-
    # and 11-bit constants) are exact in float32 and those steps are plain float32 adds
    np.copyto(y, j, casting="unsafe")
    for dp in _DP[:2]:
        np.multiply(y, dp, out=z)
        x += z
    y64 = w.x64[:m]
    y64[...] = j
    w.fma(y64, _DP[2], x, x)
    np.multiply(x, x, out=z)
    z64 = w.z64[:m]
    z64[...] = z
    w.horner(_COS_P, z64, c)
    c *= z
    np.multiply(z, _F(-0.5), out=y)
    w.fma(c, z64, y, c)
    c += _F(1)
    w.horner(_SIN_P, z64, s)
    s *= z
    w.fma(s, x, x, s)
    # select and set signs with bit masks, as the AVX code does (np.where is far slower here)
    np.bitwise_and(j, 2, out=k)
    k >>= 1
    k -= 1  # all ones where sin uses the sine polynomial
    sb, cb, d = s.view(np.int32), c.view(np.int32), y.view(np.int32)
    np.bitwise_xor(sb, cb, out=d)
    d &= k
    cb ^= d  # now the sine's bits: sb where k, else cb
    sb ^= d  # now the cosine's bits: cb where k, else sb
    np.bitwise_and(j, 4, out=k)
    k <<= 29
    cb ^= k
    j -= 2
    np.invert(j, out=j)
    j &= 4
    j <<= 29
    sb ^= j
    return c, s


def blocks_f32(u: np.ndarray, mean: float, std: float, out: np.ndarray | None = None) -> np.ndarray:
    """Normals from float32 uniforms (a multiple of 16 of them), into ``out`` (float32, ``u``'s size) if given."""
    b = u.reshape(-1, 16)
    res = np.empty_like(b) if out is None else out.reshape(-1, 16)
    w = _Work(8 * min(len(b), _CHUNK))
    for i in range(0, len(b), _CHUNK):
        _blocks_f32(w, b[i:i + _CHUNK], mean, std, res[i:i + _CHUNK])
    return res.reshape(-1)


def _blocks_f32(w: _Work, b: np.ndarray, mean: float, std: float, out: np.ndarray) -> None:
    m = b.size // 2
    np.subtract(_F(1), b[:, :8], out=w.a[:m].reshape(-1, 8))
    radius = np.multiply(_log_ps(w, m), _F(-2), out=w.e[:m])  # (_sincos_ps leaves w.e alone)
    np.sqrt(radius, out=radius)
    np.multiply(_TWO_PI_F, b[:, 8:], out=w.x[:m].reshape(-1, 8))
    sin, cos = _sincos_ps(w, m)
    np.multiply(radius.reshape(-1, 8), cos.reshape(-1, 8), out=out[:, :8])
    np.multiply(radius.reshape(-1, 8), sin.reshape(-1, 8), out=out[:, 8:])
    if std != 1 or mean != 0:
        w.fma(out, _F(std), _F(mean), out)


def blocks_f64(u: np.ndarray, mean: float, std: float, out: np.ndarray | None = None) -> np.ndarray:
    """Normals from float64 uniforms (a multiple of 16 of them), into ``out`` (float64, ``u``'s size) if given.

    NOTE: the hot path of float64 ``normal_``: each block's halves are made contiguous first (strided operands
    take NumPy's slower loops), and the radii and results are computed in place."""
    b = u.reshape(-1, 16)
    res = np.empty_like(b) if out is None else out.reshape(-1, 16)
    radius = _libm.log(1.0 - b[:, :8])
    radius *= -2.0
    np.sqrt(radius, out=radius)
    theta = b[:, 8:] * (2.0 * math.pi)
    np.multiply(radius, np.cos(theta), out=res[:, :8])
    np.multiply(radius, np.sin(theta), out=res[:, 8:])
    if std == 1:  # (fma64's a * 1 + c, in place)
        res += mean
    else:
        res[...] = fma64(res, std, mean)
    return res.reshape(-1)


def fma64(a: np.ndarray, b: float, c: float) -> np.ndarray:
    """float64 ``a * b + c`` rounded once (error-free product and sum; exact but for double-rounding ties)."""
    if b == 1:
        return a + c
    p = a * b
    if c == 0:
        return p
    split = 134217729.0 * a
    ah = split - (split - a)
    al = a - ah
    sb = 134217729.0 * b
    bh = sb - (sb - b)
    bl = b - bh
    err = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    bb = s - p
    t = (p - (s - bb)) + (c - bb)
    return s + (t + err)
