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


def _fma32(a, b, c):
    """float32 ``a * b + c`` with one rounding."""
    t = a.astype(_D)
    t *= b
    t += c
    return t.astype(_F)


def _log_ps(x):
    """``log256_ps`` for positive float32 ``x`` (the uniforms' ``1 - u`` lie in (0, 1])."""
    bits = x.view(np.int32)
    e = ((bits >> 23) - 126).astype(_F)
    x = ((bits & ~0x7F800000) | 0x3F000000).view(_F)  # mantissa scaled into [0.5, 1)
    small = x < _SQRTHF
    e -= small
    x = x - _F(1) + x * small
    z = x * x
    y = np.full_like(x, _LOG_P[0])
    for p in _LOG_P[1:]:
        y = _fma32(y, x, p)
    y = _fma32(y * x, z, e * _LOG_Q1)
    y = y - z * _F(0.5)
    return _fma32(e, _LOG_Q2, x + y)


def _sincos_ps(x):
    """``sincos256_ps`` for non-negative float32 ``x`` (angles in [0, 2 pi))."""
    j = (x * _FOPI).astype(np.int32)
    j = (j + 1) & ~1
    y = j.astype(_F)
    for dp in _DP:
        x = _fma32(y, dp, x)
    z = x * x
    c = _fma32(_fma32(np.full_like(x, _COS_P[0]), z, _COS_P[1]), z, _COS_P[2])
    c = _fma32(c * z, z, -(z * _F(0.5))) + _F(1)
    s = _fma32(_fma32(np.full_like(x, _SIN_P[0]), z, _SIN_P[1]), z, _SIN_P[2])
    s = _fma32(s * z, x, x)
    # select and set signs with bit masks, as the AVX code does (np.where is far slower here)
    poly = -((j & 2) == 0).view(np.int8).astype(np.int32)  # all ones where sin uses the sine polynomial
    sb, cb = s.view(np.int32), c.view(np.int32)
    sin = ((sb & poly) | (cb & ~poly)) ^ ((j & 4) << 29)
    cos = ((cb & poly) | (sb & ~poly)) ^ (~(j - 2) & 4) << 29
    return sin.view(_F), cos.view(_F)


_CHUNK = 4096  # blocks per pass: the temporaries stay in cache


def blocks_f32(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Normals from float32 uniforms (a multiple of 16 of them)."""
    b = u.reshape(-1, 16)
    if len(b) <= _CHUNK:
        return _blocks_f32(b, mean, std).reshape(-1)
    out = np.empty_like(b)
    for i in range(0, len(b), _CHUNK):
        out[i:i + _CHUNK] = _blocks_f32(b[i:i + _CHUNK], mean, std)
    return out.reshape(-1)


def _blocks_f32(b: np.ndarray, mean: float, std: float) -> np.ndarray:
    radius = np.sqrt(_F(-2) * _log_ps(_F(1) - b[:, :8]))
    sin, cos = _sincos_ps(_TWO_PI_F * b[:, 8:])
    out = np.empty_like(b)
    out[:, :8] = radius * cos
    out[:, 8:] = radius * sin
    if std != 1 or mean != 0:
        out = _fma32(out, _F(std), _F(mean))
    return out


def blocks_f64(u: np.ndarray, mean: float, std: float) -> np.ndarray:
    """Normals from float64 uniforms (a multiple of 16 of them)."""
    b = u.reshape(-1, 16)
    radius = np.sqrt(-2.0 * _libm.log(1.0 - b[:, :8]))
    theta = (2.0 * math.pi) * b[:, 8:]
    out = np.empty_like(b)
    out[:, :8] = radius * np.cos(theta)
    out[:, 8:] = radius * np.sin(theta)
    return fma64(out, std, mean).reshape(-1)


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
