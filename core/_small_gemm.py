"""Small float32/float64 matrix products in the order PyTorch's CPU GEMM (MKL's sgemm/dgemm) adds them.

PyTorch's ``mm``/``addmm`` (so ``matmul``, ``F.linear`` and their backward products) call MKL's GEMM, which
rounds differently from NumPy's OpenBLAS in the last bit; the drift then grows over a training loop. Measured
against torch 2.13 (MKL 2024.2, AMD EPYC Zen 4 with AVX-512, one and two threads, operands at several storage
offsets, thousands of random shapes), a product ``a @ b`` of an (M, K) ``a`` and a (K, N) ``b`` is, in these
regions, an **in-order multiply-add chain without FMA**: each product rounded, then added to the accumulator
for k = 0..K-1 (the same rule as PyTorch's own small ``bmm`` loop, ``core.ops.linalg._naive_bmm``):

- ``b`` with contiguous rows (PyTorch passes it untransposed; ``a`` either way): N in (2, 3) or a multiple
  of 4, or M = 1, or K <= 5; except M >= 4 with N >= 12. ``addmm``'s bias (beta = alpha = 1) is the chain's
  starting value;
- ``b`` a transposed view (``x @ W.T``, a Linear's forward): K <= 2, N <= 3 with K <= 3, or N in (2, 3) with
  K <= 5; except M >= 4 with N >= 12. The bias is added to the finished chain;
- a column ``b`` (N = 1, either layout): K = 2 without a bias, or ``a`` transposed (the weight gradient
  ``g.T @ x`` of a one-feature input); a transposed row (``W.T`` of a ``Linear(K, 1)``, which PyTorch passes
  transposed) also for K <= 4, the bias added to the finished chain (measured: 3,600 products, M up to 300,
  float32 and float64, with and without a bias, all bit for bit; K = 5 almost never). A contiguous column with
  a bias is left to NumPy: the chain matched all but ~0.3% of such products there.

Outside these regions: M >= 4 with N >= 12 and K up to ~128 is an in-order chain *with* FMA, which OpenBLAS
already computes (NumPy's result is torch's for almost every such shape); a Linear's forward with fewer than 12
outputs and K > 5 takes MKL's dot-product kernels, whose summation order depends on each row's address
alignment (measured: one product's rows summed in three different orders), so core leaves those, and larger
products, to NumPy. float64 (dgemm) follows the same rule in the same regions but N = 3 (its vectors hold 4).
MKL chooses its kernels by CPU: the route is taken only on the kind of CPU it was measured on (``ACTIVE``).

Stacks: PyTorch's ``bmm`` above its own small-product loop (``matmul`` of stacks too) calls the GEMM per matrix
(``mkl_gemm_stack``), and ``addbmm`` is ``addmm_`` per matrix into the running result (``mkl_addbmm``).

NOTE: the chain forms all K products in one NumPy multiply and adds them along k in one more call (``_chain``);
products above ``LIMIT`` multiply-adds keep NumPy's GEMM.
"""

from __future__ import annotations

import math

import numpy as np

from core import _cpu
from core._cascade_sum import in_order

__all__ = ["ACTIVE", "LIMIT", "mkl_gemm", "mkl_gemm_stack", "mkl_addbmm"]

def _measured_cpu() -> bool:
    """Whether this machine is the kind the region was measured on: an AMD CPU of family 25 (Zen 4) with AVX-512.

    NOTE: MKL picks its small-GEMM kernels by CPU vendor and instruction set. On the machine an earlier rule was
    measured on (``Linear(1, n)``'s bias fused into the product, in ``core.nn.functional.misc``), torch 2.13
    rounds differently from this one, so elsewhere core keeps NumPy's GEMM rather than guess. (The CPU is read
    once, in ``core._cpu``.)"""
    return _cpu.VENDOR == "AuthenticAMD" and _cpu.FAMILY == "25" and "avx512f" in _cpu.FLAGS


ACTIVE = _measured_cpu()  # whether mkl_gemm follows MKL here (else it always answers None)
LIMIT = 1 << 16  # multiply-adds above which a product keeps NumPy's GEMM (the chain costs ~1 ns each, BLAS far less)
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))


def _in_order_region(m: int, k: int, n: int, a_transposed: bool, b_transposed: bool, double: bool,
                     bias: bool) -> bool:
    """Whether MKL's GEMM of this shape and layout adds the K products in order without FMA (module docstring)."""
    if m >= 4 and n >= 12 or double and n == 3:
        return False
    if n == 1:  # (a column b: a contiguous one reads the same either way; a row's transpose, W.T, up to K = 4)
        return k == 1 or a_transposed or k == 2 and not bias or b_transposed and k <= 4
    if b_transposed:
        return k <= 2 or (n <= 3 and k <= 3) or (n in (2, 3) and k <= 5)
    return m == 1 or n in (2, 3) or n % 4 == 0 or k <= 5


def mkl_gemm(a, b, c=None):
    """``a @ b`` (+ ``c``, a bias broadcast to the result, as ``addmm`` with beta = alpha = 1) for 2-d NumPy
    arrays of one float dtype, added in MKL's order; None where that order is not known (module docstring): the
    caller then keeps NumPy's GEMM."""
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype \
            or a.dtype not in _DTYPES or a.ndim != 2 or b.ndim != 2:
        return None
    (m, k), n = a.shape, b.shape[1]
    if not (1 if c is None else 0) < k <= LIMIT // (m * n or LIMIT) or b.shape[0] != k:
        return None  # (K = 1 without a bias: one rounded product each, NumPy's too)
    size = a.itemsize
    a_transposed = a.strides[1] != size and a.strides[0] == size and m > 1
    # (a column b counts as transposed, W.T, only beside an untransposed a: with a transposed a the chain starts
    # at the bias, as measured)
    b_transposed = b.strides[1] != size and b.strides[0] == size and (n > 1 or k > 1 and not a_transposed)
    if not _in_order_region(m, k, n, a_transposed, b_transposed, a.itemsize == 8, c is not None):
        return None
    if c is not None and (type(c) is not np.ndarray or c.dtype is not a.dtype or c.shape != (n,)):
        return None
    start = c if c is not None and not b_transposed else None
    out = _chain(a, b, start)
    if c is not None and b_transposed:
        out += c
    return out


def _chain(a, b, start):
    """Each product rounded, then added in order of k to ``start`` (or +0); a new C-contiguous (M, N) array.

    NOTE: the K products are formed in one flat multiply of two operands repeated out to (K, N, M) (or
    (K, M, N), whichever puts the longer of M and N last): NumPy's broadcast multiply of a (200,) by an (8,)
    took 7-20 µs here (its loop with a stride-0 operand), ``np.repeat`` and a flat multiply ~3 µs. NumPy's
    reduction over the first axis of a C-contiguous block with 2 or more lanes last adds its slabs one after
    the other, in order (``core._cascade_sum.in_order`` explains; it handles a single lane)."""
    m, k = a.shape
    n = b.shape[1]
    rows, lanes = (b, a.T) if m >= n else (a.T, b)  # (k, outer) and (k, inner)
    outer, inner = rows.shape[1], lanes.shape[1]
    products = np.repeat(np.ascontiguousarray(rows).reshape(-1), inner)
    products *= np.repeat(np.ascontiguousarray(lanes), outer, axis=0).reshape(-1)
    products = products.reshape(k, outer, inner)
    if start is not None:
        products[0] += start[:, None] if m >= n else start
    acc = np.add.reduce(products, axis=0) if inner >= 2 else in_order(products)
    if start is None:
        acc += 0  # NOTE: the sum starts at +0, so products that are all -0 give +0
    return acc.T.copy() if m >= n else acc  # (a copy: ascontiguousarray keeps a size-1 dim's odd stride)


def mkl_gemm_stack(a, b):
    """``a @ b`` for NumPy stacks (..., M, K) @ (..., K, N) of one float dtype whose batch dims broadcast, each
    matrix added in MKL's order as ``mkl_gemm`` adds one: PyTorch's ``bmm`` above its own small-product loop calls
    MKL's GEMM per matrix (measured: (32, 10, 5) @ (32, 5, 10), (3, 12, 8) @ (3, 8, 8), (5, 6, 7) @ (5, 7, 4) all
    match the per-matrix chain bit for bit, NumPy's matmul 42-50% an ulp off). Both operands' rows contiguous
    only (a transposed stack was not measured); None elsewhere, and the caller keeps NumPy's matmul."""
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
