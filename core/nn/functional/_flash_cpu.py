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
"""

from __future__ import annotations

import math

import numpy as np

from core import _blas_threads as _blas
from core import _cpu, _daxpy, _libm, _openblas_chains, _small_gemm
from core._arange_values import fma_sum
from core._cascade_sum import in_order
from core._fused import fma as _fma
from core._fused import single_rounding
from core._glibc import expf as glibc_expf
from core._glibc import logf as glibc_logf
from core._sleef import expf_u10
from core.nn.functional import _flash_zen3

__all__ = ["exp_u20", "expd_u10", "sgemm", "forward", "backward"]

_F32, _F64 = np.dtype(np.float32), np.dtype(np.float64)
_LANES = 16  # float32 lanes of an AVX-512 vector: PyTorch's kernel build on this machine
_KV_SPLIT = 512  # keys per block (every q-block size the kernel chooses pairs with 512)
_K_BLOCK = 384  # MKL's sgemm sums at most this many products in one chain; a longer inner dim splits in halves
_AMD_K_BLOCK = 192  # on an AMD CPU: at most this many, in blocks of 192 above 384 (``_k_parts``)
_AMD_K_BLOCKS = _cpu.VENDOR == "AuthenticAMD"  # MKL picks its GEMM kernels by CPU vendor


def _bits(i: int) -> np.float32:
    return np.array([i], np.uint32).view(np.float32)[0]


_LOG2E, _LN2 = _bits(0x3FB8AA3B), _bits(0x3F317218)
_LN_FLT_MIN, _LN_FLT_MAX = _bits(0xC2AEAC50), _bits(0x42B17218)
_FACTORIALS = [np.float32(c) for c in (0.00828929059, 0.0418978221, 0.166676521, 0.499991506, 0.999999701, 1.0)]


def _f32fma(a, b, c):
    """float32 ``a * b + c`` with one rounding (``core._fused``)."""
    return _fma(np, a, b, c)


def exp_u20(x: np.ndarray) -> np.ndarray:
    """ATen's ``Vectorized<float>::exp_u20`` (vec512_float.h): ``x`` clamped to [ln FLT_MIN, ln FLT_MAX],
    ``n = floor(x log2 e + 1/2)``, ``r = x - n ln 2``, a degree-5 Horner polynomial in ``r`` (each step a float32
    fma), times ``2^(n-1)`` and 2; inputs below ln FLT_MIN give 0. Within 20 ulp of exp, not SLEEF's.

    NOTE: ``_EXP_BLOCK`` elements at a time, so the float64 temporaries stay in cache (as ``core._sleef``)."""
    flat = np.ascontiguousarray(x, _F32).reshape(-1)
    out = np.empty(flat.size, _F32)
    size = min(flat.size, _EXP_BLOCK)
    buffers = (np.empty(size, _F64), np.empty(size, _F64), np.empty(size, _F32), np.empty(size, np.int64))
    with np.errstate(over="ignore", invalid="ignore"):
        for start in range(0, flat.size, _EXP_BLOCK):
            _exp_u20_block(flat[start:start + _EXP_BLOCK], out[start:start + _EXP_BLOCK], buffers)
    return out.reshape(np.shape(x))


_EXP_BLOCK = 16384


def _exp_u20_block(x: np.ndarray, out: np.ndarray, buffers) -> None:
    """``exp_u20`` of one block into ``out``: each float32 fma as a float64 product (exact) and sum, rounded to
    float32 with ``core._fused.single_rounding``'s tie repair; ``x - n ln 2`` is exact in float64."""
    t, wide, narrow, scratch = (b[:x.size] for b in buffers)
    below = x < _LN_FLT_MIN
    src = np.clip(x, _LN_FLT_MIN, _LN_FLT_MAX)

    def fma32(a, b, c):  # float32 a * b + c, one rounding, into ``narrow``
        np.multiply(a, b, out=t, dtype=_F64)
        np.add(t, c, out=t)
        narrow[...] = single_rounding(t, a, b, c, scratch)
        return narrow

    n = np.floor(fma32(src, _LOG2E, np.float32(0.5)))
    np.multiply(n, np.float64(_LN2), out=wide, dtype=_F64)
    np.subtract(src, wide, out=wide, dtype=_F64)
    r = wide.astype(_F32)
    res = fma32(r, _FACTORIALS[0], _FACTORIALS[1]).copy()
    for c in _FACTORIALS[2:]:
        res[...] = fma32(r, res, c)
    scale = ((n.astype(np.int32) + np.int32(126)).astype(np.uint32) << np.uint32(23)).view(_F32)
    scale[below] = 0
    np.multiply(res, scale, out=out)
    out *= np.float32(2)


_R_LN2_D, _L2U_D, _L2L_D = 1.442695040888963407359924681001892137426645954152985934135449406931, \
    0.69314718055966295651160180568695068359375, 0.28235290563031577122588448175013436025525412068e-12
_EXPD_POLY = (0.2081276378237164457e-8, 0.2511210703042288022e-7, 0.2755762628169491192e-6,
              0.2755723402025388239e-5, 0.2480158687479686264e-4, 0.1984126989855865850e-3,
              0.1388888888914497797e-2, 0.8333333333314938210e-2, 0.4166666666666602598e-1,
              0.1666666666666669072e+0)


def expd_u10(d: np.ndarray) -> np.ndarray:
    """SLEEF's ``expd_u10`` (its ``xexp`` with FMA), what ``Vectorized<double>::exp()`` and ``exp_u20()`` give on
    AVX-512: ``q = rint(d / ln 2)``, ``s = d - q ln 2`` in two fmas, a degree-10 polynomial by Estrin's scheme (each
    step a double fma: ``core._fused``), three more fmas, then ``2^q`` as two exact scalings; 0 below -1000,
    inf above 709.78.

    NOTE: a hot path (float64 softmax's exps: ~130 ns an element through ``core._fused.fma``). Each fma is
    ``core._arange_values.fma``'s same operations (``_fma_split``: the same bits), without its checks for
    overflow: d is clamped to [-1100, 800] first (NaN and infinities too), where nothing overflows, and every
    element off [-1000, 709.78] is replaced at the end as before; the operands' Veltkamp splits are made once
    each (s's serves eight fmas, the constants' are made at import); ``u * L2U`` is exact (L2U has 41
    significant bits, |u| < 2^11), so its fma is one add; and the six fmas with a constant multiplier are one
    ``daxpy`` each where the BLAS's is a probed fma (``core._daxpy``; on 6 * 10^7 samples of their operands the
    NumPy route gave the same bits). A large C-contiguous array goes ``_EXPD_BLOCK``
    elements at a time (its ~200 passes then stay in cache)."""
    if d.size > 2 * _EXPD_BLOCK and type(d) is np.ndarray and d.flags.c_contiguous:
        flat, out = d.reshape(-1), np.empty(d.shape, np.float64)
        into = out.reshape(-1)
        for i in range(0, flat.size, _EXPD_BLOCK):
            into[i:i + _EXPD_BLOCK] = _expd_block(flat[i:i + _EXPD_BLOCK])
        return out
    return _expd_block(d)


_EXPD_BLOCK = 16384  # elements per block of a large expd_u10 (each block ~200 NumPy calls)


def _expd_block(d: np.ndarray) -> np.ndarray:
    """``expd_u10``'s steps on one array.

    NOTE: every fma but the reduction's has ``|c| >= |a b|`` (|s| <= ln2 / 2, each coefficient's term dominates the
    next's), so its sum's error is Fast2Sum's (``_fma_larger_c``: 3 passes for TwoSum's 6, the same exact error);
    below ``_STACK`` elements the five fmas of ``s`` with constants are one 2-D Dekker step with the constants' splits
    made at import (fewer calls where a ``daxpy`` call's ~5 us of Python and ctypes outweighs its passes)."""
    with np.errstate(over="ignore", invalid="ignore"):
        finite = np.fmax(np.fmin(d, 800.0), -1100.0)  # (fmin/fmax take the number beside a NaN)
        u = np.rint(finite * _R_LN2_D)
        q = u.astype(np.int64)
        s = u * -_L2U_D + finite
        if not _daxpy.daxpy_(s, u, -_L2L_D):  # (in place: s += u * -L2L, rounded once)
            s = _fma_split(u, *_split(u), -_L2L_D, *_split(-_L2L_D), s)
        s2 = s * s
        s4 = s2 * s2
        s8 = s4 * s4
        split_s = _split(s)
        leaves = _leaves(s, split_s)  # c9 s + c8, c7 s + c6, c5 s + c4, c3 s + c2, c1 s + c0
        low_high = _fma_larger_c(s2, *_split(s2), leaves[3:0:-2], *_split(leaves[3:0:-2]), leaves[4:1:-2])
        mid = _fma_larger_c(s4, *_split(s4), low_high[1], *_split(low_high[1]), low_high[0])
        u = _fma_larger_c(s8, *_split(s8), leaves[0], *_split(leaves[0]), mid)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 0.5)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 1.0)
        u = _fma_larger_c(u, *_split(u), s, *split_s, 1.0)
        u = np.ldexp(u, q)  # (SLEEF's two scalings: the first is exact, u 2^(q >> 1) being normal, so one rounding)
        if d.size and _MIN(d, None) >= -1000 and _MAX(d, None) <= _EXPD_MAX:  # (False with a NaN)
            return u
        u = np.where(d < -1000, 0.0, u)
        u = np.where(d > _EXPD_MAX, np.inf, u)
        return np.where(np.isnan(d), d, u)


_EXPD_MAX = 709.78271289338399678773454114191
_MIN, _MAX = np.minimum.reduce, np.maximum.reduce
_STACK = 512  # elements below which the constants' fmas are one 2-D Dekker step (``_expd_block``; a daxpy call
# costs ~5 us of Python and ctypes)


def _leaves(s, split_s):
    """The five ``c_odd s + c_even`` of Estrin's scheme as rows of a (5, n) array, each rounded once."""
    if s.size >= _STACK and s.ndim == 1 and _daxpy.available():
        rows = np.empty((5, s.size))
        rows[:] = _EXPD_PAIRS[3]
        for row, c1 in zip(rows, _EXPD_PAIRS[0].ravel()):
            _daxpy.daxpy_(row, s, float(c1))
        return rows.reshape(5, *s.shape)
    column = (5, *(1,) * s.ndim)
    c1, c1h, c1l, c0 = (k.reshape(column) for k in _EXPD_PAIRS)
    return _fma_larger_c(c1, c1h, c1l, s, *split_s, c0)


def _fma_larger_c(a, ah, al, b, bh, bl, c):
    """``a * b + c`` rounded once where ``|c| >= |a b|`` (or c is 0): ``_fma_split``'s value, its sum's exact error
    by Fast2Sum (``c`` the larger addend) where TwoSum takes twice the passes."""
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = c + p
    return fma_sum(s, p - (s - c), e)


def _split(a):
    """Veltkamp's split of float64 ``a`` into 26- and 27-bit halves (``core._arange_values._split``'s steps)."""
    c = 134217729.0 * a  # 2**27 + 1
    hi = c - (c - a)
    return hi, a - hi


def _fma_split(a, ah, al, b, bh, bl, c):
    """``a * b + c`` rounded once, for float64 operands split as ``_split`` splits them: the operations of
    ``core._arange_values.fma`` (Dekker's product, TwoSum, its ``fma_sum``), in the same order, so the same bits;
    no overflow."""
    p = a * b
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl
    s = p + c
    z = s - p
    return fma_sum(s, (p - (s - z)) + (c - z), e)


_EXPD_SPLITS = {c: _split(np.float64(c)) for c in _EXPD_POLY}
# the odd coefficients (c9, c7, ..., c1), their splits and the even ones (c8, ..., c0), as (5, 1) columns
_EXPD_PAIRS = tuple(np.array(k).reshape(5, 1) for k in (_EXPD_POLY[0::2], *zip(*(_EXPD_SPLITS[c] for c in
                                                                               _EXPD_POLY[0::2])),
                                                        _EXPD_POLY[1::2]))


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


def _fortran_stack(a: np.ndarray) -> np.ndarray:
    """``a`` (..., m, k) with each matrix laid out column-major (the layout whose OpenBLAS kernel sums as MKL's)."""
    return np.swapaxes(np.ascontiguousarray(np.swapaxes(a, -1, -2)), -1, -2)


def _chain(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` with each element one chain of fused multiply-adds in k order, from +0 (float32 or float64).

    NOTE: OpenBLAS's sgemm/dgemm kernel computes exactly that when ``a`` is column-major and ``b`` row-major and
    both sides have two or more rows/columns (checked against a Python fma chain on ~700 shapes); a single row or
    column takes its gemv kernel, which sums otherwise, so such a side is padded to two."""
    m, n = a.shape[-2], b.shape[-1]
    if a.shape[-1] == 0:
        return np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (m, n), a.dtype)
    if _small_gemm.PADDED_CHAINS and a.dtype == _F32:
        return _padded_chains(a, b)
    if m == 1:
        a = np.concatenate([a, np.zeros_like(a)], -2)
    if n == 1:
        b = np.concatenate([b, np.zeros_like(b)], -1)
    out = np.matmul(_fortran_stack(a), np.ascontiguousarray(b))
    return out[..., :m, :n]


def _padded_chains(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``_chain`` of float32 stacks where OpenBLAS's Haswell kernel (an AVX2 CPU) keeps two accumulators in some
    tiles: each matrix one GEMM of padded operands whose tiles are all chains (``core._openblas_chains``)."""
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, lead + a.shape[-2:]), np.broadcast_to(b, lead + b.shape[-2:])
    out = np.empty(lead + (a.shape[-2], b.shape[-1]), _F32)
    for index in np.ndindex(*lead):
        out[index] = _openblas_chains.fma_blocks(np.ascontiguousarray(a[index]), np.ascontiguousarray(b[index]),
                                                 None, [(0, a.shape[-1])], None)
    return out


def _mkl_products(a: np.ndarray, b: np.ndarray, alpha=None, c=None) -> np.ndarray | None:
    """``alpha (a @ b)`` of float32 stacks (2+ rows, inner dim and columns) per matrix as ``core._small_gemm``
    knows MKL's order on the AMD CPU (one thread: the kernel calls MKL inside its parallel loop), alpha where MKL
    applies it: while packing its ``A`` (our ``b``) in the blocked FMA kernel (4+ rows, 12+ columns), on our ``a``
    in the in-order kernel (``b`` untransposed, 2, 3, 4 or 8 columns), on the finished sums in the dot kernels
    (``b`` transposed: the scores ``Q K^T``); with beta 1 onto a running sum ``c`` (a second query block's ``dK``, a
    second key block's ``acc``) the in-order kernel's chain starts at ``c`` and the blocked kernel adds its blocks
    to ``c`` in turn (``_blocked_chain``). None elsewhere (measured: forward and backward of (B, H, 8..600, 8, 16 or
    32), causal or not, bit for bit; the head dims 8 and 32's gradients were 40-90% an ulp off before). The AMD Zen 3
    (AVX2) takes the same orders: with ATen's 8-lane vectors (``_Flavour``) and ``_chain``'s padded chains
    (``_padded_chains``) its output and gradients were bit for bit on (B, H, L, S, E) of (1..2, 1..2, 8..600,
    8..600, 8..32), causal or not (up to 87% of elements differed with 16 lanes and NumPy's products)."""
    if not _small_gemm.FMA_BLOCKS or a.dtype != _F32 or b.dtype != _F32 \
            or min(a.shape[-2:]) < 2 or b.shape[-1] < 2:
        return None
    m, n = a.shape[-2], b.shape[-1]
    transposed = b.strides[-2] == b.itemsize and b.strides[-1] != b.itemsize
    after = alpha
    if alpha is not None:
        if m >= 4 and n >= 12:
            b, after = np.multiply(b, alpha, order="K"), None  # (order K: a transposed b stays transposed)
        elif not transposed and n in (2, 3, 4, 8):
            a, after = np.multiply(a, alpha, order="K"), None
        elif not transposed or n >= 12:
            return None
    if c is not None:
        if m >= 4 and n >= 12:
            return _blocked_chain(a, b, c)  # (alpha is in b)
        if transposed or n not in (2, 3, 4, 8):
            return None
        products = np.moveaxis(a, -1, 0)[..., :, None] * np.moveaxis(b, -2, 0)[..., None, :]  # (K, ..., M, N)
        products[0] += c  # NOTE: the chain starts at the running sum: c + p0 + p1 + ... in order
        return in_order(products)
    lead = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a, b = np.broadcast_to(a, lead + a.shape[-2:]), np.broadcast_to(b, lead + b.shape[-2:])
    out = np.empty(lead + (m, n), _F32)
    for index in np.ndindex(*lead):
        product = _small_gemm.mkl_gemm(a[index], b[index], nested=True)
        if product is None:
            return None
        out[index] = product
    if after is not None:
        out *= after
    return out


def sgemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None, alpha=None) -> np.ndarray:
    """``a @ b`` (+ ``c``: beta 1) of float32 (or float64) stacks, rounded as MKL's ``sgemm`` (``dgemm``) rounds
    the kernel's block products: per element an fma chain over k (``_chain``), added to ``c``; an inner dim over
    384 in parts of ``ceil(k / parts)``, each part's chain added to the result in turn (measured, both dtypes:
    k = 385..512 splits in two halves, the first the larger, and with beta 1 ``(c + part1) + part2``). On the AMD
    CPU, from a zero ``c``, ``core._small_gemm``'s orders where it knows them (``_mkl_products``)."""
    k = a.shape[-1]
    if c is None or not c.any():
        product = _mkl_products(a, b, alpha)
        if product is not None:
            return product if c is None else c + product
    else:
        product = _mkl_products(a, b, alpha, c)
        if product is not None:
            return product
    if a.shape[-2] == 1 or k == 1:
        if alpha is not None:  # (MKL's gemv and rank-1 update scale that operand first, rounded)
            a = a * alpha
        if _flash_zen3.ACTIVE and a.dtype == _F32:  # NOTE: the AMD Zen 3's sgemv and rank-1 update (_flash_zen3)
            product = _flash_zen3.single_row_product(a, b, c)
            if product is not None:
                return product
        if k == 1:  # a rank-1 update: one fused multiply-add an element
            return _fma(np, a, b, np.zeros((), a.dtype) if c is None else c)
        if a.dtype == _F32:
            return _gemv_values(a, b, c)  # a single row's product (MKL's sgemv)
        y = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (1, b.shape[-1]), a.dtype)
        if c is not None:  # dgemv: one fma chain over k, from the accumulator (beta 1)
            y = y + c
        for j in range(k):
            y = _fma(np, a[..., j:j + 1], b[..., j:j + 1, :], y)
        return y
    n = b.shape[-1]
    if _AMD_K_BLOCKS and alpha is None and a.dtype == _F32 and b.strides[-1] == b.itemsize \
            and (n % 4 == 0 and n < 12 or n in (2, 3)):
        # NOTE: on an AMD CPU MKL's small sgemm (core._small_gemm's rule: b's rows contiguous, N of 2, 3, 4 or 8,
        # 2+ rows) adds the products in order from c, each rounded, no fma: acc += e V for a head dim of 4 or 8
        # (measured: the forward of (B, H, 16..64, 4 or 8), causal or not, bit for bit; the fma chain: ~40% off)
        y = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], n), a.dtype)
        if c is not None:
            y = y + c
        for j in range(k):
            y = y + a[..., :, j:j + 1] * b[..., j:j + 1, :]
        return y
    return _blocked_chain(a, b, c, alpha)


def _k_parts(k: int) -> list:
    """The inner dim's parts, each one fma chain: on the Intel CPU this was first measured on, one part up to 384
    and halves of ``ceil(k / parts)`` above; on an AMD CPU (MKL picks its kernels by vendor; measured on an AMD
    EPYC Zen 4 against ``torch.mm`` on one thread, K = 187..1101) one part up to 192, two halves from 193 to 384
    (an odd K's last product a part of its own: 193 is 96 + 96 + 1), and blocks of 192 above 384 (600 is
    192 + 192 + 192 + 24)."""
    if _AMD_K_BLOCKS:
        if k <= _AMD_K_BLOCK:
            return [(0, max(k, 1))]
        if k <= 2 * _AMD_K_BLOCK:
            half = k // 2
            return [(0, half), (half, 2 * half)] + ([(2 * half, k)] if k % 2 else [])
        return [(start, min(k, start + _AMD_K_BLOCK)) for start in range(0, k, _AMD_K_BLOCK)]
    parts = max(1, -(-k // _K_BLOCK))
    size = max(1, -(-k // parts))
    return [(start, start + size) for start in range(0, max(k, 1), size)]


def _blocked_chain(a: np.ndarray, b: np.ndarray, c=None, alpha=None) -> np.ndarray:
    """``sgemm``'s general case: fma chains over k, in the parts of ``_k_parts`` (each part scaled, then added)."""
    out = c
    for start, stop in _k_parts(a.shape[-1]):
        p = _chain(a[..., start:stop], b[..., start:stop, :])
        if alpha is not None:
            p = p * alpha
        out = p if out is None else out + p
    return out


def _lane_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` as MKL's small dot-product kernel sums it: product i into lane ``i % 16`` (fused), the 16 lanes
    then combined as a tree (lane j with j + 8, + 4, + 2, + 1)."""
    k = a.shape[-1]
    acc = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1], _LANES), _F32)
    for i in range(k):
        lane = acc[..., i % _LANES]
        acc[..., i % _LANES] = _f32fma(a[..., :, i, None], b[..., None, i, :], lane)
    half = _LANES // 2
    while half:
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return acc[..., 0]


def _half_tree(lanes: list) -> np.ndarray:
    """A vector's lanes summed as a tree: lane i with lane i + n/2, and so on down to one."""
    while len(lanes) > 1:
        half = len(lanes) // 2
        lanes = [lanes[i] + lanes[i + half] for i in range(half)]
    return lanes[0]


def _gemv_rows(x: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``x @ keys^T`` for a single query row (``x``: (..., 1, E), ``keys``: (..., S, E)) as MKL's sgemv sums it
    (measured on every head dim to 256): keys four at a time, each dot product as 16 fused lanes from element 1
    (element 0's product seeds lane 1), the lanes as a tree, then the elements left after whole 16-wide chunks
    into 8 lanes (seeded with that sum in lane 1; the first chunk fused, later ones added), again a tree. A key
    left over after the groups of four takes MKL's one-column kernel (``_dot_one``)."""
    if _flash_zen3.ACTIVE and x.dtype == _F32:
        return _flash_zen3.gemv_rows(x, keys)
    x = x[..., 0, :]
    S = keys.shape[-2]
    main = S - S % 4
    out = np.empty(np.broadcast_shapes(x.shape[:-1], keys.shape[:-2]) + (S,), x.dtype)
    if main:
        out[..., :main] = _gemv_four(x, keys[..., :main, :])
    for j in range(main, S):
        out[..., j] = _dot_one(x, keys[..., j, :])
    return out[..., None, :]


def _gemv_four(x: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """``_gemv_rows``' four-key kernel, its lanes as an array's last axis (lane ``i % 16``, then ``i % 8``)."""
    E = x.shape[-1]
    xs = x[..., None, :]
    total = xs[..., 0] * keys[..., 0]
    chunks = (E - 1) // 16
    if chunks:
        lanes = np.zeros(total.shape + (16,), x.dtype)
        lanes[..., 1] = total
        for c in range(chunks):  # elements 1 + 16c .. 16 + 16c: lanes 1..15, then 0
            part = slice(1 + 16 * c, 17 + 16 * c)
            lanes = _f32fma(np.roll(xs[..., part], 1, -1), np.roll(keys[..., part], 1, -1), lanes)
        total = _tree_last(lanes)
    start = 1 + 16 * chunks
    if start < E:
        lanes = np.zeros(total.shape + (8,), x.dtype)
        lanes[..., 1] = total
        first = min(E, start + 8)  # the first chunk fused, the rest (under 8) added
        at = np.arange(start, first) % 8
        lanes[..., at] = _f32fma(xs[..., start:first], keys[..., start:first], lanes[..., at])
        if first < E:
            at = np.arange(first, E) % 8
            lanes[..., at] = lanes[..., at] + xs[..., first:E] * keys[..., first:E]
        total = _tree_last(lanes)
    return total


def _tree_last(lanes: np.ndarray) -> np.ndarray:
    """``_half_tree`` over the last axis."""
    while lanes.shape[-1] > 1:
        half = lanes.shape[-1] // 2
        lanes = lanes[..., :half] + lanes[..., half:]
    return lanes[..., 0]


def _gemv_values(p: np.ndarray, values: np.ndarray, c: np.ndarray | None = None) -> np.ndarray:
    """``p @ values`` (+ ``c``) for a single row ``p`` (..., 1, S) as MKL's sgemv sums it (measured): the outputs
    that fill whole 16-wide vectors take the keys eight at a time, ``((y + v6 + v4) + (v7 + v5)) + ((v2 + v0) +
    (v3 + v1))`` where ``vj`` is ``p_j`` times key j's values and each ``+ vj`` after a product is fused (``y`` the
    running sum, starting from ``c`` with beta 1), the last keys one fused step each; the other outputs an fma chain
    over the keys. No split of a long inner dim (sgemm's halves above 384 keys)."""
    x = p[..., 0, :]
    S, E = values.shape[-2], values.shape[-1]
    main = E - E % 16
    out = np.empty(np.broadcast_shapes(x.shape[:-1], values.shape[:-2]) + (E,), p.dtype)
    if main:
        xs = x[..., :, None]
        vals = values[..., :main]

        def fused(j, acc):
            return _f32fma(xs[..., j, :], vals[..., j, :], acc)

        y = np.zeros(np.broadcast_shapes(xs.shape[:-2], vals.shape[:-2]) + (main,), p.dtype)
        if c is not None:
            y = y + c[..., 0, :main]
        blocks = S // 8
        if blocks:  # NOTE: the three pairs of each block don't depend on the running sum: all blocks at once
            full = 8 * blocks

            def every(offset, source):
                return source[..., offset:full:8, :]

            products = xs[..., :full, :] * vals[..., :full, :]
            pairs = _f32fma(every(0, xs), every(0, vals), every(2, products)) \
                + _f32fma(every(1, xs), every(1, vals), every(3, products))
            odd = _f32fma(every(5, xs), every(5, vals), every(7, products))
            for b in range(blocks):
                j = 8 * b
                y = (fused(j + 4, fused(j + 6, y)) + odd[..., b, :]) + pairs[..., b, :]
        for rest in range(8 * blocks, S):
            y = fused(rest, y)
        out[..., :main] = y
    if main < E:  # an fma chain over the keys, from the accumulator (beta 1) or 0
        xs = x[..., :, None]
        y = np.zeros(np.broadcast_shapes(xs.shape[:-2], values.shape[:-2]) + (E - main,), p.dtype)
        if c is not None:
            y = y + c[..., 0, main:]
        for j in range(S):
            y = _f32fma(xs[..., j, :], values[..., j, main:], y)
        out[..., main:] = y
    return out[..., None, :]


def _ddot_rows(x: np.ndarray, keys: np.ndarray) -> np.ndarray:
    """float64 ``x @ keys^T`` for a single row ``x`` (..., 1, E) as MKL's dgemv sums each key's dot product
    (measured): 8 fused lanes (``i % 8``), two sets over pairs of whole 8-wide chunks (added together after), then
    whole chunks and the last partial one into the first set; the lanes as ``((l0 + l2) + (l1 + l3)) + ((l4 + l6) +
    (l5 + l7))``."""
    x = x[..., 0, None, :]
    E = x.shape[-1]
    shape = np.broadcast_shapes(x.shape[:-1], keys.shape[:-1])

    def chunk(start, stop, lanes):
        lanes = lanes.copy()
        at = np.arange(start, stop) % 8
        lanes[..., at] = _fma(np, x[..., start:stop], keys[..., start:stop], lanes[..., at])
        return lanes

    first = np.zeros(shape + (8,), x.dtype)
    i = 0
    if E // 8 >= 2:
        second = first.copy()
        while i + 16 <= E:
            first, second = chunk(i, i + 8, first), chunk(i + 8, i + 16, second)
            i += 16
        first = first + second
    while i + 8 <= E:
        first = chunk(i, i + 8, first)
        i += 8
    if i < E:
        first = chunk(i, E, first)
    lanes = first
    total = ((lanes[..., 0] + lanes[..., 2]) + (lanes[..., 1] + lanes[..., 3])) \
        + ((lanes[..., 4] + lanes[..., 6]) + (lanes[..., 5] + lanes[..., 7]))
    return total[..., None, :]


def _dot_one(x: np.ndarray, key: np.ndarray) -> np.ndarray:
    """One dot product as MKL's one-column kernel sums it: element 0's product apart; from element 1, pairs of
    16-wide chunks into two sets of 16 fused lanes (added together after), then whole chunks and the last partial
    one fused into the first set; its lanes as a tree; element 0's product added last (measured)."""
    E = x.shape[-1]
    zero = np.zeros(np.broadcast_shapes(x.shape[:-1], key.shape[:-1]), x.dtype)

    def chunk(start, stop, lanes):
        lanes = list(lanes)
        for i in range(start, stop):
            lanes[i % 16] = _f32fma(x[..., i], key[..., i], lanes[i % 16])
        return lanes

    first = [zero] * 16
    i = 1
    if (E - 1) // 16 >= 2:
        second = [zero] * 16
        while i + 32 <= E:
            first, second = chunk(i, i + 16, first), chunk(i + 16, i + 32, second)
            i += 32
        first = [a + b for a, b in zip(first, second)]
    while i + 16 <= E:
        first = chunk(i, i + 16, first)
        i += 16
    if i < E:
        first = chunk(i, E, first)
    return x[..., 0] * key[..., 0] + _half_tree(first)


def _quad_lane_dot(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``a @ b`` as MKL's dot-product kernel for a few rows against a long inner dim sums it: product i into lane
    ``i % 16`` (fused), the four groups of four lanes added in turn (lane l, then l + 4, l + 8, l + 12), the four
    sums as pairs ``(s0 + s1) + (s2 + s3)`` (measured)."""
    k = a.shape[-1]
    acc = np.zeros(np.broadcast_shapes(a.shape[:-2], b.shape[:-2]) + (a.shape[-2], b.shape[-1], _LANES), a.dtype)
    for i in range(k):
        acc[..., i % _LANES] = _f32fma(a[..., :, i, None], b[..., None, i, :], acc[..., i % _LANES])
    quads = acc[..., 0:4] + acc[..., 4:8]
    quads = quads + acc[..., 8:12]
    quads = quads + acc[..., 12:16]
    return (quads[..., 0] + quads[..., 1]) + (quads[..., 2] + quads[..., 3])


def _quad_kernel(q_rows: int, kv_rows: int, head: int) -> bool:
    """Whether MKL takes ``_quad_lane_dot`` for a (q_rows x head) @ (head x kv_rows) score block: a short query
    block against a long head (``24 q_rows <= head``), four or more keys (measured)."""
    return 2 <= q_rows and 24 * q_rows <= head and kv_rows >= 4


def _lane_kernel(q_rows: int, kv_rows: int, head: int) -> bool:
    """Whether MKL computes a (q_rows x head) @ (head x kv_rows) score block with its dot-product kernel
    (``_lane_dot``) rather than the fma chain: measured on this machine's MKL for small blocks."""
    if q_rows < 2 or kv_rows < 2 or head >= 32:
        return False
    if kv_rows == 2 and q_rows <= 13 or kv_rows == 3 and q_rows <= 10:
        return True
    return max(q_rows + 1, head) <= kv_rows <= 11


def _packs_scaled(rows: int, cols: int, inner: int, transposed: bool) -> bool:
    """Whether MKL's single-threaded ``sgemm`` (the kernel's products run inside its parallel loop) applies alpha
    to the left operand ``A`` while packing it, not to the finished chain: a (rows x cols) column-major result
    with ``A`` transposed (the scores ``K Q^T``) from ``rows >= inner`` and ``rows > min(cols, 191)``; with ``A``
    as is (the gradients' ``dS K`` and ``dS^T Q``) only when both sides pass 191 (measured)."""
    if transposed:
        return rows >= inner and rows > min(cols, 191)
    return rows > 191 and cols > 191


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
                               None if mask is None else group(mask, g), group(dsum, g), causal, scale, dk, dv)
        group(dq, g)[...] = grads
    return dq, dk, dv


def _head_backward(grad_out, q, k, v, lse, mask, dsum, causal: bool, scale, dk, dv):
    """``dq`` of one query head per key/value head, adding its ``dk`` and ``dv`` contributions into those."""
    B, H, L, E = q.shape
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
            dv[..., n:stop, :] = sgemm(np.swapaxes(p, -1, -2), g_blk, dv[..., n:stop, :])
            ds = p * (_scores(g_blk, v_blk, q_split) - dsum[..., rows, None])
            # gemm(N, N, E, rows, kv, scale, K, dS) and gemm(N, T, E, kv, rows, scale, Q, dS)
            if _packs_scaled(E, ds.shape[-2], ds.shape[-1], False):
                dq[..., rows, :] = sgemm(ds, k_blk * sc, dq[..., rows, :])
            else:
                dq[..., rows, :] = sgemm(ds, k_blk, dq[..., rows, :], sc)
            if _packs_scaled(E, ds.shape[-1], ds.shape[-2], False):
                dk[..., n:stop, :] = sgemm(np.swapaxes(ds, -1, -2), q_blk * sc, dk[..., n:stop, :])
            else:
                dk[..., n:stop, :] = sgemm(np.swapaxes(ds, -1, -2), q_blk, dk[..., n:stop, :], sc)
    return dq


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
