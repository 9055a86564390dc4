"""PyTorch's float32 ``asin`` and ``acos`` on AMD Zen 4 as MKL's vector math computes them: the same steps in NumPy.

torch 2.13's float32 ``asin``/``acos`` (any size, any layout: ATen's ``vml::vasin``/``vacos``) are MKL's
``vmsAsin``/``vmsAcos`` with ``VML_HA``; on an AMD CPU its SSE kernels (``mkl_vml_kernel_sAsin_EXHAynn``,
``..._sAcos_EXHAynn`` in libtorch_cpu, read with objdump, checked by calling them through ctypes), which are not
correctly rounded: about 5.6% (asin) and 8.7% (acos) of the results for x in [-1, 1] differ from the correctly rounded
ones core computes elsewhere. All in float32, each step rounded (no fused multiply-adds), with ``a = |x|`` and
``z = (1 - a)/2`` as ``0.5 - a * 0.5``, ``y = min(a^2, z)`` and ``P = (y^2 (A4 y + A3) + (A2 y + A1)) y + A0) y``:

- |x| < 1/2 (asin; acos where ``a^2 < z``): asin = a + a P, acos = pi/2 - (that), signed, with pi/2's rest;
- otherwise sqrt(2 - 2a) = A + B from ``r0``, the CPU's ``rsqrtps`` estimate of 1/sqrt(z) cut to 11 bits (0 for
  z < 2^-32), as ``A = zh r0``, ``B = zl r0`` (2z split at 11 bits), a correction
  ``c = (e K1 + K0) ((A + B) e) - B`` with ``e = ((Ah r0 - 2) + B r0) + Al r0`` (A split at 11 bits), and
  asin = pi/2 - A - ... (``_asin_steps``), acos = A + ... or pi - A - ... (``_acos_steps``).

``rsqrtps`` is not specified to the bit, so the steps are torch's only where core knows the CPU's table: AMD Zen 4
(``core._cpu.mkl_vml_sse_sqrt()``, ``core._mkl_vml._table``); elsewhere core keeps the correctly rounded functions.
The polynomial and correction constants are the kernel's bit patterns. Measured against torch 2.13 on an AMD EPYC
Zen 4 (2026-12-06): bit for bit on every float32 in [-1, 1] (asin and acos), random bit patterns, inf and NaN (NaN
outside [-1, 1]).
"""

from __future__ import annotations

import numpy as np

from core import _cpu, _mkl_vml
from core._mkl_vml import _table as _rsqrtps_table
from core._precise import precise

__all__ = ["vasin", "vacos", "asin", "acos"]

_U32, _F32 = np.uint32, np.dtype(np.float32)
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_ZEN4 = _cpu.mkl_vml_sse_sqrt()


def _f32(bits: int) -> np.ndarray:
    """The float32 with these bits, as a 0-d array (the fastest scalar operand of a ufunc)."""
    return np.array(bits, _U32).view(np.float32)


_HALF, _MINUS_TWO, _TINY = _f32(0x3F000000), _f32(0xC0000000), _f32(0x2F800000)  # 0.5, -2, 2^-32
_CUT11, _CUT10 = _U32(0xFFFFF000), _U32(0xFFFFE000)
_K1, _K0 = _f32(0xBDC00004), _f32(0x3E800001)            # the correction's (kernel's bit patterns)
_A4, _A3, _A2, _A1, _A0 = (_f32(b) for b in (0x3D2EDC07, 0x3CC32A6B, 0x3D3A9AB4, 0x3D997C12, 0x3E2AAAFF))
_HALF_PI, _HALF_PI_LO = _f32(0x3FC90FDB), _f32(0xB33BBD2E)  # pi/2 rounded, and pi/2 - that rounded
_PI, _PI_LO = _f32(0x40490FDB), _f32(0xB3BBBD2E)
_SIGN = _U32(0x80000000)


def _cut(v: np.ndarray, mask: np.uint32) -> np.ndarray:
    return (v.view(_U32) & mask).view(np.float32)


def _mask(cond: np.ndarray) -> np.ndarray:
    """All ones where ``cond``, else zeros (uint32): for branch-free selects (NumPy's masked copies are slow)."""
    m = cond.astype(_U32)
    np.subtract(_U32(0), m, out=m)
    return m


def _select(m: np.ndarray, yes, no: np.ndarray) -> np.ndarray:
    """``yes`` where the mask ``m`` is set, else ``no`` (float32, bitwise)."""
    bits = np.bitwise_xor(np.asarray(yes, np.float32).view(_U32), no.view(_U32))
    bits &= m
    bits ^= no.view(_U32)
    return bits.view(np.float32)


def _common(a: np.ndarray, z: np.ndarray):
    """y, P(y), A, B and the correction c (module docstring) for a = |x| (or -|x|) and z = (1 - |x|)/2."""
    y = np.minimum(a * a, z)
    r0 = _rsqrtps_table().take(z.view(_U32) >> _U32(11), mode="clip")
    if not z.min() >= _TINY:                       # (|x| within 2^-31 of 1, or NaN: no estimate)
        r0[~(z >= _TINY)] = 0
    r0 = _cut(r0, _CUT11)
    z2 = z + z
    zh = _cut(z2, _CUT10)
    big_a, big_b = zh * r0, (z2 - zh) * r0
    ah = _cut(big_a, _CUT10)
    e = ah * r0 + _MINUS_TWO
    e += big_b * r0
    e += (big_a - ah) * r0
    c = (e * _K1 + _K0) * ((big_a + big_b) * e) - big_b
    p = (y * y) * (y * _A4 + _A3) + (y * _A2 + _A1)
    p = (p * y + _A0) * y
    return y, p, big_a, c


def _asin_steps(x: np.ndarray, out: np.ndarray) -> None:
    a = np.abs(x)
    z = _HALF - a * _HALF
    _, p, big_a, c = _common(a, z)
    small = _mask(a < _HALF)
    head = _HALF_PI - big_a
    low = ((_HALF_PI - head) - big_a) + (c + _HALF_PI_LO)
    low.view(_U32)[...] &= ~small
    res = _select(small, a, c - big_a) * p + low
    res += _select(small, a, head)
    if not a.max() <= 1:                           # (|x| > 1 and NaN: MKL's error path)
        res[~(a <= 1)] = np.nan
    np.bitwise_xor(res.view(_U32), x.view(_U32) & _SIGN, out=out.view(_U32))


def _acos_steps(x: np.ndarray, out: np.ndarray) -> None:
    neg = (x.view(_U32) | _SIGN).view(np.float32)  # -|x|
    z = neg * _HALF + _HALF
    y, p, big_a, c = _common(neg, z)
    big = _mask(~(y < z))
    turn = _mask(~(y < x))                         # (with big) x <= -1/2: pi - ...
    turn &= big
    head = (_PI.view(_U32) & turn) | (_HALF_PI.view(_U32) & ~big)
    low = (_PI_LO.view(_U32) & turn) | (_HALF_PI_LO.view(_U32) & ~big)
    sign = x.view(_U32) & _SIGN
    low ^= sign
    c.view(_U32)[...] &= big
    u = _select(big, big_a, neg)
    res = (u - c) * p + (low.view(np.float32) - c)
    res += u
    res.view(_U32)[...] ^= sign
    np.add(res, head.view(np.float32), out=out)
    if not np.abs(x).max() <= 1:
        out[~(np.abs(x) <= 1)] = np.nan


def _blockwise(x: np.ndarray, steps) -> np.ndarray:
    with np.errstate(all="ignore"):
        return _mkl_vml.blockwise(x, steps, block=_BLOCK)


def vasin(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector asin on AMD Zen 4 of a float32 NumPy array (module docstring), C-ordered."""
    return _blockwise(x, _asin_steps)


def vacos(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector acos on AMD Zen 4 of a float32 NumPy array (module docstring), C-ordered."""
    return _blockwise(x, _acos_steps)


def asin(xp, x):
    """torch's ``asin`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse_sqrt()`` holds (AMD Zen 4) and
    ``x`` is a float32 NumPy array, else ``core._precise``'s correctly rounded one."""
    if _ZEN4 and x.dtype is _F32 and type(x) is np.ndarray:
        return vasin(x)
    return precise(xp.arcsin, x)


def acos(xp, x):
    """torch's ``acos`` of a backend array: as ``asin``."""
    if _ZEN4 and x.dtype is _F32 and type(x) is np.ndarray:
        return vacos(x)
    return precise(xp.arccos, x)
