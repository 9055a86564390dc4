"""PyTorch's float32 ``sqrt`` as MKL's vector math computes it on an AMD CPU: the same steps in NumPy, bit for bit.

torch 2.13's float32 ``sqrt`` (any size from one element, any layout, in place or not: ATen's ``vml::vsqrt``)
is MKL's ``vmsSqrt`` with ``VML_HA``, whose kernel MKL picks by CPU. Where ``core._cpu.mkl_vml_sse_sqrt()``
holds (an AMD CPU of the Zen 4 kind) MKL runs its SSE kernel (``mkl_vml_kernel_sSqrt_EXHAynn`` in
libtorch_cpu, read with objdump and checked by calling it): for x in [2^-126, 0x7f7ff000 as bits]

    r = rsqrtps(x)                    # the CPU's 12-bit estimate of 1/sqrt(x)
    y = x * r;  h = r * 0.5
    e = 0.5 - y * h
    y = y * e + y;  h = h * e + h
    sqrt = (x - y * y) * h + y

each step rounded to float32 (no fused multiply-adds), so about 17% of the results are one ulp from the correctly
rounded root (at most 0.75 ulp from the exact value); zero, subnormals, negatives, inf, NaN and the largest floats
take MKL's scalar path, which is correctly rounded (NumPy's ``sqrt``). Measured against torch 2.13 on an AMD EPYC
Zen 4 (2026-12-06): every float32 in [1, 4) and in [2^-126, 2^-124) and samples of all positive floats match.

``rsqrtps`` is not specified to the bit, each CPU design has its own table; AMD Zen 4's depends on the exponent's
parity and the top 12 mantissa bits only and has 12 mantissa bits. ``_RSQRTPS`` holds its 8192 results for x in
[1, 4), packed (``tools/gen_rsqrtps_table.py`` measures them and prints the string; they were checked against the
instruction on every positive normal float32, scaled by 2^-k for x = 4^k x0).
"""

from __future__ import annotations

import base64
import functools
import zlib

import numpy as np

from core import _cpu

__all__ = ["vsqrt", "sqrt"]

# tools/gen_rsqrtps_table.py on an AMD EPYC Zen 4: the first mantissa of rsqrtps over [1, 2) and over [2, 4), then
# each half's successive drops, compressed
_FIRST = (4095, 1696)
_RSQRTPS = (
    "eNrdlgkOwzAIBBf+/+hKvRx8UQrGbptGZLKDI1mRAtH9h0chpjkT+Xxy+l5GJ7/e44n7Sb67wp6jXKNhVvLVjGC/n4udEcxKvpoR7Nc5F7r+h2z1"
    "dzM0v5jdujrH4n61Pq/l/nzPCPaj846PpkyYjX42w+qTPEhhHJa7ffzXgW/7qv2og1Fu9bNz1bc0d5ic/bv5jfV2DBhGP3q9aB/izuv9KJyd7/CN"
    "LS7Ofp7OMvPW09bT+02DNSs5ggd5BPtNLkbi8oUYMRt9K2Nx/yh/FTaOnnzwKGxj8UW8hlNGcJ7t48/GWVhzZZDw5l4/ur/hzWMokvsnfmccXJ9n"
    "+21/4KzyAxVoX3w5F84ZRt/aj+T1cNh6Xt+8XuDav8h1hsXPRnJ/tJ+9XnTe+s/rwanl2f5p/ac/Tztv4CUP/w==")

_U32 = np.uint32
_F32 = np.dtype(np.float32)
_HALF = np.array(0.5, np.float32)  # (a 0-d array: the fastest scalar operand of an in-place ufunc)
_LOW, _TOP = 0x00800000, 0x7F7FF000  # MKL's vector steps take x whose bits lie in [_LOW, _TOP]
# x's bits >> 11 (its exponent and top 12 mantissa bits) in [_KEY_LOW, _KEY_TOP]: every x of the key takes the
# vector steps (the key of _TOP holds larger x too)
_KEY_LOW, _KEY_TOP = _LOW >> 11, (_TOP >> 11) - 1
_BLOCK = 16384  # elements per step: the temporaries stay in cache
_ON = _cpu.mkl_vml_sse_sqrt()


@functools.cache
def _table() -> np.ndarray:
    """rsqrtps of every positive float32 whose bits >> 11 are the index (float32; 4 MiB, built on first use): the
    8192 results over [1, 4) scaled by 2^-k for x = 4^k x0. Keys outside the vector steps' range hold garbage."""
    drops = np.frombuffer(zlib.decompress(base64.b64decode(_RSQRTPS)), np.uint8).astype(np.int64)
    low = _FIRST[0] - np.concatenate([[0], np.cumsum(drops[:4095])])   # x in [1, 2)
    high = _FIRST[1] - np.concatenate([[0], np.cumsum(drops[4095:])])  # x in [2, 4)
    cells = (126 << 23) + (np.concatenate([low, high]) << 11)         # the estimate's exponent is -1 there
    key = np.arange(1 << 20, dtype=np.int64)
    exponent = (key >> 12) - 127                                       # x = 2^exponent * 1.m
    bits = cells[(exponent & 1) << 12 | (key & 0xFFF)] - ((exponent >> 1) << 23)
    return np.where((key >= _KEY_LOW) & (key <= _TOP >> 11), bits, 0).astype(_U32).view(np.float32)


def _steps(x: np.ndarray, r: np.ndarray, out: np.ndarray) -> None:
    """MKL's vector steps (module docstring) on float32 ``x`` and its estimates ``r`` (overwritten) into ``out``."""
    y = x * r
    r *= _HALF                 # h
    e = y * r
    np.subtract(_HALF, e, out=e)
    t = y * e
    y += t                     # y1 = y * e + y
    np.multiply(r, e, out=t)
    r += t                     # h1 = h * e + h
    np.multiply(y, y, out=t)
    np.subtract(x, t, out=t)   # x - y1 * y1
    t *= r
    np.add(t, y, out=out)


def vsqrt(x: np.ndarray) -> np.ndarray:
    """MKL's float32 vector sqrt of a float32 NumPy array (the module docstring's steps; NumPy's ``sqrt`` outside
    their range), C-ordered."""
    flat = np.ascontiguousarray(x).reshape(-1)
    out = np.empty(flat.size, _F32)
    table = _table()
    for i in range(0, flat.size, _BLOCK):
        xs, os = flat[i:i + _BLOCK], out[i:i + _BLOCK]
        key = np.right_shift(xs.view(_U32), 11)
        if key.min() >= _KEY_LOW and key.max() <= _KEY_TOP:
            _steps(xs, table.take(key), os)
            continue
        with np.errstate(all="ignore"):
            _steps(xs, table.take(key, mode="clip"), os)
        off = (xs.view(_U32) - _U32(_LOW)) > _U32(_TOP - _LOW)
        os[off] = np.sqrt(xs[off])
    return out.reshape(x.shape)


def sqrt(xp, x):
    """torch's float32 ``sqrt`` of a backend array: MKL's steps where ``core._cpu.mkl_vml_sse_sqrt()`` holds and ``x``
    is a float32 NumPy array, else ``xp.sqrt``."""
    if _ON and x.dtype is _F32 and type(x) is np.ndarray:
        return vsqrt(x)
    return xp.sqrt(x)
