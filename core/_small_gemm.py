"""Small float32/float64 matrix products in the order PyTorch's CPU GEMM (MKL's sgemm/dgemm) adds them.

PyTorch's ``mm``/``addmm`` (so ``matmul``, ``F.linear`` and their backward products) call MKL's GEMM, which
rounds differently from NumPy's OpenBLAS in the last bit; the drift then grows over a training loop. Measured
against torch 2.13 (MKL 2024.2, AMD EPYC Zen 4 with AVX-512, one and two threads, operands at several storage
offsets, thousands of random shapes), a product ``a @ b`` of an (M, K) ``a`` and a (K, N) ``b`` is, in these
regions, an **in-order multiply-add chain without FMA**: each product rounded, then added to the accumulator
for k = 0..K-1 (the same rule as PyTorch's own small ``bmm`` loop, ``core.ops._stack_products._naive_bmm``):

- ``b`` with contiguous rows (PyTorch passes it untransposed; ``a`` either way): N in (2, 3) or a multiple
  of 4, or M = 1, or K <= 5; except M >= 4 with N >= 12. ``addmm``'s bias (beta = alpha = 1) is the chain's
  starting value. Float32 with N of 2, 3, 4 or 8 (2 or more rows) past ``LIMIT`` too, up to ``CHAIN_LIMIT``;
- ``b`` a transposed view (``x @ W.T``, a Linear's forward): K <= 2, N <= 3 with K <= 3, or N in (2, 3) with
  K <= 5; a single row (M = 1) also N in (2, 3) with K <= 11 and N = 4 with K <= 4 (measured: 100 random products
  each, float32, W at offsets 0..3 floats, with and without a bias; N = 4, K = 5 matched 78%); except M >= 4 with
  N >= 12. The bias is added to the finished chain;
- a column ``b`` (N = 1, either layout): K = 2 without a bias, or ``a`` transposed (the weight gradient
  ``g.T @ x`` of a one-feature input); a transposed row (``W.T`` of a ``Linear(K, 1)``, which PyTorch passes
  transposed) also for K <= 4, the bias added to the finished chain (measured: 3,600 products, M up to 300,
  float32 and float64, with and without a bias, all bit for bit; K = 5 almost never). A contiguous column with
  a bias is left to NumPy: the chain matched all but ~0.3% of such products there.

The routes, each in its own module: the chain and the remainder rows (``core._small_gemm_chain``), MKL's dot kernels
(``core._small_gemm_dot``), its gemv and sdot (``core._small_gemm_gemv``), its blocked FMA kernel
(``core._small_gemm_blocks``); which one a product takes is in the regions of ``core._small_gemm_regions`` (with the
CPUs they were measured on), asked by the dispatch here.

Stacks: PyTorch's ``bmm`` above its own small-product loop (``matmul`` of stacks too) calls the GEMM per matrix
(``mkl_gemm_stack``), and ``addbmm`` is ``addmm_`` per matrix into the running result (``mkl_addbmm``). A matrix
times a stack, ``(10, 5) @ (4, 5, 10)``, is bmm of the matrix expanded over the batch when the matrix needs no
grad (the same per-matrix GEMMs); one that requires grad folds the stack into one ``mm`` of ``stack.mT``
(copied, (40, 5)) against ``W.T``: a dot-kernel product. W's gradient there, ``(g.T @ stack.mT)`` with a
transposed ``a`` and N = 5..20 columns, is neither the chain nor NumPy's (measured: 4-76% of elements an ulp
off with either), so it is not reproduced.

NOTE: the chain forms all K products in one NumPy multiply and adds them along k in one more call (``_chain``);
products above ``LIMIT`` multiply-adds keep NumPy's GEMM (``DOT_LIMIT`` for the dot kernels of 12 or more outputs,
~2 ns each; ``DOT_HEAD_LIMIT`` for 2..11 outputs, a block of rows at a time, ~0.7 ns each).
"""

from __future__ import annotations

import math

import numpy as np

from core import _blas_threads, _small_gemm_zen3
from core._bf16_gemm import gemm_bf16, takes_bf16_order
from core._cascade_sum import in_order
from core._small_gemm_blocks import _fma_blocks, _split_blocks
from core._small_gemm_chain import _chain, _chain_by_rows, _remainder_rows
from core._small_gemm_dot import _dot_kernels, _dot_kernels_by_rows
from core._small_gemm_gemv import _gemv, mkl_sdot
from core._small_gemm_regions import (
    _DTYPES,
    _NARROW,
    ACTIVE,
    CHAIN_LIMIT,
    DOT_LIMIT,
    FMA_BLOCKS,
    FMA_BLOCKS_LIMIT,
    GEMV_LIMIT,
    LIMIT,
    PADDED_CHAINS,
    _dot_region,
    _gemv_region,
    _in_order_region,
    _remainder_region,
    _split_rows,
    blas_ready,
)

__all__ = ["ACTIVE", "CHAIN_LIMIT", "DOT_LIMIT", "FMA_BLOCKS", "FMA_BLOCKS_LIMIT", "GEMV_LIMIT", "LIMIT",
           "PADDED_CHAINS", "blas_ready", "mkl_addbmm", "mkl_gemm", "mkl_gemm_stack", "mkl_gemv", "mkl_sdot"]

# NOTE: multiply-adds up to which the blocks run on one BLAS thread (``core.nn.functional.misc``'s Linear GEMMs do the
# same up to this size): with OpenBLAS's own threads each block's GEMM waits for its workers, whose spinning collapses
# on a loaded machine (two threads, load 7: a 64-row batch through 784 -> 256 took 13.6 ms against 1.8 on one
# thread). The threads split rows and columns, never k, so every element's chains, and the bits, are the same
_ONE_THREAD_BLOCKS = 1 << 26


def mkl_gemm(a, b, c=None, *, nested=False):
    """``a @ b`` (+ ``c``, a bias broadcast to the result, as ``addmm`` with beta = alpha = 1) for 2-d NumPy
    arrays of one float dtype, added in MKL's order; None where that order is not known (module docstring): the
    caller then keeps NumPy's GEMM. ``nested``: a call from inside one of PyTorch's parallel loops (its flash
    attention's), where MKL runs on one thread whatever the thread count.

    NOTE: a hot path (a small model's training step makes eight of these a step): which route a product takes
    follows only its operands' shapes, strides and dtypes, the bias's dtype and shape and ``nested`` (the routes
    read the addresses themselves), so the route found for a layout is kept (``_PLANS``) and a product of a layout
    seen before skips the ~25 checks and calls of ``_plan`` (~3-5 µs of a 200x8x8 product's ~15-25). The routes
    that also ask the thread count (MKL's blocks of 5..11 rows, ``_split_rows``) and operands ``blas_ready`` copies
    are planned on every call."""
    if type(a) is np.ndarray and type(b) is np.ndarray:
        key = (a.shape, a.strides, a.dtype, b.shape, b.strides, b.dtype, a.dtype is b.dtype, nested,
               _bias_key(a, c))
        run = _PLANS.get(key)
        if run is None:
            run, kept = _plan(a, b, c, nested)
            if kept:
                if len(_PLANS) >= _MAX_PLANS:
                    _PLANS.clear()
                _PLANS[key] = run
        return run(a, b, c)
    return _plan(a, b, c, nested)[0](a, b, c)


_PLANS: dict = {}  # a layout's key (``mkl_gemm``) -> the route its products take
_MAX_PLANS = 4096  # layouts kept at most (emptied past it: a program of many shapes plans them again)


def _bias_key(a, c):
    """The part of ``mkl_gemm``'s key that the bias decides: whether there is one, an array of ``a``'s dtype object,
    and its shape."""
    if c is None:
        return None
    if type(c) is not np.ndarray:
        return type(c)
    return c.dtype is a.dtype, c.shape


def _plan(a, b, c, nested):
    """``(route, kept)``: the function ``route(a, b, c)`` that computes ``mkl_gemm(a, b, c, nested=nested)`` (None
    where MKL's order is not known), and whether it holds for every product of this layout (``mkl_gemm``'s NOTE)."""
    if takes_bf16_order(a, b) and a.ndim == 2 and b.ndim == 2 \
            and (c is None or type(c) is np.ndarray and c.dtype is a.dtype and c.shape == b.shape[1:]):
        return _bf16, False  # bfloat16: oneDNN's order (core._bf16_gemm)
    if blas_ready(a) is not a or blas_ready(b) is not b:
        return lambda a, b, c: _copied_operands(a, b, c, nested), False
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype \
            or a.dtype not in _DTYPES or a.ndim != 2 or b.ndim != 2:
        return _unknown, True
    (m, k), n = a.shape, b.shape[1]
    if not (1 if c is None else 0) < k or b.shape[0] != k:
        return _unknown, True  # (K = 1 without a bias: one rounded product each, NumPy's too)
    size = a.itemsize
    a_transposed = a.strides[1] != size and a.strides[0] == size and m > 1
    # (a column b counts as transposed, W.T, only beside an untransposed a: with a transposed a the chain starts
    # at the bias, as measured)
    b_transposed = b.strides[1] != size and b.strides[0] == size and (n > 1 or k > 1 and not a_transposed)
    if c is not None and (type(c) is not np.ndarray or c.dtype is not a.dtype or c.shape != (n,)):
        return _unknown, True
    if size == 4 and (n == 1 and m > 1 or m == 1 and b_transposed) and m * n * k <= GEMV_LIMIT:
        # NOTE: one row times W.T is W's row(s) times x's row, also for one output (one row times a contiguous
        # column is another order, not found: measured 7 of 16 address pairs either way)
        if _gemv_region(*((b.T, a.T) if m == 1 else (a, b))):
            return (_gemv_row if m == 1 else _gemv_column), True  # (torch's strides: [None] made a 0)
    if m == n == 1 and not b_transposed and k <= GEMV_LIMIT:
        # NOTE: one row times one column (a Linear(1, 1)'s weight gradient, x.view(1, k) @ y.view(k, 1)): the chain
        # from the bias, float32 and float64, at any address or row/column stride (measured: 240 random products, K
        # 2..100000, one and two threads; NumPy's dot differed in up to 95%)
        return _chain, True
    if size == 4 and (m == 1 and n > 1 and not b_transposed or n == 1 and a_transposed) and m * n * k <= GEMV_LIMIT:
        # (one row times x, a Linear(K, 1)'s weight gradient, and g.T times a column, a Linear(1, N)'s or an
        # LSTM's of one input feature: the chain past LIMIT too, from the bias)
        return _chain, True
    if m >= 4 and n >= 12 and size == 4 and not FMA_BLOCKS:
        return _unknown, True  # (NumPy's BLAS does not give the blocks' chains here: FMA_BLOCKS)
    if m >= 4 and n >= 12 and size == 4 and m * n * k <= FMA_BLOCKS_LIMIT:
        # (where MKL may split the rows among threads, 5..11 rows, the thread count decides: planned each call)
        return _blocks_route(a, b, nested, b_transposed), not 4 < m < 12 or not m % 4
    if size == 4 and not b_transposed and n in _NARROW and m >= 2 and LIMIT < m * n * k <= CHAIN_LIMIT:
        return _chain_by_rows, True
    if size == 4 and _small_gemm_zen3.remainder_past_limit(m, k, n, b_transposed):
        return _small_gemm_zen3.remainder_rows, True  # (N of 5..11 past LIMIT: measured on the Zen 3)
    if k > LIMIT // (m * n or LIMIT) \
            or not _in_order_region(m, k, n, a_transposed, b_transposed, a.itemsize == 8, c is not None):
        if _remainder_region(m, k, n, b_transposed, size):
            return _remainder_rows, True
        if not (b_transposed and _dot_region(m, k, n, a, size)):
            return _unknown, True
        return (_dots if m * n * k <= DOT_LIMIT else _dots_by_rows), True
    return (_chain_then_bias if b_transposed else _chain), True


def _blocks_route(a, b, nested, b_transposed):
    """MKL's blocked FMA kernel's route for this call (``_split_blocks`` where MKL splits the rows among threads)."""
    (m, k), n = a.shape, b.shape[1]
    if not nested and _split_rows(m, k, n) \
            and (not b_transposed or a.strides[1] == a.itemsize and a.strides[0] >= k * a.itemsize):
        return lambda a, b, c: _split_blocks(a, b, c, b_transposed)
    if m * n * k <= _ONE_THREAD_BLOCKS:
        return lambda a, b, c: _blas_threads.run_single_threaded(_fma_blocks, a, b, c)
    return _fma_blocks


def _unknown(a, b, c):
    return None


def _bf16(a, b, c):
    return gemm_bf16(a, b, c)


def _copied_operands(a, b, c, nested):
    """An expanded operand copied contiguous first, as ATen's addmm does (``blas_ready``), then its route."""
    a, b = blas_ready(a), blas_ready(b)
    return _plan(a, b, c, nested)[0](a, b, c)


def _gemv_row(a, b, c):
    return _gemv(b.T, a.T, c).reshape(1, -1)


def _gemv_column(a, b, c):
    return _gemv(a, b, c).reshape(-1, 1)


def _dots(a, b, c):
    out = _dot_kernels(a, b)
    if c is not None:
        out += c
    return out


def _dots_by_rows(a, b, c):
    out = _dot_kernels_by_rows(a, b)
    if c is not None:
        out += c
    return out


def _chain_then_bias(a, b, c):
    out = _chain(a, b, None)
    if c is not None:
        out += c
    return out


def mkl_gemv(a, v):
    """``a @ v`` for a float32 (M, K) matrix and a (K,) vector (PyTorch's ``mv``, MKL's sgemv): ``a`` with contiguous
    rows and ``v`` contiguous in MKL's gemv order (``_gemv``), a transposed ``a`` (columns contiguous) in order
    (measured: M 10..1000, K 7..500); otherwise where MKL adds each row's products in order without FMA: K <= 4, or
    M <= 3 with K <= 11 (measured: 40-60 random products per shape, M 1..200, ``a`` transposed or at offsets 0..3
    floats). None elsewhere: the caller keeps NumPy's."""
    if not ACTIVE or type(a) is not np.ndarray or type(v) is not np.ndarray or a.dtype is not v.dtype \
            or a.dtype != np.float32 or a.ndim != 2 or v.ndim != 1:
        return None
    m, k = a.shape
    if v.shape[0] != k or not k:
        return None
    if m * k <= GEMV_LIMIT and a.strides[0] == a.itemsize and a.strides[1] >= a.itemsize * m \
            and v.strides[0] == v.itemsize:
        # NOTE: a column-major a (x.T, mv's gradient x.T @ g; PyTorch's test: a (1, K) view with both strides 1
        # too) is MKL's other gemv: the in-order chain
        return _chain(a, v[:, None], None)[:, 0]
    if m * k <= GEMV_LIMIT and _gemv_region(a, v[:, None]):
        return _gemv(a, v[:, None], None)
    if not (k <= 4 or m <= 3 and k <= 11):
        return None
    return _chain(a, v[:, None], None)[:, 0]


def mkl_gemm_stack(a, b):
    """``a @ b`` for NumPy stacks (..., M, K) @ (..., K, N) of one float dtype whose batch dims broadcast, each
    matrix added in MKL's order as ``mkl_gemm`` adds one: PyTorch's ``bmm`` above its own small-product loop calls
    MKL's GEMM per matrix (measured: (32, 10, 5) @ (32, 5, 10), (3, 12, 8) @ (3, 8, 8), (5, 6, 7) @ (5, 7, 4) all
    match the per-matrix chain bit for bit, NumPy's matmul 42-50% an ulp off). Both operands' rows contiguous
    only (a transposed stack was not measured); None elsewhere, and the caller keeps NumPy's matmul. float32 on the
    AMD Zen 3: MKL's batched sgemm, every layout (``core._small_gemm_zen3.gemm_batch``)."""
    if takes_bf16_order(a, b) and a.ndim >= 3 and b.ndim >= 3 and a.shape[-1] == b.shape[-2]:
        try:
            return gemm_bf16(a, b)  # bfloat16: oneDNN's order, matrix by matrix (core._bf16_gemm)
        except ValueError:
            return None  # batch dims that do not broadcast
    if (batched := _small_gemm_zen3.gemm_batch(a, b)) is not None:
        return batched  # (float32 on the Zen 3: MKL's batched sgemm, measured there)
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype \
            or a.dtype not in _DTYPES or a.ndim < 3 or b.ndim < 3:
        return None
    (m, k), n = a.shape[-2:], b.shape[-1]
    size = a.itemsize
    if b.shape[-2] != k or not 1 < k <= LIMIT // (m * n or LIMIT) or m * n * k < 2 \
            or a.strides[-1] != size and m > 1 and k > 1 or b.strides[-1] != size and n > 1 and k > 1:
        return None
    if not _in_order_region(m, k, n, False, False, size == 8, False):
        return None
    try:
        batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    except ValueError:
        return None
    if math.prod(batch) * m * n * k > LIMIT * 16:
        return None
    a = a.reshape((1,) * (len(batch) + 2 - a.ndim) + a.shape)  # (same number of batch dims, for moveaxis)
    b = b.reshape((1,) * (len(batch) + 2 - b.ndim) + b.shape)
    # (K, ..., M, N): each product rounded once, then added in order of k
    products = np.moveaxis(a, -1, 0)[..., :, None] * np.moveaxis(b, -2, 0)[..., None, :]
    acc = in_order(products)
    acc += 0  # NOTE: the sum starts at +0, so products that are all -0 give +0
    return acc


def mkl_addbmm(c, a, b, beta=1, alpha=1):
    """``addbmm``: ``beta * c + alpha * sum_i a[i] @ b[i]`` for a (B, M, K) ``a``, a (B, K, N) ``b`` and a ``c``
    broadcast to (M, N), all of one float dtype, as PyTorch adds it: ``addmm_`` per matrix into the result (beta
    only for the first), each MKL's in-order chain of ``mkl_gemm``'s region started at the running result, with
    ``beta * c`` rounded first and alpha multiplied into ``a``'s elements before their products (measured on the
    AMD EPYC: all four of the op database's float32 addbmm samples, alpha 1 and 0.2, beta 1 and 0.6, bit for bit;
    alpha applied to the finished chain differed in 27-40 of 50 elements). None elsewhere (beta = 0, transposed
    matrices, shapes outside the region): the caller keeps NumPy's product."""
    if not ACTIVE or beta == 0 or any(type(t) is not np.ndarray for t in (a, b, c)) or a.ndim != 3 or b.ndim != 3 \
            or not a.dtype is b.dtype is c.dtype or a.dtype not in _DTYPES:
        return None
    batch, m, k = a.shape
    n = b.shape[2]
    size = a.itemsize
    if b.shape[:2] != (batch, k) or not batch or not 0 < k <= LIMIT // (m * n * batch or LIMIT) \
            or a.strides[2] != size and m > 1 or b.strides[2] != size and n > 1 \
            or not _in_order_region(m, k, n, False, False, size == 8, True):
        return None
    try:
        out = np.array(np.broadcast_to(c, (m, n)))
    except ValueError:
        return None
    if beta != 1:
        out *= a.dtype.type(beta)
    if alpha != 1:
        a = a * a.dtype.type(alpha)
    for i in range(batch):
        for j in range(k):
            out += a[i, :, j, None] * b[i, j, None, :]  # each product rounded, then its sum
    return out
