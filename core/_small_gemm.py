"""Small float32/float64 matrix products in the order PyTorch's CPU GEMM (MKL's sgemm/dgemm) adds them.

PyTorch's ``mm``/``addmm`` (so ``matmul``, ``F.linear`` and their backward products) call MKL's GEMM, which
rounds differently from NumPy's OpenBLAS in the last bit; the drift then grows over a training loop. Measured
against torch 2.13 (MKL 2024.2, AMD EPYC Zen 4 with AVX-512, one and two threads, operands at several storage
offsets, thousands of random shapes), a product ``a @ b`` of an (M, K) ``a`` and a (K, N) ``b`` is, in these
regions, an **in-order multiply-add chain without FMA**: each product rounded, then added to the accumulator
for k = 0..K-1 (the same rule as PyTorch's own small ``bmm`` loop, ``core.ops.linalg._naive_bmm``):

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

**MKL's dot kernels** (``_dot_kernels``): ``x @ W.T`` (``b`` transposed, ``x``'s rows contiguous) of 2 or more
rows and 2 or more outputs outside the chain's region, except M >= 4 with N >= 12, float32, at any size (a 10-class
head on a batch of 256 from 1024 features too: measured 240 random products, M 2..1500, K 1..3000, N 2..11, up to
2^27 multiply-adds, one and two threads, x at offsets 0..3 floats, all bit for bit). Each output is a dot
of x's row and W's row, W's rows 4 at a time in 4 lanes and the last ``N % 4`` (all of them for N < 4) in 8
lanes, each product rounded, no FMA: a row that starts p = 1..3 floats before a 16-byte boundary adds its first
p products in order into lane 0; the lanes then take 4 (8) products at a time, each lane adding its own in order;
the lanes are added in halves ((0 + 2) + (1 + 3); 8 lanes first fold 4..7 onto 0..3) and the products after the
last full group are added in order to that; the bias to the finished sum. So the order follows each row's
address mod 16 bytes (W's address does not matter: measured with W at 6 offsets). Measured bit for bit: K 1..5,
6, 7, 9, 10, 13, 16, 17, 30, 33, 40, 50, 64, 100 and 784, N 2..11 (12..100 with M = 2, 3), M 2..400, x at 16
offsets, one and two threads, with and without a bias, and 300 random products (M 2..69, K 1..299, N 2..11, x
at random offsets). NumPy's buffers, like torch's, start on a 16-byte boundary, so a fresh tensor's rows, and
the same view of one, start at the same phase in both (a core tensor kept as a view into a larger buffer where
torch has its own would not). A single row (M = 1) is MKL's gemv, below. Not reproduced: float64
(measured: W's rows 4 at a time follow the same rule with 2 lanes, a peel to 16 bytes = 2 doubles, bit for bit
for K 6..33; the last ``N % 4`` outputs' kernel was not found, 58-73% at best); a transposed ``x``.

**MKL's gemv** (``_gemv``): float32 products with one output per row (``x @ W.T`` of a ``Linear(K, 1)``, ``x @ w``
with w a column or 1-d, ``mv``; 2 or more rows) or one row (``w @ x.T``, and a Linear's forward on one sample:
W's rows are then the matrix), the matrix's rows contiguous, up to ``GEMV_LIMIT`` multiply-adds: dots of the
matrix's rows with the vector, 4 rows at a time with a peel by the matrix's address and row stride, the last
M % 4 rows one at a time with a peel by the vector's address (``_gemv`` says the lanes). One row times x (a
``Linear(K, 1)``'s weight gradient ``g.T @ x``) and a transposed matrix times a column (``g.T @ x`` of one input
feature) are the in-order chain up to ``GEMV_LIMIT`` too (measured: 18 shapes, K 10..2000, M 7..200), and so is one row
times one untransposed column (a ``Linear(1, 1)``'s weight gradient), float32 and float64, from the bias.

**MKL's kernel for N of 5, 6, 7, 9, 10 or 11, and 2 or 3 rows of N >= 13 not a multiple of 4** (``_remainder_rows``):
float32, ``b`` untransposed (``x @ W`` with W of such a width, a 10-class head written by hand), 2 or more rows, K >= 6,
``a`` either way: the in-order chain above (from the bias), except some of the first columns, chosen by the row's index
mod 4, q (N = 5: the rows q = 3, one column; N = 9: the first 4 - q columns of the rows q = 1..3; N % 4 = 2: the odd
rows, two columns; 3: the first q columns), which take the products in blocks of 4 from k = 0: an even-numbered block's
4 products added in order to the running sum, an odd-numbered block's 4 summed in order apart and that sum added, then
the last K % 4 products in order. Measured bit for bit against torch 2.13: 600 random products with N of 6 or 10 and 328
with 5, 7 or 11 (M 2..100, K 6..2000 up to ``LIMIT``, ``a`` row-major, transposed, at an offset or a strided view, ``b``
at an offset, with and without a bias); the order was read from sums of ones beside one 2^24 (which partial sums meet
before it); N = 9 from 30 random (8, 37) @ (37, 9) products (each output against the chain and the block orders), then
300 random products (M 2..99, K 6..2000 up to ``LIMIT``, ``a`` row-major or transposed, ``b`` at offsets 0..3 floats,
with and without a bias), all bit for bit. 2 or 3 rows with N of 13 or more, not a multiple of 4 (a ``Linear(N, 2)``'s
weight gradient ``g.T @ x``), are the same kernel with N = 9, 10 or 11's columns (N % 4 = 1: the row 1's first 3 columns
and the row 2's first 2; 2: the row 1's first 2; 3: the row 1's first column and the row 2's first 2), up to
``CHAIN_LIMIT`` (measured: per element against the chain and the block order for N 13..22, K 301 and 1000, then 120
random products, M 2..3, K 6..2000, N 13..130, ``a`` row-major or transposed, with and without a bias, one and two
threads, all bit for bit).

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

from core import _blas_threads, _cpu, _openblas_chains
from core._bf16_gemm import gemm_bf16, takes_bf16_order
from core._cascade_sum import in_order
from core._numpy_c import data_address
from core._threads import get_num_threads

try:  # NOTE: np.einsum's Python wrapper costs ~0.7 µs a call (``core._cascade_sum`` calls its C core the same way)
    from numpy._core._multiarray_umath import c_einsum as _einsum
except ImportError:
    _einsum = np.einsum
_KMN, _MN, _KM, _M = [0, 1, 2], [1, 2], [0, 1], [1]  # (einsum's subscripts: sums over the first axis)

__all__ = ["ACTIVE", "FMA_BLOCKS", "LIMIT", "mkl_gemm", "mkl_gemm_stack", "mkl_gemv", "mkl_sdot", "mkl_addbmm"]

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
_BROADCAST_LANES = 16  # lanes from which _chain's products are one broadcast multiply
# NOTE: lanes (M N) up to which _chain's long rows (M < N, no start) are summed by einsum's C core: ~30 ns a slab less
# than ``np.add.reduce`` (2 x 50 lanes, K = 10000: 0.83 -> 0.73 ms); no faster from ~400 lanes (3 x 130, 8 x 200)
_EINSUM_LANES = 256
_FEW_GROUPS = 6  # groups of lanes added one call each rather than by one reduction
_FMA_BLOCK = 192  # k per block of MKL's float32 FMA kernel (M >= 4, N >= 12)
# NOTE: multiply-adds above which a float32 product keeps NumPy's one GEMM rather than MKL's blocks: the blocks are
# one GEMM each plus a sum, ~1.7x NumPy's time at 1024x1024x1024 (issue #23's matmul row, met at 1.01x before them);
# a tutorial MLP's 1024-wide Linear on a batch of 32 (33.5M) or 256-cube (16.7M) keeps PyTorch's bits
FMA_BLOCKS_LIMIT = 1 << 27
# NOTE: multiply-adds up to which the blocks run on one BLAS thread (``core.nn.functional.misc``'s Linear GEMMs do the
# same up to this size): with OpenBLAS's own threads each block's GEMM waits for its workers, whose spinning collapses
# on a loaded machine (two threads, load 7: a 64-row batch through 784 -> 256 took 13.6 ms against 1.8 on one
# thread). The threads split rows and columns, never k, so every element's chains, and the bits, are the same
_ONE_THREAD_BLOCKS = 1 << 26
_CONTIGUOUS_FROM = 1024  # elements of x from which the dot kernels multiply a contiguous copy of x.T
GEMV_LIMIT = 1 << 20  # multiply-adds above which a one-column (one-row) float32 product keeps NumPy's (~1 ns each)
DOT_LIMIT = 1 << 18  # multiply-adds above which x @ W.T of 12+ outputs (2 or 3 rows) keeps NumPy's GEMM (~2 ns each)
# NOTE: multiply-adds up to which x @ W.T of 2..11 outputs (a classification head) takes the dot kernels, a block of
# ``_DOT_BLOCK`` products at a time (~0.7 ns each, NumPy's one-thread GEMM ~0.1: a 256-row batch through 1024 -> 10
# 1.7 ms); measured bit for bit up to 2^27 (M 2..1500, K 1..3000, one and two threads)
DOT_HEAD_LIMIT = 1 << 23
_DOT_BLOCK = 1 << 20  # products (a float32 each) of one block of x's rows in the dot kernels (in cache)
_DTYPES = (np.dtype(np.float32), np.dtype(np.float64))
# NOTE: multiply-adds up to which a float32 ``a @ b`` of 2, 3, 4 or 8 columns (``b`` untransposed: ``x @ W`` by hand,
# a narrow layer's weight gradient ``g.T @ x``, einsum's bmm) is the in-order chain past ``LIMIT``, a block of rows
# at a time (measured bit for bit: 180 random products, M 2..3000, K 6..4000, ``a`` row-major or transposed, with
# and without a bias, one and two threads)
CHAIN_LIMIT = 1 << 23
_NARROW = (2, 3, 4, 8)
_CHAIN_BLOCK = 1 << 20  # products (a float32 each) of one block of rows in ``_chain_by_rows``


def _in_order_region(m: int, k: int, n: int, a_transposed: bool, b_transposed: bool, double: bool,
                     bias: bool) -> bool:
    """Whether MKL's GEMM of this shape and layout adds the K products in order without FMA (module docstring)."""
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


def mkl_gemm(a, b, c=None, *, nested=False):
    """``a @ b`` (+ ``c``, a bias broadcast to the result, as ``addmm`` with beta = alpha = 1) for 2-d NumPy
    arrays of one float dtype, added in MKL's order; None where that order is not known (module docstring): the
    caller then keeps NumPy's GEMM. ``nested``: a call from inside one of PyTorch's parallel loops (its flash
    attention's), where MKL runs on one thread whatever the thread count."""
    if takes_bf16_order(a, b) and a.ndim == 2 and b.ndim == 2 \
            and (c is None or type(c) is np.ndarray and c.dtype is a.dtype and c.shape == b.shape[1:]):
        return gemm_bf16(a, b, c)  # bfloat16: oneDNN's order (core._bf16_gemm)
    a, b = blas_ready(a), blas_ready(b)
    if not ACTIVE or type(a) is not np.ndarray or type(b) is not np.ndarray or a.dtype is not b.dtype \
            or a.dtype not in _DTYPES or a.ndim != 2 or b.ndim != 2:
        return None
    (m, k), n = a.shape, b.shape[1]
    if not (1 if c is None else 0) < k or b.shape[0] != k:
        return None  # (K = 1 without a bias: one rounded product each, NumPy's too)
    size = a.itemsize
    a_transposed = a.strides[1] != size and a.strides[0] == size and m > 1
    # (a column b counts as transposed, W.T, only beside an untransposed a: with a transposed a the chain starts
    # at the bias, as measured)
    b_transposed = b.strides[1] != size and b.strides[0] == size and (n > 1 or k > 1 and not a_transposed)
    if c is not None and (type(c) is not np.ndarray or c.dtype is not a.dtype or c.shape != (n,)):
        return None
    if size == 4 and (n == 1 and m > 1 or m == 1 and b_transposed) and m * n * k <= GEMV_LIMIT:
        # NOTE: one row times W.T is W's row(s) times x's row, also for one output (one row times a contiguous
        # column is another order, not found: measured 7 of 16 address pairs either way)
        x, v = (b.T, a.T) if m == 1 else (a, b)
        if _gemv_region(x, v):
            out = _gemv(x, v, c)
            return out[None] if m == 1 else out[:, None]
    if m == n == 1 and not b_transposed and k <= GEMV_LIMIT:
        # NOTE: one row times one column (a Linear(1, 1)'s weight gradient, x.view(1, k) @ y.view(k, 1)): the chain
        # from the bias, float32 and float64, at any address or row/column stride (measured: 240 random products, K
        # 2..100000, one and two threads; NumPy's dot differed in up to 95%)
        return _chain(a, b, c)
    if size == 4 and (m == 1 and n > 1 and not b_transposed or n == 1 and a_transposed) and m * n * k <= GEMV_LIMIT:
        # (one row times x, a Linear(K, 1)'s weight gradient, and g.T times a column, a Linear(1, N)'s or an
        # LSTM's of one input feature: the chain past LIMIT too, from the bias)
        return _chain(a, b, c)
    if m >= 4 and n >= 12 and size == 4 and not FMA_BLOCKS:
        return None  # (NumPy's BLAS does not give the blocks' chains here: FMA_BLOCKS)
    if m >= 4 and n >= 12 and size == 4 and m * n * k <= FMA_BLOCKS_LIMIT:
        if not nested and _split_rows(m, k, n) \
                and (not b_transposed or a.strides[1] == size and a.strides[0] >= k * size):
            return _split_blocks(a, b, c, b_transposed)
        if m * n * k <= _ONE_THREAD_BLOCKS:
            return _blas_threads.run_single_threaded(_fma_blocks, a, b, c)
        return _fma_blocks(a, b, c)
    if size == 4 and not b_transposed and n in _NARROW and m >= 2 and LIMIT < m * n * k <= CHAIN_LIMIT:
        return _chain_by_rows(a, b, c)
    if k > LIMIT // (m * n or LIMIT) \
            or not _in_order_region(m, k, n, a_transposed, b_transposed, a.itemsize == 8, c is not None):
        if _remainder_region(m, k, n, b_transposed, size):
            return _remainder_rows(a, b, c)
        if not (b_transposed and _dot_region(m, k, n, a, size)):
            return None
        out = _dot_kernels(a, b) if m * n * k <= DOT_LIMIT else _dot_kernels_by_rows(a, b)
        if c is not None:
            out += c
        return out
    start = c if c is not None and not b_transposed else None
    out = _chain(a, b, start)
    if c is not None and b_transposed:
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


_SDOT_SPLIT = 8192  # float32 dots of this many elements or more MKL splits between two threads (measured: 8191 one)


def mkl_sdot(x, y):
    """``dot(x, y)`` of two float32 vectors in MKL's sdot order (PyTorch's ``dot``, ``inner`` of two vectors), or
    None (NumPy's dot is kept). Each product is rounded, no FMA. With both vectors contiguous the order follows their
    addresses mod 16 bytes (``_sdot_aligned``/``_sdot_unaligned``); with either one strided it is the in-order chain.
    On two threads a dot of ``_SDOT_SPLIT`` or more elements is two dots, of the first ceil(n / 2) elements and the
    rest, added (with more threads MKL splits otherwise: None there). Measured against torch 2.13 on the AMD Zen 4
    with the sums-of-ones probe (every pair of elements: which partial sums meet) for every length up to 40 and 100,
    131 at both vectors' offsets 0..7 floats, then bit for bit on random vectors of 1..10^6 elements at random
    offsets, one and two threads, strided views of strides 1..3."""
    if not ACTIVE or type(x) is not np.ndarray or type(y) is not np.ndarray or x.dtype != np.float32 \
            or y.dtype != np.float32 or x.ndim != 1 or y.ndim != 1 or x.shape != y.shape:
        return None
    n = x.shape[0]
    if n and (x.strides[0] <= 0 or y.strides[0] <= 0):
        return None
    threads = get_num_threads()
    if n >= _SDOT_SPLIT and threads > 1:
        if threads > 2:
            return None
        half = -(-n // 2)
        return np.asarray(_sdot_one(x[:half], y[:half]) + _sdot_one(x[half:], y[half:]), np.float32)
    return np.asarray(_sdot_one(x, y), np.float32)


def _sdot_one(x, y):
    """One thread's sdot of float32 vectors ``x``, ``y`` (a float32 scalar)."""
    n = x.shape[0]
    p = x * y
    if x.strides[0] != 4 or y.strides[0] != 4:
        return _sdot_chain(None, p)
    # the first (16 - y's address mod 16) / 4 products (a peel to y's 16-byte boundary) go in order into lane 0
    peel = min(-(data_address(y) % 16 // 4) % 4, n)
    if (data_address(x) + 4 * peel) % 16 == 0:
        return _sdot_aligned(p, peel)
    return _sdot_unaligned(p, peel)


def _sdot_chain(start, p):
    """``start + p[0] + p[1] + ...`` in order, a float32 scalar (``p[0] + ...`` for a None start; 0 for none)."""
    if start is not None:
        p = np.concatenate((np.asarray([start], np.float32), p))
    return np.cumsum(p, dtype=np.float32)[-1] if p.size else np.float32(0)


def _sdot_aligned(p, peel):
    """sdot's kernel once both vectors sit on a 16-byte boundary after the peel: 16 lanes (4 vectors of 4) take 16
    products a step, each lane adding its own in order, lane 0 from the peel's sum; then 8 more into lanes 0..7 and 4
    into 0..3 where that many are left, the rest in order into lane 0; the 4 vectors added in order and their lanes
    in halves, ``(l0 + l2) + (l1 + l3)``."""
    n = p.shape[0]
    i = peel
    steps = (n - i) // 16
    lanes = in_order(p[i:i + 16 * steps].reshape(steps, 16)) if steps else np.zeros(16, np.float32)
    if peel:
        lanes[0] = _sdot_chain(_sdot_chain(None, p[:peel]), p[i:i + 16 * steps:16])
    i += 16 * steps
    for width in (8, 4):
        if n - i >= width:
            lanes[:width] += p[i:i + width]
            i += width
    lanes[0] = _sdot_chain(lanes[0], p[i:])
    v = ((lanes[0:4] + lanes[4:8]) + lanes[8:12]) + lanes[12:16]
    return (v[0] + v[2]) + (v[1] + v[3])


def _sdot_unaligned(p, peel):
    """sdot's kernel when ``x`` is off the 16-byte boundary after the peel: the next 4 products in 4 lanes, lane 0
    from the peel's sum, then every later product in order into lane 0; the lanes added ``(l0 + l2) + (l1 + l3)``
    (fewer than 4 left after the peel: all in order)."""
    n = p.shape[0]
    head = _sdot_chain(None, p[:peel]) if peel else None
    if n - peel < 4:
        return _sdot_chain(head, p[peel:])
    lanes = p[peel:peel + 4].copy()
    lanes[0] = _sdot_chain(head, p[peel:peel + 1])
    lanes[0] = _sdot_chain(lanes[0], p[peel + 4:])
    return (lanes[0] + lanes[2]) + (lanes[1] + lanes[3])


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


def _split_rows(m, k, n) -> bool:
    """Whether MKL on two or more threads hands the last ``M % 4`` rows of this float32 product (M >= 4, N >= 12) to
    its few-row kernels: M of 5..11 not a multiple of 4, N over 100, or K over 4 with N over 16, or K over 16
    (measured: M 5..24, N 12..1000, K 2..1000, the three layouts; M of 12 or more never)."""
    return 4 < m < 12 and m % 4 and (n > 100 or k > 4 and (n > 16 or k > 16)) and get_num_threads() >= 2


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


def _remainder_region(m, k, n, b_transposed, size) -> bool:
    """Whether this float32 product takes MKL's kernel for N of 5, 6, 7, 9, 10 or 11 with ``b`` untransposed: 2 or more
    rows, K of 6 or more, at most ``LIMIT`` multiply-adds; or 2 or 3 rows with N of 13 or more not a multiple of 4, up
    to ``CHAIN_LIMIT`` (module docstring: ``_remainder_rows``)."""
    if size != 4 or b_transposed or m < 2 or k < 6:
        return False
    if m < 4 and n > 12 and n % 4 != 0:  # (a Linear(N, 2)'s weight gradient g.T @ x: past LIMIT too)
        return m * n * k <= CHAIN_LIMIT
    return n in (5, 6, 7, 9, 10, 11) and m * n * k <= LIMIT


def _remainder_rows(a, b, c):
    """``a @ b`` (+ ``c``) for N of 5, 6, 7, 9, 10 or 11 (2 or 3 rows: any N >= 13 not a multiple of 4), ``b``
    untransposed, as MKL adds it (module docstring): the in-order chain (``_chain``, from the bias), but some of the
    first columns take the products k in blocks of 4 from k = 0, an even block's 4 added in order to the running sum,
    an odd block's summed in order apart and that sum added, then the last K % 4 in order. Which ones follows the
    row's index mod 4, q: for N = 5 the rows q = 3 (one column), for N = 9 (13, 17, ...) the first 4 - q columns of
    the rows q = 1..3; for N % 4 = 2 the odd rows, both columns; for 3 the first q columns. A new C-contiguous (M, N)
    array.

    NOTE: the running sum's steps are laid out as slabs (the even blocks' products, the odd blocks' sums, the tail)
    and added in order (``in_order``), each kind of row (q) in one go; the slabs are written into one array a
    pair of blocks at a time, k along each lane's row (``_block_slabs``), not gathered from a list of per-block pieces
    (2 rows, K = 10000, N = 50: 2.6 -> 1.2 ms with ``_chain``'s einsum, the same bits: NumPy's GEMM 0.15 ms;
    ``test_small_gemm_remainder_rows_unchanged``)."""
    out = _chain(a, b, c)
    r = b.shape[1] % 4
    for q in range(1, 4):
        cols = {1: int(q == 3) if b.shape[1] == 5 else 4 - q, 2: 2 * (q % 2), 3: q}[r]
        rows = a[q::4]
        if not cols or not rows.shape[0]:
            continue
        slabs = _block_slabs(rows, b[:, :cols]).T  # (steps, rows * cols): a view of the lanes' rows
        if c is not None:
            slabs[0] += np.tile(c[:cols], rows.shape[0])
        total = in_order(slabs) if c is not None else in_order(slabs) + 0  # NOTE: from +0 without a bias, as _chain
        out[q::4, :cols] = total.reshape(-1, cols)
    return out


def _block_slabs(rows, cols):
    """The steps of ``_remainder_rows``' running sum of ``rows`` (R, K) times ``cols`` (K, C), in order, one row per
    lane (r C + c): each even-numbered block of 4 products as its 4 steps, each odd-numbered one as one step, the sum of
    its 4 in order, then the last K % 4 products. A new C-contiguous (R C, steps) array.

    NOTE: k runs along each lane's row (the products as one (R, C, K) multiply), so every call below has long inner
    loops; laid out (K, R, C) as the kernel adds them, the few lanes made each inner loop 2 or 3 elements long."""
    k = rows.shape[1]
    products = np.multiply(rows[:, None, :], cols.T[None, :, :]).reshape(-1, k)  # (lanes, k)
    lanes, blocks = products.shape[0], k // 4
    pairs, lone = blocks // 2, blocks % 2
    grouped = products[:, :blocks * 4].reshape(lanes, blocks, 4)
    slabs = np.empty((lanes, 5 * pairs + 4 * lone + k % 4), products.dtype)
    paired = slabs[:, :5 * pairs].reshape(lanes, pairs, 5)
    paired[:, :, :4] = grouped[:, 0:2 * pairs:2]
    odd = grouped[:, 1::2]
    sums = paired[:, :, 4]
    np.add(odd[:, :, 0], odd[:, :, 1], out=sums)
    sums += odd[:, :, 2]
    sums += odd[:, :, 3]
    if lone:
        slabs[:, 5 * pairs:5 * pairs + 4] = grouped[:, blocks - 1]
    slabs[:, 5 * pairs + 4 * lone:] = products[:, blocks * 4:]
    return slabs


def _dot_region(m, k, n, a, size) -> bool:
    """Whether ``x @ W.T`` (``b`` transposed) takes MKL's dot-product kernels here: float32, 2 or more rows of
    ``x`` with contiguous rows, 2 or more outputs, fewer than 12 outputs once there are 4 rows, at most
    ``DOT_LIMIT`` multiply-adds (module docstring). NOTE: the order follows the rows' addresses, so x's rows must
    lie as PyTorch's do: forwards, K or more apart; an expanded x (rows 0 apart) is a contiguous copy in PyTorch
    (BLAS's lda >= K), and in ``_dot_kernels``."""
    return size == 4 and m >= 2 and n >= 2 and (m < 4 or n < 12) \
        and m * n * k <= (DOT_HEAD_LIMIT if n < 12 else DOT_LIMIT) \
        and (a.strides[1] == size or k == 1) and (a.strides[0] >= k * size or a.strides[0] == 0)


def _dot_kernels(a, b):
    """``a @ b`` (a (M, K) x with contiguous rows, b = W.T) as MKL's float32 dot kernels add it (module docstring):
    each output a dot of x's row and W's row, W's rows 4 at a time in 4 lanes and the last ``N % 4`` (N < 4: all)
    in 8 lanes; products rounded, no FMA. A row starting p elements before a 16-byte boundary adds its first p
    products in order into lane 0; then the lanes take ``lanes`` products at a time, each adding its own in
    order; the lanes are added in halves ((0 + 2) + (1 + 3) for 4; 8 first folds 4..7 onto 0..3), and the tail
    (products past the last full group) is added in order to that. A new C-contiguous (M, N) array.

    NOTE: rows ``period`` apart start at the same address mod 16 bytes, so each kind of row is a strided slice
    (one kind when the row stride is a multiple of 4 floats, 2 or 4 otherwise); W's rows go a kernel at a time. A
    product too short to fill one group of lanes after its peel is the in-order chain (``_chain``)."""
    m, k = a.shape
    n = b.shape[1]
    if a.strides[0] == 0:
        a = np.ascontiguousarray(a)  # (a fresh buffer starts on a 16-byte boundary, as PyTorch's copy)
    start, step = data_address(a) // 4, a.strides[0] // 4
    if not step % 4 and (not n % 4 or n < 4):  # (one kind of row, one kernel: the usual Linear)
        peel = min(-start % 4, k)
        if k - peel < (4 if n >= 4 else 8):
            return _chain(a, b, None)
        return np.ascontiguousarray(_dot_lanes(a, b, peel, 4 if n >= 4 else 8).T)
    if not step % 4:  # (one kind of row, both kernels: a 10-class head)
        peel = min(-start % 4, k)
        return _chain(a, b, None) if k - peel < 4 else _two_kernels(a, b, peel)
    period = min(4 // math.gcd(step, 4), m)
    peels = [min(-(start + row * step) % 4, k) for row in range(period)]
    four = n // 4 * 4
    groups = [(cols, lanes) for cols, lanes in ((slice(0, four), 4), (slice(four, n), 8)) if cols.start < cols.stop]
    if all(k - min(peels) < lanes for _, lanes in groups):
        return _chain(a, b, None)
    out = np.empty((m, n), np.float32)
    for row, peel in enumerate(peels):
        rows = slice(row, None, period)
        for cols, lanes in groups:
            out[rows, cols] = _dot_lanes(a[rows], b[:, cols], peel, lanes).T
    return out


def _dot_kernels_by_rows(a, b):
    """``_dot_kernels`` of a product above ``DOT_LIMIT``: blocks of 4j of x's rows, each ``_DOT_BLOCK`` products or
    fewer, one call each (each output's order follows only its own row and address: the same bits, its products in
    cache; one thread, load-noisy: 1024x1024 by 8 outputs 31 -> 20 ms, 1500x2000 by 5 50 -> 15). A new C-contiguous
    (M, N) array."""
    (m, k), n = a.shape, b.shape[1]
    if a.strides[0] == 0:
        a = np.ascontiguousarray(a)  # (as _dot_kernels: a fresh buffer starts on a 16-byte boundary)
    rows = max(4, _DOT_BLOCK // (n * k) // 4 * 4)
    out = np.empty((m, n), np.float32)
    for start in range(0, m, rows):
        out[start:start + rows] = _dot_kernels(a[start:start + rows], b)
    return out


def _two_kernels(x, b, peel):
    """``_dot_kernels`` of x's rows all at one peel with N > 4 not a multiple of 4 (a 10-class head): W's first
    ``N // 4 * 4`` rows in 4 lanes, the rest in 8, from one multiply. A new C-contiguous (M, N) array.

    NOTE: the products are laid out (N, K, M): W repeated along its rows (each weight M times) times x.T's elements
    repeated N times, one multiply with inner loops K M long. ``_dot_lanes``' (K, N, M) broadcast multiply runs N K
    inner loops of M elements (a (64, 128) x by 10 outputs: 1,280 loops, ~23 µs of its ~65; this route ~40 in all)."""
    (m, k), n = x.shape, b.shape[1]
    four = n // 4 * 4
    products = b.T.repeat(m, axis=1)  # (N, K M): W's element (n, k) at [n, k M : (k + 1) M]
    products *= np.ascontiguousarray(x.T).reshape(-1)  # (each product W x, as _dot_lanes' operands' order)
    products = products.reshape(n, k, m)
    out = np.empty((n, m), np.float32)
    _lane_sums(products[:four], peel, 4, out[:four])
    _lane_sums(products[four:], peel, 8, out[four:])
    out += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return np.ascontiguousarray(out.T)


def _lane_sums(products, peel, lanes, total):
    """``_dot_lanes``' sums for products laid out (N, K, M), into ``total`` (N, M): the same adds in the same order,
    but for the last ``+ 0`` (the caller's, once for both kernels).

    NOTE: the groups of lanes are summed by one reduction over their axis, each element's slabs in order (the
    reduced axis is not the inner one: NumPy's pairwise sum is only along an inner loop, as ``_chain`` says)."""
    n, k, m = products.shape
    body = (k - peel) // lanes
    if peel or not body:
        np.copyto(total, products[:, 0])
        for i in range(1, peel):
            total += products[:, i]
    if body:
        if peel:
            products[:, peel] += total  # lane 0 starts at the peeled products' sum
        groups = products[:, peel:peel + body * lanes].reshape(n, body, lanes * m)
        if body > _FEW_GROUPS:
            acc = np.add.reduce(groups, 1)
        else:
            acc = groups[:, 0] + groups[:, 1] if body > 1 else groups[:, 0]
            for i in range(2, body):
                acc += groups[:, i]
        acc = acc.reshape(n, lanes, m)
        if lanes == 8:
            acc = acc[:, :4] + acc[:, 4:]
        acc = acc[:, :2] + acc[:, 2:]  # (lanes 0 + 2 and 1 + 3 in one call)
        np.add(acc[:, 0], acc[:, 1], out=total)
    for i in range(peel + body * lanes if body or peel else 1, k):
        total += products[:, i]


def _dot_lanes(x, b, peel, lanes):
    """One kind of row's dots (the rows of ``x`` start ``peel`` elements before a 16-byte boundary) with the
    columns of ``b``, in ``lanes`` lanes as ``_dot_kernels`` says: an (N, M) array.

    NOTE: the products are laid out (K, N, M), C-contiguous (a broadcast multiply without ``out`` lays them
    out as its operands are, K last), so the lanes' sums over k are in-order sums of whole blocks (one reduction
    over the first axis past a few blocks, as ``_chain``'s)."""
    (m, k), n = x.shape, b.shape[1]
    products = np.empty((k, n, m), np.float32)
    if k * m >= _CONTIGUOUS_FROM:  # (x.T's rows contiguous: its strided multiply took 37 µs for 64x128x8, 24)
        x = np.ascontiguousarray(x.T).T
    np.multiply(b[:, :, None], x.T[:, None, :], out=products)
    body = (k - peel) // lanes
    total = products[0].copy() if peel or not body else None
    for i in range(1, peel):
        total += products[i]
    if body:
        if peel:
            products[peel] += total  # lane 0 starts at the peeled products' sum
        groups = products[peel:peel + body * lanes].reshape(body, lanes, n, m)
        if body > _FEW_GROUPS:
            acc = np.add.reduce(groups.reshape(body, -1), 0).reshape(groups.shape[1:])  # in order (_chain)
        else:
            acc = groups[0] + groups[1] if body > 1 else groups[0]
            for i in range(2, body):
                acc += groups[i]
        if lanes == 8:
            acc = acc[:4] + acc[4:]
        acc = acc[:2] + acc[2:]  # (lanes 0 + 2 and 1 + 3 in one call)
        total = acc[0] + acc[1]
    for i in range(peel + body * lanes if body or peel else 1, k):
        total += products[i]
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


def _gemv_region(x, v) -> bool:
    """Whether ``x @ v`` (``v`` (K, 1)) of a float32 product of one column (``x @ W.T`` of a ``Linear(K, 1)``,
    ``x @ w``) or one row (``w @ x.T``, seen transposed) takes MKL's gemv kernels as ``_gemv`` reproduces them:
    ``x`` with contiguous rows lying forwards (or expanded), ``v`` contiguous."""
    size = x.itemsize
    return x.shape[1] >= 1 and (x.strides[1] == size or x.shape[1] == 1) \
        and (x.strides[0] >= x.shape[1] * size or x.strides[0] == 0) and (v.strides[0] == size or v.shape[0] == 1)


def _gemv(x, v, c):
    """``x @ v`` (+ ``c``) for an (M, K) ``x`` and a (K, 1) ``v``, an (M,) array, as MKL's float32 gemv adds it:
    each output a dot of one of x's rows with the vector, products rounded, no FMA. x's rows go 4 at a time
    through a kernel whose peel follows x's address and row stride: with x starting ``s`` floats past a 16-byte
    boundary and its rows ``lda`` floats apart (K for a contiguous x), the first ``(lda - s - 1) % 4 + 1`` products
    are added in order into lane 0, the rest in 4 lanes (lane j the products
    j, j + 4, ... after the peel), added ((0 + 2) + (1 + 3)). The last M % 4 rows (all of them below 4) go one at a
    time; their peel, p = 4 - (the vector's address in floats mod 4), products in order into lane 0; then the
    1st and 3rd of them take groups of 8 products in 8 lanes (folded 4..7 onto 0..3, then halves), the 2nd pairs of
    groups of 4 in 4 lanes; the products past the last whole group of 8 are added in order to the lanes' sum.
    ``c`` (one value per output) is added to the finished sums. (One output, a row times W.T, takes W's row as
    ``x``: measured.)

    NOTE: read from sums of ones beside one 2^24 (which products meet before it), then measured bit for bit
    against torch 2.13's ``F.linear`` (with and without a bias), ``x @ W.T``, ``x @ w`` with w a column or 1-d,
    ``mv`` and ``w @ x.T``: 400 random products (M 1..300, K 5..2000, x and w each at any offset mod 64 bytes)."""
    m, k = x.shape
    if x.strides[0] == 0:
        x = np.ascontiguousarray(x)  # (a fresh buffer starts on a 16-byte boundary, as PyTorch's copy)
    out = np.empty(m, np.float32)
    blocks = m // 4 * 4
    if blocks:
        phase = data_address(x) // 4 % 4
        out[:blocks] = _gemv_blocks(x[:blocks], v[:, 0], min((x.strides[0] // 4 - phase - 1) % 4 + 1, k))
    if blocks < m:
        _gemv_last_rows(x, v, blocks, out)
    if c is not None:
        out += c
    return out


def _gemv_last_rows(x, v, blocks, out):
    """``_gemv``'s last M % 4 rows, from row ``blocks``, into ``out``: one at a time, the peel by the vector's
    address, 8 lanes for the 1st and 3rd, 4 for the 2nd (``_gemv`` says the order)."""
    m, k = x.shape
    peel = min(4 - data_address(v) // 4 % 4, k)
    cut = peel + (k - peel) // 8 * 8
    for first, lanes in ((blocks, 8), (blocks + 1, 4)):  # (the 1st and 3rd of the last rows, then the 2nd)
        rows = slice(first, m, 2) if lanes == 8 else slice(first, min(first + 1, m))
        if first >= m:
            continue
        total = _dot_lanes(x[rows, :cut], v[:cut], peel, lanes)[0]
        if cut < k:
            tail = x[rows, cut:] * v[cut:, 0]  # (at most 7 products a row, in one multiply)
            for i in range(k - cut):
                total += tail[:, i]
        out[rows] = total


def _gemv_blocks(x, v, peel):
    """``_gemv``'s rows in blocks of 4: the first ``peel`` products in order, then 4 lanes from lane 0 at that sum,
    added ((0 + 2) + (1 + 3)), then the products past the last whole group in order; an (M,) array.

    NOTE: the products are one multiply laid out as x is, (M, K); their groups of 4 (16 bytes, seen as one void
    item: a copy moves their bits as they are) are then transposed to (groups, M, 4), a quarter of the items a
    float32 transpose moves (512x784: 166 µs against 325 for the copy of x.T and its multiply), so the lanes' sums
    are in-order sums of whole (M, 4) slabs (``in_order``)."""
    m, k = x.shape
    groups = (k - peel) // 4
    if groups <= 1 and m >= 2:
        return _gemv_one_group(x, v, peel, groups)
    products = x * v  # (M, K), each product rounded
    total = products[:, 0].copy()
    for i in range(1, peel):
        total += products[:, i]
    if groups:
        products[:, peel] += total  # lane 0 starts at the peeled products' sum
        body = products[:, peel:peel + groups * 4]
        if groups > 1:
            slabs = np.ascontiguousarray(body.view(_LANES_ITEM).T)  # (groups, M)
            slabs = slabs.view(np.float32).reshape(groups, m * 4)
            # (a few slabs: NumPy's reduction over the first axis, in order as ``_chain``'s, without einsum's
            # ~2-3 µs of Python; more: ``in_order``)
            lanes = (np.add.reduce(slabs, 0) if groups <= _REDUCED_SLABS else in_order(slabs)).reshape(m, 4)
        else:  # (one group: the lanes as they lie; adding 2 or more where they lie, (M, 4) at a time, is slower)
            lanes = body
        halves = lanes[:, :2] + lanes[:, 2:]  # (lanes 0 + 2 and 1 + 3 in one call)
        total = halves[:, 0] + halves[:, 1]
    for i in range(peel + groups * 4, k):  # (at most 3)
        total += products[:, i]
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


def _gemv_one_group(x, v, peel, groups):
    """``_gemv_blocks`` of a short row (at most one whole group of 4 after the peel: ``groups`` 0 or 1, a
    ``Linear(8, 1)``) and 2 or more rows: the same adds in the same order, an (M,) array.

    NOTE: the products are laid out (K, M), so lane 0 (the peel and the group's first product) is one in-order sum
    of whole rows (einsum's C core from +0: each lane starts at +0) and lanes 1..3 are rows: 5-7 NumPy calls on
    contiguous rows instead of ~11 on strided columns (200x8: 10.3 -> 6.4 µs)."""
    k, m = x.shape[1], x.shape[0]
    products = np.empty((k, m), np.float32)  # (not x.T's layout: a multiply's output follows its operands')
    np.multiply(x.T, v[:, None], out=products)
    total = _einsum(products[:peel + groups], _KM, _M)
    if groups:
        total += products[peel + 2]  # ((0 + 2) + (1 + 3))
        total += products[peel + 1] + products[peel + 3]
    for i in range(peel + groups * 4, k):  # (at most 3)
        total += products[i]
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


_LANES_ITEM = np.dtype("V16")  # four float32 lanes as one item (``_gemv_blocks``)
_REDUCED_SLABS = 32  # groups of 4 up to which ``_gemv_blocks`` sums its slabs with np.add.reduce (measured)


def _chain(a, b, start):
    """Each product rounded, then added in order of k to ``start`` (or +0); a new C-contiguous (M, N) array.

    NOTE: NumPy's reduction over the first axis of a block with 2 or more contiguous lanes last adds its slabs one
    after the other, in order (``core._cascade_sum.in_order`` explains; it handles a single lane). A long row of
    lanes (``_BROADCAST_LANES`` or more) is one broadcast multiply into (K, N, M) or (K, M, N), whichever puts the
    longer of M and N last, added along k by one reduction straight into the result (its transpose for (K, N, M));
    without ``start`` from +0, so products that are all -0 give +0 as MKL's (``initial=0``, or einsum's C core as
    below up to ``_EINSUM_LANES`` lanes with M < N). M and N both short (a small
    layer's weight gradient): two operands repeated out and one flat multiply into (K, M, N) (NumPy's broadcast
    multiply of a (200,) by an (8,) runs its inner loop 8 elements at a time, 7-20 µs here; the repeats and a flat
    multiply ~3 µs), summed into the result as it lies: without ``start`` by einsum's C core (one operand), which
    zeroes its output first and adds the slabs in the same order, as the reduction from ``initial=0`` does, without
    its ~20 ns a slab (K = 200: ~2 µs less)."""
    m, k = a.shape
    n = b.shape[1]
    out = np.empty((m, n), a.dtype)
    if max(m, n) < _BROADCAST_LANES:
        products = np.ascontiguousarray(a.T).reshape(-1).repeat(n)  # (the method: np.repeat's wrapper ~0.6 µs)
        products *= np.ascontiguousarray(b).repeat(m, axis=0).reshape(-1)
        products = products.reshape(k, m, n)
        target = out
        if start is not None:
            products[0] += start
        elif m * n > 1:
            _einsum(products, _KMN, _MN, out=out)  # NOTE: out zeroed first, so -0 products give +0 (initial=0)
            return out
    else:
        rows, lanes, target = (b, a.T, out.T) if m >= n else (a.T, b, out)  # (k, outer), (k, inner), (outer, inner)
        products = np.empty((k, *target.shape), a.dtype)
        np.multiply(rows[:, :, None], np.ascontiguousarray(lanes)[:, None, :], out=products)
        if start is not None:
            products[0] += start[:, None] if m >= n else start
    if m * n < 2:
        target[...] = in_order(products) if start is not None else in_order(products) + 0
    elif start is not None:
        np.add.reduce(products, 0, out=target)
    elif m < n and m * n <= _EINSUM_LANES:  # NOTE: einsum's C core as above (the target is the result as it lies)
        _einsum(products, _KMN, _MN, out=out)
    else:
        np.add.reduce(products, 0, out=target, initial=0)
    return out


def _chain_by_rows(a, b, c):
    """``_chain`` (from the bias ``c``) of a product past ``LIMIT``, blocks of ``a``'s rows at a time, each at most
    ``_CHAIN_BLOCK`` products (each row's chain is its own: the same bits, without a (K, M, N) array of the whole
    product). A new C-contiguous (M, N) array."""
    (m, k), n = a.shape, b.shape[1]
    rows = max(1, _CHAIN_BLOCK // (n * k))
    if rows >= m:
        return _chain(a, b, c)
    out = np.empty((m, n), a.dtype)
    for start in range(0, m, rows):
        out[start:start + rows] = _chain(a[start:start + rows], b, c)
    return out


def mkl_gemm_stack(a, b):
    """``a @ b`` for NumPy stacks (..., M, K) @ (..., K, N) of one float dtype whose batch dims broadcast, each
    matrix added in MKL's order as ``mkl_gemm`` adds one: PyTorch's ``bmm`` above its own small-product loop calls
    MKL's GEMM per matrix (measured: (32, 10, 5) @ (32, 5, 10), (3, 12, 8) @ (3, 8, 8), (5, 6, 7) @ (5, 7, 4) all
    match the per-matrix chain bit for bit, NumPy's matmul 42-50% an ulp off). Both operands' rows contiguous
    only (a transposed stack was not measured); None elsewhere, and the caller keeps NumPy's matmul."""
    if takes_bf16_order(a, b) and a.ndim >= 3 and b.ndim >= 3 and a.shape[-1] == b.shape[-2]:
        try:
            return gemm_bf16(a, b)  # bfloat16: oneDNN's order, matrix by matrix (core._bf16_gemm)
        except ValueError:
            return None  # batch dims that do not broadcast
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
