"""PyTorch's float32 ``atan`` on AMD Zen 4 as MKL's vector math computes it: the same steps in NumPy, bit for bit.

torch 2.13's float32 ``atan`` (any size, any layout: ATen's ``vml::vatan``) is MKL's ``vmsAtan`` with ``VML_HA``; on an
AMD CPU its SSE kernel ``mkl_vml_kernel_sAtan_EXHAynn`` (libtorch_cpu, read with objdump, checked by calling it
through ctypes), which is not correctly rounded: 6.3% of its results for x in [-10, 10] differ from the correctly
rounded ones core computes elsewhere. With ``a = |x|`` it picks c in {0, 1/2, 1, 2, inf} by a's bits (a < 0.375,
< 0.72, < 1.75, <= 2.6875, beyond) and computes atan(a) = atan(c) + atan((a - c) / (1 + c a)) (beyond:
pi/2 + atan(-1/a)), atan(c) in two float32 parts (the kernel's bit patterns)::

    y = rcpps(den)                          # the CPU's 12-bit estimate of 1/den, in float64 from here
    e = 1 - den * y;  q = num * ((e * e + 1) * (e * y + y))           # num / den to ~2^-48
    h = float32(q with its low 29 bits cleared);  l = float32(q - that)
    atan = ((h r^2 (B1 r^4 + B0) r^2 ...) + (atan_lo(c) + l)) + h) + atan_hi(c)    # float32, r = h (``_steps``)

with x's sign; |x| < 2^-125 gives x, |x| >= 2^123 and inf give +-pi/2 rounded, NaN NaN. ``rcpps`` is not specified to
the bit: on Zen 4 it depends on the top 12 mantissa bits only (12-bit results, 0 from 2^126 on); ``_RCPPS`` holds its
4096 results for [1, 2), packed (the first mantissa, then the zlib-compressed, base64-encoded successive drops;
measured with ``_mm_rcp_ps`` on every float of [1, 2) and checked on every 97th positive float), so the steps are
taken where ``core._cpu.mkl_vml_sse_sqrt()`` holds (AMD Zen 4, as the rsqrtps-based sqrt). Measured against torch
2.13 on an AMD EPYC Zen 4 (2026-12-06): bit for bit on every float32 with |x| <= 16, random bit patterns, inf, NaN.
Cost (CPU time): 10^6 float32 ~16 ms (the correctly rounded float64 route ~2 ms).
"""

from __future__ import annotations

import base64
import functools
import zlib

import numpy as np

from core import _cpu, _mkl_vml
from core._precise import precise

__all__ = ["vatan", "atan"]

_U32, _I32, _F32 = np.uint32, np.int32, np.dtype(np.float32)
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_ZEN4 = _cpu.mkl_vml_sse_sqrt()
_RCP_FIRST = 4094  # the 12-bit mantissa of rcpps(1)
_RCPPS = (
    "eNrNkgsOAiEMRKfF+5/ZGHaVj9KddFBZAnm8KRCybl5bnW/ec/G19yBfgjw7m5gfU9tLwE76LJuYMZ9n5q+vkOykZ9lIz/K5cPaRS+CzbKTPMu"
    "bznqn6MHvZxJ5lzP4Idem2bOnVDLFHXN+1d2srH+UtmWcbJFUY7ovLeTVjv8ew1rEHPqo3cT3I+jiPfiAZm+tZz+fPJ0GzvI8hzrN+zqPvf85I"
    "+onRvko8O5nfvR9096nDwBYwvuwhrj9+mfbfkTJ+vB+u+Y/bsD6bV9dHfAcSQg//")


def _f32(bits: int) -> np.ndarray:
    return np.array(bits, _U32).view(np.float32)


# the regions' upper ends by |x|'s bits (the kernel's contiguous ranges: 0.375, 0.72, 1.75, 2.6875): c = 0, 1/2, 1, 2
_EDGES = (_U32(0x3EBFFFFF), _U32(0x3F3851EB), _U32(0x3FDFFFFF), _U32(0x402C0000))
_NUM_SCALE = np.array([1, 1, 1, 1, 0], np.float32)
_NUM_SHIFT = np.array([0, -0.5, -1, -2, -1], np.float32)
_DEN_SCALE = np.array([0, 0.5, 1, 2, 1], np.float32)
_DEN_SHIFT = np.array([1, 1, 1, 1, 0], np.float32)
_HEAD = np.array([0, 0x3EED6338, 0x3F490FD8, 0x3F8DB710, 0x3FC90FD8], np.uint32).view(np.float32)  # atan(c)
_TAIL = np.array([0, 0x31AC3768, 0x34288858, 0xB4DA2880, 0x34A88858], np.uint32).view(np.float32)  # its rest
_B3, _B2, _B1, _B0 = _f32(0x3DAE1329), _f32(0x3E4CAA3B), _f32(0xBE0F4E4E), _f32(0xBEAAAA6C)  # the kernel's
_HALF_PI = _f32(0x3FC90FDB)


@functools.cache
def _rcp_table() -> np.ndarray:
    """rcpps of 1.m for each top-12-bit mantissa key (uint32 bits, exponent -1)."""
    drops = np.frombuffer(zlib.decompress(base64.b64decode(_RCPPS)), np.uint8).astype(np.int64)
    mantissas = _RCP_FIRST - np.concatenate([[0], np.cumsum(drops)])
    return ((126 << 23) | (mantissas << 11)).astype(_U32)


def _rcpps(v: np.ndarray) -> np.ndarray:
    """Zen 4's rcpps of positive normal float32 ``v`` (0 from 2^126 on), as float64."""
    bits = v.view(_U32)
    r = _rcp_table().take((bits >> _U32(11)) & _U32(0xFFF)).view(_I32)
    r -= ((bits >> _U32(23)).astype(_I32) - 127) << 23
    r[bits >= _U32(0x7E800000)] = 0
    return r.view(np.float32).astype(np.float64)


def _steps(x: np.ndarray, out: np.ndarray) -> None:
    """MKL's SSE atan (module docstring) of a float32 block into ``out``."""
    ab = x.view(_U32) & _U32(0x7FFFFFFF)
    a = ab.view(np.float32)
    k = (ab > _EDGES[0]).view(np.uint8)            # the region: c = 0, 1/2, 1, 2, or beyond (index 4)
    for edge in _EDGES[1:]:
        k += (ab > edge).view(np.uint8)
    num = a * _NUM_SCALE.take(k)                   # a - c (beyond: -1), den = c a + 1 (beyond: a), exact as MKL's
    num += _NUM_SHIFT.take(k)
    den = a * _DEN_SCALE.take(k)
    den += _DEN_SHIFT.take(k)
    head, tail = _HEAD.take(k), _TAIL.take(k)
    y = _rcpps(den)
    e = 1 - den.astype(np.float64) * y
    q = (e * e + 1) * (e * y + y) * num.astype(np.float64)
    cut = (q.view(np.uint64) & np.uint64(0xFFFFFFFFE0000000)).view(np.float64)
    h = cut.astype(np.float32)
    lo = tail + (q - cut).astype(np.float32)
    r2 = h * h
    r4 = r2 * r2
    p = (r4 * _B3 + _B2) * r2 + (r4 * _B1 + _B0)
    p *= r2
    p *= h
    res = ((p + lo) + h) + head
    np.bitwise_or(res.view(_U32), x.view(_U32) & _U32(0x80000000), out=out.view(_U32))
    rare = (ab - _U32(0x01000000)) >= _U32(0x7C000000)   # |x| < 2^-125, |x| >= 2^123, inf, NaN
    if rare.any():
        xr = x[rare]
        out[rare] = np.where(np.abs(xr) < 1, xr, np.copysign(_HALF_PI, xr))
        out[rare & np.isnan(x)] = np.nan


def vatan(x: np.ndarray) -> np.ndarray:
    """MKL's float32 SSE vector atan on AMD Zen 4 of a float32 NumPy array (module docstring), C-ordered."""
    with np.errstate(all="ignore"):
        return _mkl_vml.blockwise(x, _steps, block=_BLOCK)


def atan(xp, x):
    """torch's ``atan`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse_sqrt()`` holds (AMD Zen 4) and
    ``x`` is a float32 NumPy array, else ``core._precise``'s correctly rounded one."""
    if _ZEN4 and x.dtype is _F32 and type(x) is np.ndarray:
        return vatan(x)
    return precise(xp.arctan, x)
