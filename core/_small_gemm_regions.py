"""Where core knows MKL's small-GEMM orders: the CPUs they were measured on, the sizes past which NumPy's GEMM is kept,
and each route's region of shapes and layouts (the operand checks ``core._small_gemm``'s dispatch asks).

MKL chooses its kernels by CPU: the routes are taken only on the kinds of CPU they were measured on (``ACTIVE``: the
AMD Zen 4 with AVX-512 and the AMD Zen 3 with AVX2), the blocked FMA kernel where NumPy's BLAS gives its chains
(``FMA_BLOCKS``, ``core._small_gemm_blocks``). Each region says which measured kernel a product of a shape and
layout takes (``core._small_gemm`` and the route modules' docstrings say what was measured).
"""

from __future__ import annotations

import numpy as np

from core import _cpu, _openblas_chains
from core._threads import get_num_threads

__all__ = ["ACTIVE", "CHAIN_LIMIT", "DOT_HEAD_LIMIT", "DOT_LIMIT", "FMA_BLOCKS", "FMA_BLOCKS_LIMIT", "GEMV_LIMIT",
           "LIMIT", "PADDED_CHAINS", "blas_ready"]


def _measured_cpu() -> bool:
    """Whether this machine is the kind the regions were measured on: an AMD CPU of family 25 (Zen 3 or Zen 4).

    NOTE: MKL picks its small-GEMM kernels by CPU vendor and instruction set. On the machine an earlier rule was
    measured on (``Linear(1, n)``'s bias fused into the product, in ``core.nn.functional.misc``), torch 2.13
    rounds differently from this one, so elsewhere core keeps NumPy's GEMM rather than guess. The chain, the dot
    kernels, gemv and the remainder rows were measured on a Zen 4 (AVX-512) and hold on a Zen 3 (AVX2, family 25
    model 1: 600 random products, M 1..79, K 1..399, N 1..13, with and without a bias, ``b`` either way, one and two
    threads, all bit for bit, 2026-12-07), and so does the blocked FMA kernel (``FMA_BLOCKS``). (The CPU is read
    once, in ``core._cpu``.)"""
    return _cpu.VENDOR == "AuthenticAMD" and _cpu.FAMILY == "25" and {"avx2", "fma"} <= _cpu.FLAGS


ACTIVE = _measured_cpu()  # whether mkl_gemm follows MKL here (else it always answers None)
# NOTE: whether MKL's float32 kernel for M >= 4, N >= 12 is ``_fma_blocks``: on the Zen 4 (AVX-512) and the Zen 3
# (AVX2) MKL takes the same order; on the Zen 3 NumPy's OpenBLAS (its Haswell kernel) computes the blocks' chains
# only for padded operands (``core._openblas_chains``, which checks it once: else NumPy's GEMM is kept)
_AVX512 = "avx512f" in _cpu.FLAGS
FMA_BLOCKS = ACTIVE and (_AVX512 or _openblas_chains.chains_hold())
PADDED_CHAINS = FMA_BLOCKS and not _AVX512  # (NumPy's float32 FMA chains come from padded operands here)
LIMIT = 1 << 16  # multiply-adds above which a product keeps NumPy's GEMM (the chain costs ~1 ns each, BLAS far less)
# NOTE: multiply-adds above which a float32 product keeps NumPy's one GEMM rather than MKL's blocks: the blocks are
# one GEMM each plus a sum, ~1.7x NumPy's time at 1024x1024x1024 (issue #23's matmul row, met at 1.01x before them);
# a tutorial MLP's 1024-wide Linear on a batch of 32 (33.5M) or 256-cube (16.7M) keeps PyTorch's bits
FMA_BLOCKS_LIMIT = 1 << 27
GEMV_LIMIT = 1 << 20  # multiply-adds above which a one-column (one-row) float32 product keeps NumPy's (~1 ns each)
DOT_LIMIT = 1 << 18  # multiply-adds above which x @ W.T of 12+ outputs (2 or 3 rows) keeps NumPy's GEMM (~2 ns each)
# NOTE: multiply-adds up to which x @ W.T of 2..11 outputs (a classification head) takes the dot kernels, a block of
# ``_DOT_BLOCK`` products at a time (~0.7 ns each, NumPy's one-thread GEMM ~0.1: a 256-row batch through 1024 -> 10
# 1.7 ms); measured bit for bit up to 2^27 (M 2..1500, K 1..3000, one and two threads)
DOT_HEAD_LIMIT = 1 << 23
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
# NOTE: multiply-adds up to which a float32 ``a @ b`` of 2, 3, 4 or 8 columns (``b`` untransposed: ``x @ W`` by hand,
# a narrow layer's weight gradient ``g.T @ x``, einsum's bmm) is the in-order chain past ``LIMIT``, a block of rows
# at a time (measured bit for bit: 180 random products, M 2..3000, K 6..4000, ``a`` row-major or transposed, with
# and without a bias, one and two threads)
CHAIN_LIMIT = 1 << 23
_NARROW = (2, 3, 4, 8)


def _in_order_region(m: int, k: int, n: int, a_transposed: bool, b_transposed: bool, double: bool,
                     bias: bool) -> bool:
    """Whether MKL's GEMM of this shape and layout adds the K products in order without FMA (``core._small_gemm``'s
    docstring)."""
    if m >= 4 and n >= 12 or double and n == 3:
        return False
    if n == 1:  # (a column b: a contiguous one reads the same either way; a row's transpose, W.T, up to K = 4)
        return k == 1 or a_transposed or k == 2 and not bias or b_transposed and k <= 4
    if b_transposed:  # (one row: N of 2 or 3 up to K = 11, 4 up to K = 4, W at any offset)
        return k <= 2 or (n <= 3 and k <= 3) or (n in (2, 3) and k <= 5) \
            or m == 1 and not double and (n in (2, 3) and k <= 11 or n == 4 and k <= 4)
    return m == 1 or n in (2, 3) or n % 4 == 0 or k <= 5


def blas_ready(p):
    """An operand as ATen's addmm hands it to BLAS: an expanded one (a zero stride over more than one element, a
    sum's gradient) has no valid leading dimension, so PyTorch copies it contiguous first (a fresh, aligned buffer,
    whose address and layout MKL's order follows)."""
    if type(p) is np.ndarray and p.ndim == 2 \
            and (p.strides[0] == 0 and p.shape[0] > 1 or p.strides[1] == 0 and p.shape[1] > 1):
        return np.ascontiguousarray(p)
    return p


def _split_rows(m, k, n) -> bool:
    """Whether MKL on two or more threads hands the last ``M % 4`` rows of this float32 product (M >= 4, N >= 12) to
    its few-row kernels: M of 5..11 not a multiple of 4, N over 100, or K over 4 with N over 16, or K over 16
    (measured: M 5..24, N 12..1000, K 2..1000, the three layouts; M of 12 or more never)."""
    return 4 < m < 12 and m % 4 and (n > 100 or k > 4 and (n > 16 or k > 16)) and get_num_threads() >= 2


def _remainder_region(m, k, n, b_transposed, size) -> bool:
    """Whether this float32 product takes MKL's kernel for N of 5, 6, 7, 9, 10 or 11 with ``b`` untransposed: 2 or more
    rows, K of 6 or more, at most ``LIMIT`` multiply-adds; or 2 or 3 rows with N of 13 or more not a multiple of 4, up
    to ``CHAIN_LIMIT`` (``core._small_gemm_chain``'s docstring)."""
    if size != 4 or b_transposed or m < 2 or k < 6:
        return False
    if m < 4 and n > 12 and n % 4 != 0:  # (a Linear(N, 2)'s weight gradient g.T @ x: past LIMIT too)
        return m * n * k <= CHAIN_LIMIT
    return n in (5, 6, 7, 9, 10, 11) and m * n * k <= LIMIT


def _dot_region(m, k, n, a, size) -> bool:
    """Whether ``x @ W.T`` (``b`` transposed) takes MKL's dot-product kernels here: float32, 2 or more rows of
    ``x`` with contiguous rows, 2 or more outputs, fewer than 12 outputs once there are 4 rows, at most
    ``DOT_LIMIT`` multiply-adds (``core._small_gemm_dot``'s docstring). NOTE: the order follows the rows' addresses,
    so x's rows must lie as PyTorch's do: forwards, K or more apart; an expanded x (rows 0 apart) is a contiguous copy
    in PyTorch (BLAS's lda >= K), and in ``_dot_kernels``."""
    return size == 4 and m >= 2 and n >= 2 and (m < 4 or n < 12) \
        and m * n * k <= (DOT_HEAD_LIMIT if n < 12 else DOT_LIMIT) \
        and (a.strides[1] == size or k == 1) and (a.strides[0] >= k * size or a.strides[0] == 0)


def _gemv_region(x, v) -> bool:
    """Whether ``x @ v`` (``v`` (K, 1)) of a float32 product of one column (``x @ W.T`` of a ``Linear(K, 1)``,
    ``x @ w``) or one row (``w @ x.T``, seen transposed) takes MKL's gemv kernels as ``_gemv`` reproduces them:
    ``x`` with contiguous rows lying forwards (or expanded), ``v`` contiguous."""
    size = x.itemsize
    return x.shape[1] >= 1 and (x.strides[1] == size or x.shape[1] == 1) \
        and (x.strides[0] >= x.shape[1] * size or x.strides[0] == 0) and (v.strides[0] == size or v.shape[0] == 1)
