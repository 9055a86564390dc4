"""PyTorch's CPU GEMM of bfloat16 matrices, in the order oneDNN adds it on a CPU with AVX512-BF16.

PyTorch hands a bfloat16 ``mm``/``addmm``/``linear`` (and ``bmm``, matrix by matrix) to oneDNN where its bfloat16
device check holds (``core._cpu.onednn_takes_half``). With AVX512-BF16 its kernels accumulate each output in a
float32 lane with ``vdpbf16ps``, which takes the K dimension two values at a time and adds the odd product
before the even one (each sum rounded to float32; the products of two bfloat16 values are exact in float32), K in
blocks of 512 whose float32 sums are added in order; the bias is added to the float32 sum, which is rounded to
bfloat16 once. NumPy's matmul of bfloat16 arrays adds in order of k and differs from it in the last bit of a few
outputs in a thousand (an OLMo 3's feed-forward in bfloat16: 2 of 2,304 outputs).

Measured bit for bit against torch 2.13 on an AMD EPYC Zen 4 (one thread): ``x @ W.T`` with and without a bias,
``g @ W`` and ``g.T @ x`` (the backward's products), ``a @ b`` with ``a`` row- or column-major, stacks through
``bmm``; M 1..300, K 3..4,096, N 4..512 (NumPy's order: 1-10 outputs in 10^4 an ulp off).
"""

from __future__ import annotations

import ml_dtypes
import numpy as np

from core import _cpu

BF16 = np.dtype(ml_dtypes.bfloat16)
_F32 = np.dtype(np.float32)
K_BLOCK = 512  # oneDNN's K block for these products (measured: K of 700, 1,024 and 2,048 match with 512 only)


def takes_bf16_order(a, b) -> bool:
    """Whether ``a @ b`` is a bfloat16 product that oneDNN adds in ``vdpbf16ps``'s order here."""
    return type(a) is np.ndarray and type(b) is np.ndarray and a.dtype is BF16 and b.dtype is BF16 \
        and "avx512_bf16" in _cpu.FLAGS and _cpu.onednn_takes_half("bfloat16")


def _block_sum(a, b):
    """One K block's float32 sums: pairs of k, the odd product added before the even one, an odd K's last
    product added alone."""
    out = np.zeros(a.shape[:-1] + b.shape[-1:], _F32)
    k = a.shape[-1]
    for j in range(0, k - 1, 2):
        out += a[..., :, j + 1, None] * b[..., j + 1, None, :]
        out += a[..., :, j, None] * b[..., j, None, :]
    if k % 2:
        out += a[..., :, k - 1, None] * b[..., k - 1, None, :]
    return out


def gemm_bf16(a, b, c=None):
    """``a @ b`` (+ ``c``, a bias of the result's last dim) for bfloat16 arrays of 2 dims (or stacks whose batch
    dims broadcast), rounded to bfloat16 once, in oneDNN's order (module docstring)."""
    a32, b32 = a.astype(_F32), b.astype(_F32)
    k = a.shape[-1]
    out = None
    for start in range(0, max(k, 1), K_BLOCK):
        part = _block_sum(a32[..., start:start + K_BLOCK], b32[..., start:start + K_BLOCK, :])
        out = part if out is None else out + part
    if c is not None:
        out += c.astype(_F32)
    return out.astype(BF16)
