"""The float32 flash-attention kernel's products as MKL computes them on the AMD Zen 3 (AVX2), where they differ from
the Zen 4's (``core.nn.functional._flash_cpu``): a single query row's scores, and ``acc += e V``.

Measured against torch 2.13 on an AMD EPYC Zen 3, 2026-12-07, one thread, output bit for bit:

- **A one-row score block** (L = 1, and the last block of L = 32k + 1 or 64k + 1): MKL's sgemv as ``torch.mm`` of one
  row by ``K.T`` takes it (``core._small_gemm.mkl_gemm``'s gemv), alpha applied to the finished dots; the Zen 4's
  16-lane kernel (``_flash_cpu._gemv_rows``) matched 6-30% of them here.
- **A score block of 2 or more query rows**, each block as ``torch.mm`` adds it (``_flash_cpu._mkl_products``: the
  dot kernels for ``Q K^T``, the blocked FMA kernel from 4 rows and 12 keys): the Zen 4's 16-lane kernels for few
  keys or rows (``_lane_dot``, ``_quad_lane_dot``) matched 40-97% here (a last block of 2 or 3 rows with head dims of
  16 to 96; 3, 4 or 11 keys).
- **``acc += e V``** of fewer than 4 query rows or a head dim under 12 is MKL's remainder kernel
  (``core._small_gemm_zen3``: the in-order chain from the accumulator, a row's first columns in blocks of 4 when the
  row of C starts off a 16-byte boundary). C is the kernel's per-thread buffer ``dst``, after the score block and
  the running max and sum: ``qSplit kvSplit + 2 qSplit`` floats past its 64-byte-aligned start (qSplit = min(q block,
  L), kvSplit = min(512, S)), so with a head dim of 8 an odd L peels two columns of every row (13-17% of outputs
  differed); so is a key block of one key (S = 512k + 1), each product rounded then added to ``acc``, where the Zen 4
  fuses it (``_flash_cpu.sgemm``'s rank-1 update). Larger blocks keep the blocked FMA kernel (``_flash_cpu.sgemm``).
  On more threads each thread has its own buffer, ``qSplit (kvSplit + 2 + E)`` floats after the last
  (``_dst_phases``).

Measured: (B, H, L, S, E) of (1, 1, 1, 16, 16), (2, 2, 1, 7, 8), (2, 2, 1, 40, 64), (2, 2, 1, 300, 20), (2, 2, 1, 12,
48), (1, 1..3, 5..15, 16, 8), (1, 1, 15, 15, 8), (2, 2, 33, 40, 16), (1, 1, 3, 16, 32), (1, 1, 2, 9, 16), causal or
not; (1, 1..3, 33..66, 3..107, 4..96) with the score blocks above; and (1..2, 1..2, 1..200, 513 or 1025, 8..64),
one and two threads.

The backward (measured 2026-12-08 against ``torch.addmm(c, a, b, alpha=scale)``, the kernel's MKL call, and then the
gradients of (1, 1, 1..70, 1..70, 8..64) and (2, 2, 1..67, 1..40, 12..96), causal or not, bit for bit): a product of
2 or 3 rows with ``b`` untransposed (``dQ += scale dS K`` of a last query block of 2 or 3 rows, ``dK``/``dV`` of a key
block of 2 or 3 keys) is the remainder kernel with alpha on ``a`` (``remainder_stack``), and the scores ``scale Q
K^T`` of 2 or 3 rows take alpha on the finished dots; so is a product of head dims of 5..11 columns. Its C is the
gradient itself, laid out (B, L, H, E) inside the kernel (measured: that layout's row addresses decide the peeled
columns, ``_flash_cpu._gradient_layout``), so a head dim that is not a multiple of 4 peels by those addresses: bit
for bit with one head; with more heads the kernels also follow the operands' addresses (not reproduced; a sweep of
(2, 2, L, S, 6 or 10) went from 160,003 to 38,872 differing gradient elements).
"""

from __future__ import annotations

import numpy as np

from core._small_gemm_zen3 import ACTIVE, remainder_rows

__all__ = ["ACTIVE", "gemv_rows", "remainder_stack", "values_product", "single_row_product"]


def single_row_product(a: np.ndarray, b: np.ndarray, c=None) -> np.ndarray | None:
    """The backward's ``a @ b`` (+ ``c``) of float32 stacks where ``a`` is one row (``dQ += scale dS K`` of a
    one-row query block: MKL's sgemv, alpha already in ``a``) or the inner dim is one (``dK``/``dV`` of such a
    block: a rank-1 update, each product rounded then added to ``c``, not fused as on the Zen 4), as ``torch.mm``
    computes it on the Zen 3; None where not measured (a gemv onto a running sum)."""
    from core._small_gemm import mkl_gemm  # (imported here: core._small_gemm imports the flash kernel's callers)

    if a.shape[-1] == 1:
        product = a * b
        return product if c is None else c + product
    running = c is not None and c.any()
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, lead + a.shape[-2:]), np.broadcast_to(b, lead + b.shape[-2:])
    if running:
        c = np.broadcast_to(c, lead + c.shape[-2:])
    out = np.empty(lead + (1, b.shape[-1]), np.float32)
    for index in np.ndindex(*lead):
        product = remainder_rows(a[index], b[index], c[index]) if running else mkl_gemm(a[index], b[index], nested=True)
        if product is None:
            return None
        out[index] = product
    return out


def remainder_stack(a: np.ndarray, b: np.ndarray, c=None, layout=None) -> np.ndarray:
    """``a @ b`` (+ ``c``, beta 1) of float32 stacks with ``b`` untransposed, as MKL's remainder kernel adds each
    matrix (``remainder_rows``), alpha already in ``a``: the backward's products of 2 or 3 rows (``dQ += scale dS K``
    of a last query block of 2 or 3 rows, ``dK``/``dV`` of a key block of 2 or 3 keys) and of head dims of 5, 6, 7,
    9, 10 or 11 (measured against ``torch.addmm(c, a, b, alpha=scale)``, the kernel's call, for every inner dim 1..70
    and head dims 5..64, from zero and onto a running sum, C at each offset 0..3 floats past a 16-byte boundary).
    ``layout``: ``(bases, ldc)``, where each matrix's C starts (floats, an int array of the stack's lead shape) and
    its row stride in torch's gradient (``_flash_cpu._gradient_layout``); None: fresh, row-major, aligned."""
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, lead + a.shape[-2:]), np.broadcast_to(b, lead + b.shape[-2:])
    if c is not None:
        c = np.broadcast_to(c, lead + c.shape[-2:])
    bases, ldc = (np.zeros(lead, np.int64), None) if layout is None else layout
    out = np.empty(lead + (a.shape[-2], b.shape[-1]), np.float32)
    for index in np.ndindex(*lead):
        out[index] = remainder_rows(np.ascontiguousarray(a[index]), b[index], None if c is None else c[index],
                                    int(bases[index]) % 4, ldc)
    return out


def gemv_rows(x: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``x @ keys^T`` for one row ``x`` (..., 1, E) and ``keys`` (..., S, E), each matrix as ``torch.mm`` adds it."""
    from core._small_gemm import mkl_gemm  # (imported here: core._small_gemm imports the flash kernel's callers)

    lead = np.broadcast_shapes(x.shape[:-2], keys.shape[:-2])
    x, keys = np.broadcast_to(x, lead + x.shape[-2:]), np.broadcast_to(keys, lead + keys.shape[-2:])
    out = np.empty(lead + (1, keys.shape[-2]), np.float32)
    for index in np.ndindex(*lead):
        out[index] = mkl_gemm(x[index], keys[index].T, nested=True)
    return out


def values_product(e: np.ndarray, v_blk: np.ndarray, acc, q_split: int, kv_split: int, blocked) -> np.ndarray:
    """``acc + e @ v_blk`` for (..., L, S) weights ``e`` and (..., S, E) values, query block by block: fewer than 4
    rows, E < 12 or one key MKL's remainder kernel into the kernel's ``dst`` buffer (module docstring), else ``blocked``
    (``_flash_cpu.sgemm``)."""
    L, E = e.shape[-2], v_blk.shape[-1]
    lead = np.broadcast_shapes(e.shape[:-2], v_blk.shape[:-2])
    e, v_blk = np.broadcast_to(e, lead + e.shape[-2:]), np.broadcast_to(v_blk, lead + v_blk.shape[-2:])
    blocks = -(-L // q_split)
    phases = _dst_phases(int(np.prod(lead)), blocks, min(q_split, L), kv_split, E).reshape(lead + (blocks,))
    out = np.empty(lead + (L, E), np.float32)
    for block, m in enumerate(range(0, L, q_split)):
        rows = slice(m, min(L, m + q_split))
        start = None if acc is None else acc[..., rows, :]
        if rows.stop - m >= 4 and E >= 12 and e.shape[-1] > 1:
            out[..., rows, :] = blocked(e[..., rows, :], v_blk, start)
            continue
        for index in np.ndindex(*lead):
            out[index + (rows,)] = remainder_rows(np.ascontiguousarray(e[index + (rows,)]),
                                                  np.ascontiguousarray(v_blk[index]),
                                                  None if start is None else start[index], phases[index + (block,)])
    return out


def _dst_phases(heads: int, blocks: int, q_rows: int, kv_split: int, head_dim: int) -> np.ndarray:
    """The floats past a 16-byte boundary at which each (head, query block)'s ``dst`` starts: PyTorch's parallel loop
    over heads x blocks gives thread t the t-th run of ``ceil(items / threads)`` of them, and thread t's buffer starts
    ``t (qSplit kvSplit + 2 qSplit + qSplit E)`` floats into one 64-byte-aligned allocation."""
    from core._threads import get_num_threads

    items = heads * blocks
    threads = max(1, min(get_num_threads(), items))
    per_thread = q_rows * kv_split + 2 * q_rows + q_rows * head_dim
    thread = np.arange(items) // -(-items // threads)
    return (thread * per_thread + q_rows * kv_split + 2 * q_rows) % 4
