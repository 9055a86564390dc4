"""MKL's float32 GEMM orders on the AMD Zen 3 (AVX2) beyond the regions ``core._small_gemm`` measured on the Zen 4:
the kernel for 5, 6, 7, 9, 10 or 11 columns past ``LIMIT``, and ``bmm`` (MKL's batched sgemm), matrix by matrix.

Measured against torch 2.13 (MKL 2024.2) on an AMD EPYC Zen 3 (AVX2 and FMA, no AVX-512), element for element, one
and two threads, 2026-12-07 (``benchmarks/probe_avx2_small_n.py`` records how):

- **Which first columns MKL's remainder kernel peels** (``core._small_gemm_chain._remainder_rows``) follows the
  address of the output row, not its index: a row of C that starts p = 1..3 floats past a 16-byte boundary takes its
  first ``4 - p`` columns in blocks of 4 when 4 or more columns are left after them, the rest the in-order chain.
  ``mm`` writes a fresh, aligned result, so p = r N mod 4 for row r: ``_remainder_rows``' rule by the row's index.
- **Past LIMIT** (``remainder_rows``): ``a @ b`` with ``b`` untransposed, N of 5, 6, 7, 9, 10 or 11, 2 or more rows,
  is that kernel at every size measured, and 2 or 3 rows of N >= 12, a multiple of 4, the in-order chain (core kept
  NumPy's GEMM past ``LIMIT``, 2^16 multiply-adds: a (100, 100) @ (100, 10) product differed from torch in 445 of 1000
  elements): 300 random products (M 2..64, K 1..512, ``a`` row-major or transposed, with and without a bias) and
  (M, K, N) up to (4096, 1024, 10), (1024, 4096, 6), (8, 100000, 9), (20000, 30, 11), (2048, 2048, 7), (3, 5000, 12).
  Taken up to ``CHAIN_LIMIT`` (~2-4 ns a multiply-add, the narrow chain's limit), a block of rows at a time.
- **bmm** (``gemm_batch``): above its small loop PyTorch's CPU ``bmm`` calls MKL's batched sgemm, each matrix on one
  thread, into a fresh (B, M, N) result, so matrix j's rows start at j M N floats (a batch of one is ``mm``'s
  product, on its threads). Matrix by matrix: M >= 4 with N >= 12 the blocked FMA kernel
  (``core._small_gemm_blocks._fma_blocks``, never split between threads as ``mm``'s is); else with ``b`` untransposed
  (one row, and one column, too) the remainder kernel at matrix j's address (the in-order chain where nothing is
  peeled: N < 4 or a multiple of 4); else ``x @ W.T`` per matrix: one column the dot kernels (``mm`` takes its gemv
  there), more ``mm``'s kernels on one thread (the dot kernels and gemv, by each row's address). Measured bit for
  bit: 1,200 random stacks (B 2..4, M and N 1..64, K 1..512, ``a`` or ``b`` transposed per matrix, one and two
  threads), 320 columns (each layout, one row or more), broadcast and 4-d ``matmul``, and the gradients of 300 random
  ``bmm``, ``matmul`` and ``einsum`` stacks, wherever PyTorch takes the GEMM (M N K >= 400). Before, 10-40% of such
  stacks differed (NumPy's matmul past ``core.ops.linalg``'s per-matrix limit, ``mm``'s order per matrix below it).

The Zen 4's batched sgemm was not measured beyond ``core._small_gemm``'s stack routes, so these routes answer only
here (``ACTIVE``), and None elsewhere: the caller keeps its own route.
"""

from __future__ import annotations

import math

import numpy as np

from core import _blas_threads
from core._cascade_sum import in_order
from core._small_gemm_blocks import _fma_blocks
from core._small_gemm_chain import _block_slabs, _chain, _slabs_of
from core._small_gemm_dot import _dot_kernels
from core._small_gemm_regions import _AVX512, CHAIN_LIMIT, DOT_HEAD_LIMIT, FMA_BLOCKS, FMA_BLOCKS_LIMIT, LIMIT
from core._small_gemm_regions import ACTIVE as _MEASURED

__all__ = ["ACTIVE", "remainder_past_limit", "remainder_rows", "gemm_batch"]

ACTIVE = _MEASURED and not _AVX512  # (the Zen 3: family 25 with AVX2 and FMA, without AVX-512)
_REMAINDER_COLUMNS = (5, 6, 7, 9, 10, 11)
_ROW_BLOCK = 1 << 20  # products (a float32 each) of one block of rows in ``remainder_rows``
# NOTE: multiply-adds of a whole stack up to which ``gemm_batch`` follows MKL (the narrow chain's limit): the chain and
# the peeled columns of a whole group of matrices at once, ~2-5 ns a multiply-add; the blocked kernel one Python call
# per matrix, ~15-60 µs each (32 products of 64 x 64 x 64: ~1 ms against NumPy's 0.2); past it NumPy's matmul
BATCH_LIMIT = CHAIN_LIMIT


def remainder_past_limit(m: int, k: int, n: int, b_transposed: bool) -> bool:
    """Whether ``remainder_rows`` gives this float32 product's order past ``LIMIT`` here (module docstring)."""
    return ACTIVE and not b_transposed and m >= 2 and (n in _REMAINDER_COLUMNS or m < 4 and n >= 12 and not n % 4) \
        and LIMIT < m * n * k <= CHAIN_LIMIT


def remainder_rows(a, b, c, phase: int = 0, row_stride: int | None = None):
    """``a @ b`` (+ ``c``: a bias of N, or an (M, N) start) for float32 2-d ``a`` (M, K) and untransposed ``b``
    (K, N) in MKL's remainder kernel's order, the result's first row starting ``phase`` floats past a 16-byte
    boundary and each next one ``row_stride`` floats on (MKL's ldc; N by default): the chain from ``c``, some first
    columns of each row in blocks of 4 (``_peel``). A block of rows at a time (each ``_ROW_BLOCK`` products or fewer,
    a multiple of 4 rows). A new C-contiguous (M, N) array."""
    (m, k), n = a.shape, b.shape[1]
    ldc = n if row_stride is None else row_stride
    rows = max(4, _ROW_BLOCK // max(1, n * k) // 4 * 4)
    if rows >= m:
        return _peeled(a, b, c, phase, ldc)
    out = np.empty((m, n), np.float32)
    for start in range(0, m, rows):
        out[start:start + rows] = _peeled(a[start:start + rows], b, c, (phase + start * ldc) % 4, ldc)
    return out


def _peel(p: int, n: int) -> int:
    """The first columns of an output row starting ``p`` floats past a 16-byte boundary that MKL's remainder kernel
    adds in blocks of 4: up to the boundary, when 4 or more of the N columns are left after them."""
    cols = -p % 4
    return cols if n - cols >= 4 else 0


def _peeled(a, b, c, phase, ldc):
    """``remainder_rows`` of one block of rows: the chain, then each kind of row (index mod 4) whose row starts off a
    16-byte boundary has its peeled columns' sums replaced by the blocks-of-4 order (``_block_slabs``)."""
    if c is not None and c.ndim == 2:  # (a beta-1 accumulator, flash attention's: the chain starts at it)
        products = np.multiply(a.T[:, :, None], b[:, None, :])  # (K, M, N)
        products[0] += c
        out = in_order(products)
    else:
        out = _chain(a, b, c)
    n = b.shape[1]
    for first in range(min(4, a.shape[0])):
        cols = _peel((phase + first * ldc) % 4, n)
        if not cols:
            continue
        rows = a[first::4]
        slabs = _block_slabs(rows, b[:, :cols]).T  # (steps, rows * cols)
        if c is not None:  # (a bias of N, or a start of (M, N): a beta-1 accumulator)
            slabs[0] += c[first::4, :cols].reshape(-1) if c.ndim == 2 else np.tile(c[:cols], rows.shape[0])
        total = in_order(slabs) if c is not None else in_order(slabs) + 0  # NOTE: from +0 without a bias, as _chain
        out[first::4, :cols] = total.reshape(-1, cols)
    return out


def gemm_batch(a, b):
    """``a @ b`` for float32 NumPy stacks (..., M, K) @ (..., K, N) whose batch dims broadcast, as PyTorch's ``bmm``
    adds it through MKL's batched sgemm here (module docstring); None off the Zen 3, for other dtypes, past
    ``BATCH_LIMIT`` or where a matrix's order is not known. A new C-contiguous array."""
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype != np.float32 \
            or b.dtype != np.float32 or a.ndim < 3 or b.ndim < 3 or a.shape[-1] != b.shape[-2]:
        return None
    (m, k), n = a.shape[-2:], b.shape[-1]
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return None
    count = math.prod(batch)
    if not count or not m * n * k or count * m * n * k > BATCH_LIMIT:
        return None
    a3, b3 = _stack(a, batch, count), _stack(b, batch, count)
    if count == 1:  # NOTE: a batch of one is torch.mm's product, its threads' split too (measured: 118 stacks)
        from core._small_gemm import mkl_gemm  # (imported here: it imports this module)

        product = mkl_gemm(a3[0], b3[0])
        return None if product is None else product.reshape(batch + (m, n))
    if _in_remainder_kernel(a3[0], b3[0]):
        out = _remainder_stack(a3, b3)
    else:
        out = np.empty((count, m, n), np.float32)
        for j in range(count):
            product = _matrix(a3[j], b3[j])
            if product is None:
                return None
            out[j] = product
    return out.reshape(batch + (m, n))


def _stack(x, batch, count):
    """``x`` broadcast over ``batch`` as (count, rows, cols), each matrix with ``x``'s own strides (as PyTorch's
    ``expand``; NumPy's ``broadcast_to`` gives a dim of size 1 the stride 0: a column would read as transposed)."""
    if x.shape[:-2] != batch:
        wide = np.broadcast_to(x, batch + x.shape[-2:])
        x = np.lib.stride_tricks.as_strided(wide, wide.shape, wide.strides[:-2] + x.strides[-2:], writeable=False)
    return x.reshape(count, *x.shape[-2:])


def _in_remainder_kernel(a, b) -> bool:
    """Whether MKL's batched sgemm takes its remainder kernel (or the plain chain) for matrices like ``a`` @ ``b``:
    fewer than 4 rows or 12 columns, ``b`` untransposed as ``mkl_gemm`` counts it (a column beside a transposed
    ``a``, or of one element, reads the same either way)."""
    (m, k), n = a.shape, b.shape[1]
    if m >= 4 and n >= 12:
        return False
    a_transposed = a.strides[1] != 4 and a.strides[0] == 4 and m > 1
    return b.strides[1] == 4 or b.strides[0] != 4 or n == 1 and (k == 1 or a_transposed)


def _remainder_stack(a, b):
    """``_in_remainder_kernel``'s products of (B, M, K) @ (B, K, N) stacks, several matrices per call (each group
    ``_ROW_BLOCK`` products or fewer; a larger matrix alone, by ``remainder_rows``): the chain of the whole group,
    then the peeled columns of each kind of row (index mod 4) grouped by how many columns its address peels."""
    count, m, k = a.shape
    n = b.shape[2]
    out = np.empty((count, m, n), np.float32)
    if m * n * k > _ROW_BLOCK:
        for j in range(count):
            out[j] = remainder_rows(a[j], b[j], None, j * m * n % 4)
        return out
    group = _ROW_BLOCK // (m * n * k)
    for first in range(0, count, group):
        stop = min(first + group, count)
        part = out[first:stop]
        part[...] = _chain_stack(a[first:stop], b[first:stop])
        for row in range(min(4, m)):
            peels = [_peel((j * m * n + row * n) % 4, n) for j in range(first, stop)]
            for cols in set(peels) - {0}:
                _peel_columns(part, a[first:stop], b[first:stop], row, cols,
                              [i for i, c in enumerate(peels) if c == cols])
    return out


def _chain_stack(a, b):
    """Each matrix's in-order chain from +0 for (G, M, K) @ (G, K, N) stacks: a (G, M N) array.

    NOTE: the products are laid out (K, G, M N), C-contiguous, from ``a`` repeated N times along its rows and ``b``
    tiled M times: one flat multiply (a broadcast multiply into (K, G, M, N) runs inner loops N long: 32 matrices of
    32 x 100 x 10, 5.3 -> 1.0 ms), then one in-order reduction over k."""
    (count, m), n = a.shape[:2], b.shape[2]
    products = np.ascontiguousarray(np.moveaxis(a, -1, 0)).repeat(n, axis=2)
    products *= np.tile(np.ascontiguousarray(np.moveaxis(b, -2, 0)), (1, 1, m))
    total = in_order(products)
    total += 0  # NOTE: the sum starts at +0, so products that are all -0 give +0
    return total.reshape(count, m, n)


def _peel_columns(out, a, b, row, cols, which):
    """Into ``out`` (G, M, N), for the matrices ``which`` of the stacks ``a``, ``b``: the rows ``row::4``' first
    ``cols`` columns in the blocks-of-4 order (``_peeled``), all of them from one multiply."""
    rows = a[which, row::4]  # (J, R, K)
    products = rows[:, :, None, :] * np.swapaxes(b[which, :, :cols], 1, 2)[:, None, :, :]  # (J, R, C, K)
    total = in_order(_slabs_of(products.reshape(-1, a.shape[2])).T) + 0  # NOTE: from +0, as the chain
    out[which, row::4, :cols] = total.reshape(len(which), -1, cols)


def _matrix(a, b):
    """One matrix of ``gemm_batch`` outside the remainder kernel: the blocked FMA kernel (M >= 4, N >= 12, one
    thread), else ``x @ W.T``: the dot kernels for one column (``mm`` takes its gemv there), ``mm``'s kernels on one
    thread otherwise."""
    (m, k), n = a.shape, b.shape[1]
    if m >= 4 and n >= 12:
        if not FMA_BLOCKS or m * n * k > FMA_BLOCKS_LIMIT:
            return None
        return _blas_threads.run_single_threaded(_fma_blocks, a, b, None)
    if n == 1 and m > 1:  # NOTE: x @ w.T of one column
        return _dot_kernels(a, b) if a.strides[1] == 4 and m * k <= DOT_HEAD_LIMIT else None
    from core._small_gemm import mkl_gemm  # (x @ W.T per matrix: mm's kernels; imported here, it imports this)

    return mkl_gemm(a, b, nested=True)
