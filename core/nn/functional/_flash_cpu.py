"""float32 and float64 ``scaled_dot_product_attention`` as PyTorch's CPU flash kernel computes it, bit for bit.

PyTorch (``aten/src/ATen/native/cpu/FlashAttentionKernel.cpp``) runs 4-D float attention without dropout through
a blocked kernel, not through ``softmax(Q K^T * scale) V``; the two differ in the last bit of ~60% of the outputs.
Per query row, over blocks of 512 keys (``_KV_SPLIT``):

1. ``qk = Q K_blk^T`` (MKL's ``sgemm``, see ``sgemm``), then either ``qk * scale`` (no mask) or ``qk * scale + mask``
   (one fused multiply-add) with ``-inf`` where the causal triangle ends;
2. the block's row max, merged with the running max ``m``; a row whose max is still ``-inf`` (every key so far
   masked) takes exps of 0 and keeps its sum and max;
3. ``e = exp(qk - m)``: ATen's ``exp_u20`` (a degree-5 polynomial, ``exp_u20``) on the whole 16-lane vectors of
   the block's row, a correctly rounded ``exp`` on the rest; their sum in 16 lanes, the lanes combined as a tree,
   the rest added left to right (``_row_sum``);
4. ``c = expf(m_old - m)`` (glibc's); ``sum = fma(c, sum_old, block_sum)``; the accumulator ``acc *= c`` (after
   the first block), then ``acc += e V_blk`` (``sgemm`` with beta 1: the block's product rounded, then added);
5. at the end ``acc * (1 / sum)`` (a row with sum 0, every key masked, divides by 1: zeros), and the
   logsumexp ``m + logf(sum)`` (glibc's) that the backward reads.

float64 takes the same steps with 8-lane vectors, SLEEF's ``expd_u10`` for the vectors (ATen's double ``exp_u20``
is its ``exp``), glibc's ``exp`` and ``log`` for the scalars, and lane sums left to right (``_combine_lanes``).

The GEMMs follow MKL's summation order where it was measured (``sgemm``, ``_lane_kernel``, ``_quad_kernel``, and
for a query block of one row, L = 1 or L = 32k + 1 below 192, or a key block of one key, S = 512k + 1, its sgemv:
``_gemv_rows``, ``_gemv_values``; float64's dgemv: ``_ddot_rows`` and fma chains). Known gaps, where a value can
differ from torch in the last bit: float32 key blocks of two or three keys against up to ~13 query rows, and a
single float32 query row's last two or three keys past a multiple of four, with head dims over 32 (MKL kernels
not reproduced).

The backward (same file) recomputes ``p = exp(scale Q K^T + mask - lse)`` per block with SLEEF's exp
(``Vectorized::exp``) and accumulates ``dV += p^T dO``, ``dS = p * (dO V^T - rowsum(dO * O))``,
``dQ += scale dS K``, ``dK += scale dS^T Q`` block by block (``backward``), each scaled product rounded as MKL
rounds it (alpha on the finished chain, or on an operand while packing it: ``_packs_scaled``). Grouped query heads
(``enable_gqa``) read their shared key/value head; its gradients add up over the group's query heads in order.

Arrays here are NumPy (B, H, L, E) blocks of one dtype; ``core.nn.functional.attention`` decides when this
applies.

This module holds the blocked steps; the vector exps (``exp_u20``, ``expd_u10``) are in ``_flash_exp`` and MKL's
GEMM and GEMV orders (``sgemm``, ``_mkl_products``, the lane and quad kernels) in ``_flash_gemm``, both re-exported
here.
"""

from __future__ import annotations

import math

import numpy as np

from core import _blas_threads as _blas
from core import _cpu, _libm
from core._fused import fma as _fma
from core._glibc import expf as glibc_expf
from core._glibc import logf as glibc_logf
from core._sleef import expf_u10
from core.nn.functional import _flash_zen3
from core.nn.functional._flash_exp import (  # noqa: F401 - re-exported (callers and tests import them from here)
    _EXPD_POLY,
    _L2L_D,
    _L2U_D,
    _R_LN2_D,
    _fma_larger_c,
    _fma_split,
    _split,
    exp_u20,
    expd_u10,
)
from core.nn.functional._flash_gemm import (  # noqa: F401 - _k_parts: re-exported
    _blocked_chain,
    _ddot_rows,
    _gemv_rows,
    _gemv_values,
    _k_parts,
    _lane_dot,
    _lane_kernel,
    _mkl_products,
    _packs_scaled,
    _quad_kernel,
    _quad_lane_dot,
    sgemm,
)

__all__ = ["exp_u20", "expd_u10", "sgemm", "forward", "backward"]

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_KV_SPLIT = 512  # keys per block (every q-block size the kernel chooses pairs with 512)


class _Flavour:
    """What the kernel's steps are for one dtype: the vector width (ATen's ``Vectorized<T>``: 64-byte AVX-512
    registers, 32-byte on an AVX2 CPU), the vector exp, the scalar exp (``std::exp``: glibc's), ``std::log`` and the
    vectorised ``exp`` of the backward."""

    def __init__(self, dtype):
        self.dtype = np.dtype(dtype)
        self.lanes = _cpu.vector_bytes() // self.dtype.itemsize
        if self.dtype == _F32:
            self.vec_exp, self.backward_exp = exp_u20, expf_u10
            self.tail_exp = _float32_exp  # (measured: correctly rounded)
            self.scalar_exp, self.log = glibc_expf, glibc_logf
        else:
            self.vec_exp = self.backward_exp = expd_u10
            self.tail_exp = self.scalar_exp = _libm.exp
            self.log = _libm.log


def _float32_exp(x: np.ndarray) -> np.ndarray:
    return _libm.exp(x.astype(_F64)).astype(_F32)


_FLAVOURS = {}


def _flavour(dtype) -> _Flavour:
    dtype = np.dtype(dtype)
    if dtype not in _FLAVOURS:
        _FLAVOURS[dtype] = _Flavour(dtype)
    return _FLAVOURS[dtype]


def _scores(q: np.ndarray, k_blk: np.ndarray, q_split: int, alpha=None) -> np.ndarray:
    """``alpha (q @ k_blk^T)`` for the whole (B, H, L, E) query at once, each q block of ``q_split`` rows rounded as
    MKL rounds that block's product (the kernel's call: ``gemm(T, N, kv, rows, E, alpha, K, Q)``)."""
    L, kv, head = q.shape[-2], k_blk.shape[-2], q.shape[-1]
    k_t = np.swapaxes(k_blk, -1, -2)
    if L <= q_split and head % 4 == 0:  # (one query block; rows 16 bytes apart as torch's, whatever the layout)
        product = _mkl_products(q, k_t, alpha)
        if product is not None:
            return product
    out = _blocked_chain(q, k_t)  # (one-row and one-key blocks are redone below)
    if alpha is not None:
        out *= alpha
    scaled_k = None
    for m in range(0, L, q_split):
        rows = min(q_split, L - m)
        if _flash_zen3.ACTIVE and q.dtype == _F32 and rows > 1 \
                and (part := _mkl_products(q[..., m:m + rows, :], k_t, alpha)) is not None:
            out[..., m:m + rows, :] = part  # NOTE: on the AMD Zen 3 every block of 2+ rows (_flash_zen3)
            continue
        if q.dtype == _F64 and (kv == 1 or rows == 1):  # MKL's dgemv (one key: over the query rows)
            part = np.swapaxes(_ddot_rows(k_blk, q[..., m:m + rows, :]), -1, -2) if kv == 1 \
                else _ddot_rows(q[..., m:m + 1, :], k_blk)
            out[..., m:m + rows, :] = part if alpha is None else part * alpha
        elif q.dtype == _F32 and kv == 1:  # one key: MKL's sgemv over the block's query rows
            part = np.swapaxes(_gemv_rows(k_blk, q[..., m:m + rows, :]), -1, -2)
            out[..., m:m + rows, :] = part if alpha is None else part * alpha
        elif q.dtype == _F32 and rows == 1:
            part = _gemv_rows(q[..., m:m + 1, :], k_blk)
            out[..., m:m + 1, :] = part if alpha is None else part * alpha
        elif q.dtype == _F32 and (_lane_kernel(rows, kv, head) or _quad_kernel(rows, kv, head)):
            lanes = _lane_dot if _lane_kernel(rows, kv, head) else _quad_lane_dot
            part = lanes(q[..., m:m + rows, :], k_t)
            out[..., m:m + rows, :] = part if alpha is None else part * alpha
        elif alpha is not None and _packs_scaled(kv, rows, head, True):
            if scaled_k is None:
                scaled_k = k_t * alpha
            out[..., m:m + rows, :] = sgemm(q[..., m:m + rows, :], scaled_k)
    return out


def _row_sum(e: np.ndarray, lanes: int) -> np.ndarray:
    """Sums of ``e``'s rows as ``_exp_reduce_sum_fusion_kernel`` adds them: the whole vector-wide chunks into
    ``lanes`` accumulators, the lanes combined as a tree, then the remaining elements one by one."""
    n = e.shape[-1]
    full = n - n % lanes
    if full:
        acc = e[..., :lanes].copy()
        for start in range(lanes, full, lanes):
            acc += e[..., start:start + lanes]
        total = _combine_lanes(acc)
    else:
        total = np.zeros(e.shape[:-1], e.dtype)
    for i in range(full, n):
        total = total + e[..., i]
    return total


def _block_exp(s: np.ndarray, kind: _Flavour) -> np.ndarray:
    """``exp`` of a block's shifted scores: the vector exp (``exp_u20``) on the whole vectors of each row, the
    scalar one on the rest (float32: correctly rounded, measured)."""
    n = s.shape[-1]
    full = n - n % kind.lanes
    e = np.empty_like(s)
    if full:
        e[..., :full] = kind.vec_exp(s[..., :full])
    if full < n:
        e[..., full:] = kind.tail_exp(s[..., full:])
    return e


def _values_product(e: np.ndarray, v_blk: np.ndarray, acc, q_split: int, kv_split: int) -> np.ndarray:
    """``acc + e @ v_blk`` with every query block's rounding: a last block of a single row is MKL's sgemv (on the
    AMD Zen 3 its remainder kernel, into the kernel's buffer: ``_flash_zen3``)."""
    if _flash_zen3.ACTIVE and e.dtype == _F32:
        return _flash_zen3.values_product(e, v_blk, acc, q_split, kv_split, sgemm)
    L = e.shape[-2]
    if L == 1 or L % q_split != 1 or e.dtype != _F32:
        return sgemm(e, v_blk, acc)
    last = _gemv_values(e[..., -1:, :], v_blk, None if acc is None else acc[..., -1:, :])
    out = sgemm(e[..., :-1, :], v_blk, None if acc is None else acc[..., :-1, :])
    return np.concatenate([out, last], -2)


def q_split_size(L: int) -> int:
    """The kernel's query block: 256 rows from 768 on, 64 from 192, else 32."""
    return 256 if L >= 768 else 64 if L >= 192 else 32


def kernel_scale(head: int, scale, dtype=_F32):
    """``sdp::calculate_scale``: ``1 / sqrt(E)`` (or ``scale``) in double, rounded to the accumulation dtype."""
    return np.dtype(dtype).type(1 / math.sqrt(head) if scale is None else scale)


def _causal_allowed(L: int, start: int, stop: int) -> np.ndarray:
    return np.arange(L)[:, None] >= np.arange(start, stop)[None, :]


def forward(q, k, v, mask, causal: bool, scale):
    """``(out, lse)`` of float32 or float64 (B, H, L, E), (B, H, S, E), (B, H, S, E) arrays; ``mask`` None or an
    additive mask of their dtype broadcastable to (B, H, L, S) (``-inf`` where forbidden).

    NOTE: NumPy's BLAS runs single-threaded here (``core._blas_threads``): its products are many small ones,
    whose worker threads' synchronisation cost more than they saved on a shared machine (the bits are the same)."""
    with _blas.single_threaded():
        return _forward(q, k, v, mask, causal, scale)


def _forward(q, k, v, mask, causal: bool, scale):
    B, H, L, E = q.shape
    S = k.shape[-2]
    if k.shape[1] != H:  # grouped query heads: query head h reads key/value head h // (H / H_kv)
        k, v = np.repeat(k, H // k.shape[1], 1), np.repeat(v, H // v.shape[1], 1)
    kind = _flavour(q.dtype)
    zero, minus_inf = kind.dtype.type(0), kind.dtype.type(-np.inf)
    sc = kernel_scale(E, scale, kind.dtype)
    q_split = q_split_size(L)
    row_max = np.full((B, H, L), minus_inf)
    row_sum = np.zeros((B, H, L), kind.dtype)
    acc = None
    for n in range(0, S, _KV_SPLIT):
        stop = min(S, n + _KV_SPLIT)
        qk = _scores(q, k[..., n:stop, :], q_split)
        if mask is not None:
            qk = _fma(np, qk, sc, np.broadcast_to(mask[..., n:stop], qk.shape))
        else:
            qk *= sc
        if causal:
            qk = np.where(_causal_allowed(L, n, stop), qk, minus_inf)
        new_max = np.maximum(qk.max(-1), row_max)
        dead = new_max == -np.inf
        shift = np.where(dead, zero, new_max)
        with np.errstate(invalid="ignore"):
            e = _block_exp(qk - shift[..., None], kind)
        block_sum = _row_sum(e, kind.lanes)
        with np.errstate(invalid="ignore"):
            carry = kind.scalar_exp(row_max - shift)
        if dead.any():
            e[dead] = 0
        row_sum = np.where(dead, row_sum, _fma(np, carry, row_sum, block_sum))
        row_max = np.where(dead, row_max, new_max)
        if acc is not None:
            acc = np.where(dead[..., None], acc, acc * carry[..., None])
        acc = _values_product(e, v[..., n:stop, :], acc, q_split, min(S, _KV_SPLIT))
    if acc is None:
        acc = np.zeros((B, H, L, v.shape[-1]), kind.dtype)
    row_max = np.where(row_max == -np.inf, zero, row_max)
    row_sum = np.where(row_sum == 0, kind.dtype.type(1), row_sum)
    out = acc * (kind.dtype.type(1) / row_sum)[..., None]
    lse = row_max + kind.log(row_sum)  # std::log: the C library's
    return out, lse


def backward(grad_out, q, k, v, out, lse, mask, causal: bool, scale):
    """``(dq, dk, dv)`` of ``forward``'s arrays as PyTorch's flash backward computes them: for each block of
    queries and keys, ``p = exp(scale q k^T + mask - lse)`` (SLEEF's ``expf_u10``), ``dv += p^T dO``,
    ``ds = p * (dO v^T - rowsum(dO * O))``, ``dq += scale ds k``, ``dk += scale ds^T q``; each product an MKL
    ``sgemm`` (alpha on the finished chain, or on an operand while packing it: ``_packs_scaled``).

    NOTE: this follows MKL on one thread, as torch's kernel runs it inside its parallel loop over batch x heads;
    with a single batch x head torch calls MKL outside that loop, on all its threads, where MKL may choose other
    kernels for the larger products."""
    with _blas.single_threaded():
        return _backward(grad_out, q, k, v, out, lse, mask, causal, scale)


def _backward(grad_out, q, k, v, out, lse, mask, causal: bool, scale):
    """The gradients; with grouped query heads (``G`` query heads a key/value head) each key/value head's
    gradients accumulate over its query heads in order, each query head's blocks in turn (measured)."""
    B, H, L, E = q.shape
    Hk, S = k.shape[1], k.shape[-2]
    G = H // Hk
    dsum = _dot_rows(grad_out, out, _flavour(q.dtype).lanes)
    if mask is not None:
        mask = np.broadcast_to(mask, (B, H, L, S))  # (its query rows are sliced by block below)
    dq = np.zeros_like(q)
    dk = np.zeros_like(k)
    dv = np.zeros_like(v)

    def group(a, g):  # query head g of every group: (B, Hk, ...)
        return a.reshape(B, Hk, G, *a.shape[2:])[:, :, g]

    for g in range(G):
        grads = _head_backward(group(grad_out, g), group(q, g), k, v, group(lse, g),
                               None if mask is None else group(mask, g), group(dsum, g), causal, scale, dk, dv,
                               (g, G))
        group(dq, g)[...] = grads
    return dq, dk, dv


def _head_backward(grad_out, q, k, v, lse, mask, dsum, causal: bool, scale, dk, dv, group=(0, 1)):
    """``dq`` of one query head per key/value head (query head ``g`` of each group of ``G``: ``group``), adding its
    ``dk`` and ``dv`` contributions into those."""
    B, H, L, E = q.shape
    g, G = group
    S = k.shape[-2]
    kind = _flavour(q.dtype)
    sc = kernel_scale(E, scale, kind.dtype)
    q_split = q_split_size(L)
    dq = np.zeros_like(q)
    for m in range(0, L, q_split):
        rows = slice(m, min(L, m + q_split))
        q_blk, g_blk = q[..., rows, :], grad_out[..., rows, :]
        for n in range(0, S, _KV_SPLIT):
            stop = min(S, n + _KV_SPLIT)
            k_blk, v_blk = k[..., n:stop, :], v[..., n:stop, :]
            attn = _scores(q_blk, k_blk, q_split, sc)
            if mask is not None:
                attn = attn + np.broadcast_to(mask[..., rows, n:stop], attn.shape)
            with np.errstate(invalid="ignore", over="ignore"):
                p = kind.backward_exp(np.ascontiguousarray(attn - lse[..., rows, None]))
            if causal:
                p = np.where(_causal_allowed(L, n, stop)[rows], p, kind.dtype.type(0))
            kv_rows = _gradient_layout(B, H, S, n, E, np.arange(H))  # (grad_k and grad_v: (B, S, H_kv, E))
            dv[..., n:stop, :] = sgemm(np.swapaxes(p, -1, -2), g_blk, dv[..., n:stop, :], layout=kv_rows)
            ds = p * (_scores(g_blk, v_blk, q_split) - dsum[..., rows, None])
            # gemm(N, N, E, rows, kv, scale, K, dS) and gemm(N, T, E, kv, rows, scale, Q, dS)
            q_rows = _gradient_layout(B, H * G, L, m, E, np.arange(H) * G + g)  # (torch's grad_q: (B, L, H, E))
            if _packs_scaled(E, ds.shape[-2], ds.shape[-1], False):
                dq[..., rows, :] = sgemm(ds, k_blk * sc, dq[..., rows, :], layout=q_rows)
            else:
                dq[..., rows, :] = sgemm(ds, k_blk, dq[..., rows, :], sc, q_rows)
            if _packs_scaled(E, ds.shape[-1], ds.shape[-2], False):
                dk[..., n:stop, :] = sgemm(np.swapaxes(ds, -1, -2), q_blk * sc, dk[..., n:stop, :], layout=kv_rows)
            else:
                dk[..., n:stop, :] = sgemm(np.swapaxes(ds, -1, -2), q_blk, dk[..., n:stop, :], sc, kv_rows)
    return dq


def _gradient_layout(batch: int, heads: int, seq: int, start: int, head_dim: int, head_index: np.ndarray):
    """``(bases, ldc)`` of the rows ``start..`` of each (batch, head) matrix in a gradient that torch's flash backward
    lays out (B, seq, heads, E) (measured: the Zen 3 remainder kernel's peeled columns follow those addresses),
    for ``_flash_zen3.remainder_stack``: where each matrix starts, in floats, and its row stride."""
    b = np.arange(batch)[:, None]
    return ((b * seq + start) * heads + head_index[None, :]) * head_dim, heads * head_dim


def _dot_rows(a: np.ndarray, b: np.ndarray, lanes: int) -> np.ndarray:
    """Row sums of ``a * b`` as ``vec::map2_reduce_all`` adds them: vector-wide chunks into ``lanes``
    accumulators (the last partial chunk into the first lanes), the lanes as a tree; a row shorter than a vector
    left to right."""
    p = a * b
    n = p.shape[-1]
    if n < lanes:
        total = p[..., 0].copy()
        for i in range(1, n):
            total += p[..., i]
        return total
    acc = p[..., :lanes].copy()
    full = n - n % lanes
    for start in range(lanes, full, lanes):
        acc += p[..., start:start + lanes]
    if full < n:
        acc[..., :n - full] += p[..., full:]
    return _combine_lanes(acc)


def _combine_lanes(acc: np.ndarray) -> np.ndarray:
    """``vec_reduce_all``'s sum of a vector's lanes: float32's AVX-512 specialisation as a tree (lane i with
    i + 8, + 4, + 2, + 1); float64's generic loop left to right."""
    if acc.dtype != _F32:
        total = acc[..., 0].copy()
        for i in range(1, acc.shape[-1]):
            total += acc[..., i]
        return total
    half = acc.shape[-1] // 2
    while half:
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return acc[..., 0]
