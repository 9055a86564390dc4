"""MKL's blocked float32 FMA kernel (M >= 4, N >= 12), the route ``core._small_gemm`` takes where
``core._small_gemm_regions.FMA_BLOCKS`` holds, and its split between threads.

**MKL's blocked FMA kernel** (``_fma_blocks``): float32 with M >= 4 and N >= 12, any K, any layout, up to
``FMA_BLOCKS_LIMIT`` multiply-adds (larger products keep NumPy's one GEMM, for speed: their bits are NumPy's).
Each output is an in-order chain *with* FMA over a block of k, the blocks' sums added in order: K <= 192 one
block; 192 < K <= 384 two halves of K // 2 each, an odd K's last product rounded and added after them (not fused);
K > 384 blocks of 192 from k = 0, the last one shorter. ``addmm``'s bias is the starting value the blocks are added to.
Measured bit for bit: K 100..1024 at 30 values, 300 random products (M 4..79, N 12..299, K 1..1299, x, W.T or
a transposed x, with and without a bias), and (M, K, N) up to (512, 1000, 700), (128, 3000, 256), (300, 785,
2000), one and two threads (with two, MKL hands the last M % 4 rows of a product of 5..11 rows to its few-row
kernels: ``_split_blocks``, as ``core.get_num_threads()`` says). NumPy's OpenBLAS computes each
block's chain when ``a`` is column-major (its products with a row-major ``a`` and a transposed ``b``, a Linear's
forward, are another order for small M * N * K: 10-20% of elements equal), so ``a`` is copied to column-major.
float64 (dgemm) follows the chain's rule in the same regions but N = 3 (its vectors hold 4); its blocked kernel
is not measured (products outside the regions keep NumPy's). MKL chooses its kernels by CPU: the route is taken
only on the kinds of CPU it was measured on (``ACTIVE``: the AMD Zen 4 with AVX-512 and the AMD Zen 3 with AVX2), the
blocked FMA kernel where NumPy's BLAS gives its chains (``FMA_BLOCKS``). On the Zen 3 MKL's blocked kernel is the same
order (measured bit for bit: 390 random products, M 4..299, N 12..699, K 1..1299, the three layouts, with and
without a bias, one and two threads, and the shapes of ``benchmarks/probe_avx2_sgemm.py``), but OpenBLAS's Haswell
kernel is not every block's chain: each block is then one GEMM of padded operands (``core._openblas_chains``).
"""

from __future__ import annotations

import numpy as np

from core import _blas_threads, _openblas_chains
from core._small_gemm_chain import _chain, _remainder_rows
from core._small_gemm_dot import _dot_kernels
from core._small_gemm_regions import _AVX512

_FMA_BLOCK = 192  # k per block of MKL's float32 FMA kernel (M >= 4, N >= 12)


def _fma_blocks(a, b, c):
    """``a @ b`` (+ ``c``) as MKL's float32 kernel for M >= 4, N >= 12 adds it (module docstring): an FMA chain
    over each block of k (NumPy's GEMM of a column-major ``a``), the blocks added in order to ``c`` (or to the
    first block). A new (M, N) array."""
    k = a.shape[1]
    if k <= _FMA_BLOCK:
        blocks, last = [(0, k)], None
    elif k <= 2 * _FMA_BLOCK:
        half = k // 2
        blocks, last = [(0, half), (half, 2 * half)], (2 * half if k % 2 else None)
    else:
        blocks, last = [(s, min(s + _FMA_BLOCK, k)) for s in range(0, k, _FMA_BLOCK)], None
    if not _AVX512:  # (OpenBLAS's Haswell kernel: the chains of padded operands, core._openblas_chains)
        return _openblas_chains.fma_blocks(a, b, c, blocks, last)
    if 2 * a.shape[0] <= b.shape[1] and a.flags.c_contiguous and b.flags.f_contiguous:
        return _fma_blocks_by_columns(a, b, c, blocks, last)
    a = np.asfortranarray(a)
    if not (b.flags.c_contiguous or b.flags.f_contiguous):
        b = np.asfortranarray(b)
    out = None
    for start, stop in blocks:
        part = a[:, start:stop] @ b[start:stop]
        if out is None:  # (the first block's fresh product, from the bias where there is one: c + part)
            out = part if c is None else np.add(c, part, out=part)
        else:
            out += part
    if last is not None:
        out += a[:, last, None] * b[last]  # NOTE: an odd K's last product, rounded, then added: not fused
    return out if out.flags.c_contiguous else np.ascontiguousarray(out)  # (rows contiguous, as PyTorch's)


def _split_blocks(a, b, c, b_transposed):
    """``a @ b`` (+ ``c``) as MKL on two threads adds a product of 5..11 rows (``_split_rows``): the first M // 4 * 4
    rows in its blocked FMA kernel (``_fma_blocks``), the last M % 4 as those rows' own product: for ``x @ W.T`` the
    dot kernels (one row too), the bias added after; else the in-order chain from the bias, some first columns in
    blocks of 4 (``_remainder_rows``'s rule for N % 4 of 1, as N = 9, 2 or 3). Measured bit for bit against torch
    2.13 on two threads: M 5..11, N 12..2000, K 2..1000, ``a`` row-major or transposed, ``b`` transposed or not
    (a 10-class head's weight gradient ``g.T @ x``: rows 8 and 9 were 10-20% of W's gradient an ulp off)."""
    m, n = a.shape[0], b.shape[1]
    head = m // 4 * 4
    out = np.empty((m, n), a.dtype)
    out[:head] = _blas_threads.run_single_threaded(_fma_blocks, a[:head], b, c)
    tail = a[head:]
    if b_transposed:
        last = _dot_kernels(tail, b)
        if c is not None:
            last += c
    elif n % 4 and m - head > 1:
        last = _remainder_rows(np.ascontiguousarray(tail), b, c)
    else:
        last = _chain(np.ascontiguousarray(tail), b, c)
    out[head:] = last
    return out


# NOTE: multiply-adds of one block's GEMM up to which OpenBLAS may take its small-matrix kernels (its
# ``sgemm_small_kernel_permit``: M N K <= 10^6), whose order with a row-major ``a`` and a transposed ``b`` is not
# the chain (measured: most elements of such products differ, up to ~2.2 10^5 multiply-adds)
_SMALL_KERNELS = 10 ** 6


def _fma_blocks_by_columns(x, wt, c, blocks, last):
    """``_fma_blocks`` of a Linear's forward, ``x @ W.T`` (``x`` row-major, ``wt`` the transposed view of a row-major
    ``W``), with the batch of at most half the outputs: the blocks as ``W @ x.T`` into the (N, M) transpose, then one
    copy. The same chains (each element's block of k in order, the blocks added in order), 10-30% less time.

    NOTE: OpenBLAS (one thread) takes 10-30% less time for the product with the batch as its columns, and ``x`` needs
    no column-major copy (``core.nn.functional.misc._forward_gemm`` takes the same route outside the blocks). Its
    packed kernel computes each block's chain for this layout too (measured: 1,500 random shapes, M 4..200, N 2M..2M +
    1000, K 1..1300, bit for bit against the column-major route; without the rule below ~85% of the elements of
    small products differed); a block of at most
    ``_SMALL_KERNELS`` multiply-adds (a short last block of k: 784 = 4 * 192 + 16) takes the column-major route."""
    w = wt.T
    m, n = x.shape[0], w.shape[0]
    out = None
    for start, stop in blocks:
        if m * n * (stop - start) > _SMALL_KERNELS:
            part = w[:, start:stop] @ x.T[start:stop]
        else:
            part = (np.asfortranarray(x[:, start:stop]) @ wt[start:stop]).T  # (the column-major route's call)
        if out is None:  # (the first block's fresh product, from the bias where there is one: c + part)
            out = part if c is None else np.add(c[:, None], part, out=part)
        else:
            out += part
    if last is not None:
        out += w[:, last, None] * x[:, last]  # NOTE: an odd K's last product, rounded, then added: not fused
    return _transposed_copy(out)


_COPY_BLOCK = 32768  # bytes of a source block ``_transposed_copy`` moves at a time


def _transposed_copy(p):
    """``p.T`` as a new C-contiguous array, a block of ``p``'s rows at a time (also a Linear's transposed forward's,
    ``core.nn.functional.misc``): NumPy's copy of a transposed view walks ``p`` down its columns, and rows a power of
    two apart evict each other from the cache (a 256x64 float32 array ~25 µs against ~6 in blocks; 2048x512 18 ms
    against 1.4). The same values, only moved."""
    n, m = p.shape
    rows = max(8, _COPY_BLOCK // max(1, m * p.itemsize))
    if n <= rows:
        return np.ascontiguousarray(p.T)
    out = np.empty((m, n), p.dtype)
    for i in range(0, n, rows):
        out[:, i:i + rows] = p[i:i + rows].T
    return out
