"""NumPy kernels for stacks of matrix products (bmm, batched matmul), each giving PyTorch's CPU bits where it applies:
MKL's GEMM per matrix where ``core._small_gemm`` knows its order (``_gemm_per_matrix``), a stack of small products
split over ``core.get_num_threads()`` pool threads with NumPy's BLAS single-threaded (``_stacked_matmul``), (n, 1)
@ (1, m) products as one broadcast multiply (``_outer_products``), and bmm's own loop for tiny products
(``_naive_bmm``)."""

from __future__ import annotations

import math

import numpy as np

from core import _blas_threads as _blas
from core._pool import pool_map
from core._small_gemm import mkl_gemm
from core._threads import get_num_threads

_SMALL_GEMM = 1 << 21  # multiply-adds per matrix below which a stack's GEMMs run one thread each
_SMALL_STACK = 1 << 22  # multiply-adds of the whole stack above which threads pay for themselves


def _gemm_per_matrix(x, y):
    """``bmm`` as PyTorch's CPU bmm computes it above its small loop, MKL's GEMM per matrix (measured: torch.bmm
    equals torch.mm of each matrix bit for bit), where ``mkl_gemm`` knows each matrix's order and the stack routes
    do not (a transposed operand, the FMA-blocked kernel of M >= 4, N >= 12: einsum's and attention's products
    with a transposed gradient); None elsewhere. Each matrix is a Python call: small stacks only."""
    if type(x) is not np.ndarray or type(y) is not np.ndarray or x.ndim != 3 \
            or math.prod(x.shape) * y.shape[-1] > _PER_MATRIX_LIMIT:
        return None
    out = []
    for a, b in zip(x, y):
        if (product := mkl_gemm(a, b)) is None:
            return None
        out.append(product)
    return np.stack(out) if out else None


_PER_MATRIX_LIMIT = 1 << 20  # multiply-adds of a stack done per matrix (~0.4 ms; NumPy's one matmul above)


def _stacked_matmul(x, y):
    """``np.matmul`` of two (B, n, k) @ (B, k, m) NumPy stacks; a stack of small products splits its batch over
    ``core.get_num_threads()`` Python threads with NumPy's BLAS single-threaded meanwhile.

    NOTE: OpenBLAS threads each product above ~2.6e5 multiply-adds itself; an attention step's 128 products of
    128x32x128 then synchronise 128 times, and when another process holds a core each sync waits for a time
    slice (q @ k^T went from ~10 ms to 0.2-1.5 s on the shared 2-core machine). Every product is still one
    GEMM call with the same arguments, and OpenBLAS splits rows and columns (never the inner sum) between its
    threads, so the bits are those of the threaded call (as in ``core.nn.functional._conv``)."""
    batch, n, k = x.shape
    m = y.shape[-1]
    if k == 1 and x.dtype is y.dtype and x.dtype in _NAIVE_DTYPES:
        return _outer_products(x, y)
    workers = min(get_num_threads(), batch)
    if workers < 2 or not _SMALL_STACK <= batch * n * k * m or n * k * m >= _SMALL_GEMM or y.shape[0] != batch \
            or not _blas.available():
        return np.matmul(x, y)
    out = np.empty((batch, n, m), np.result_type(x, y))
    if out.dtype.kind not in "fc":
        return np.matmul(x, y)
    bounds = [batch * i // workers for i in range(workers + 1)]

    def part(i):
        np.matmul(x[bounds[i]:bounds[i + 1]], y[bounds[i]:bounds[i + 1]], out=out[bounds[i]:bounds[i + 1]])

    with _blas.single_threaded():
        pool_map(part, range(workers))
    return out


def _outer_products(x, y):
    """A stack of (n, 1) @ (1, m) products as one broadcast multiplication: NumPy's matmul takes its element loop
    when a size-1 dim's stride is not the item size (the transposed input of a per-sample weight gradient under
    vmap: 13 ms for 64 samples of 784x128, against 2 ms here). Same bits: each element is one rounded product,
    plus +0 as the loop's and a GEMM's sum start (a -0 product gives +0, as PyTorch's bmm)."""
    out = np.multiply(x, y)
    out += 0
    return out


_NAIVE_BMM = 400  # contraction * rows * cols below which PyTorch's CPU bmm runs its own loop instead of a GEMM
_NAIVE_DTYPES = frozenset(np.dtype(t) for t in (np.float32, np.float64))  # complex: c10::complex's own rounding


def _naive_bmm_applies(x, y) -> bool:
    """Whether PyTorch's CPU ``bmm`` of these NumPy stacks (..., n, k) @ (..., k, m) takes its small-product loop."""
    return type(x) is np.ndarray and type(y) is np.ndarray and x.dtype is y.dtype and x.dtype in _NAIVE_DTYPES \
        and x.shape[-2] * x.shape[-1] * y.shape[-1] < _NAIVE_BMM


def _naive_bmm(x, y):
    """PyTorch's small-product ``bmm``/``baddbmm`` kernel (``baddbmm_cpu_kernel``, taken when n*k*m < 400): each
    output element adds its k products in k order, rounding each product and each sum to the dtype (no FMA), where
    a GEMM (NumPy's BLAS) blocks and vectorises the sum and rounds differently in the last bit. The stacks
    broadcast over their batch dims: one NumPy step per k for a short k, else ``np.add.accumulate`` of all the
    products (it adds along k one element after the other, where ``sum`` would add pairwise)."""
    if x.shape[-1] == 0:  # an empty sum: +0 (the backward of an op on empty matrices gets here)
        batch = np.broadcast_shapes(x.shape[:-2], y.shape[:-2])
        return np.zeros(batch + (x.shape[-2], y.shape[-1]), dtype=np.result_type(x, y))
    if x.shape[-1] <= 32:
        # NOTE: order "C": PyTorch writes a new contiguous result; NumPy's default ("K") follows the operands'
        # memory order, so a permuted operand (einsum's bmm of a permuted view) gave permuted strides, which a later
        # reduction (mse_loss's mean) sums in another order
        acc = np.multiply(x[..., :, 0, None], y[..., None, 0, :], order="C")
        for k in range(1, x.shape[-1]):
            acc += x[..., :, k, None] * y[..., None, k, :]
    else:
        products = x[..., :, :, None] * y[..., None, :, :]  # (..., n, k, m), each product rounded once
        acc = np.ascontiguousarray(np.add.accumulate(products, axis=-2)[..., -1, :])
    acc += 0  # NOTE: PyTorch's sum starts at +0, so products that are all -0 give +0
    return acc
