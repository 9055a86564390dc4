"""MKL's summation order for the flash attention kernel's small GEMMs and GEMVs (float32 and float64).

Apart from the blocked attention steps (``core.nn.functional._flash_cpu``) because this is a different question:
how MKL's ``sgemm``/``sgemv``/``dgemv`` kernels chain and round the products of one score or value block (lane
dots, quad kernels, blocks of k, alpha applied while packing), measured per shape. ``_flash_cpu`` calls ``sgemm``
and the GEMV kernels; ``core.nn.functional._flash_zen3`` holds the AMD Zen 3's variants.
"""

from __future__ import annotations

import numpy as np

from core import _cpu, _openblas_chains, _small_gemm
from core._cascade_sum import in_order
from core._fused import fma as _fma
from core.nn.functional import _flash_zen3
from core.nn.functional._flash_exp import _f32fma

_F32 = np.dtype(np.float32)
_REMAINDER_COLUMNS = (5, 6, 7, 9, 10, 11)  # columns of MKL's remainder kernel on the Zen 3 (core._small_gemm_zen3)
_LANES = 16  # float32 lanes of an AVX-512 vector: PyTorch's kernel build on this machine
_K_BLOCK = 384  # MKL's sgemm sums at most this many products in one chain; a longer inner dim splits in halves
_AMD_K_BLOCK = 192  # on an AMD CPU: at most this many, in blocks of 192 above 384 (``_k_parts``)
_AMD_K_BLOCKS = _cpu.VENDOR == "AuthenticAMD"  # MKL picks its GEMM kernels by CPU vendor


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


def _mkl_products(a: np.ndarray, b: np.ndarray, alpha=None, c=None, layout=None) -> np.ndarray | None:
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
    # NOTE: the Zen 3's remainder kernel (2 or 3 rows, or 5..11 columns): alpha on a, or on the dots (b.T)
    few_rows = _flash_zen3.ACTIVE and (m < 4 or n in _REMAINDER_COLUMNS and not transposed)
    after = alpha
    if alpha is not None:
        if m >= 4 and n >= 12:
            b, after = np.multiply(b, alpha, order="K"), None  # (order K: a transposed b stays transposed)
        elif not transposed and (n in (2, 3, 4, 8) or few_rows):
            a, after = np.multiply(a, alpha, order="K"), None
        elif not transposed or n >= 12 and not few_rows:
            return None
    if few_rows and not transposed:
        return _flash_zen3.remainder_stack(a, b, c, layout)  # (alpha is in a)
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


def sgemm(a: np.ndarray, b: np.ndarray, c: np.ndarray | None = None, alpha=None, layout=None) -> np.ndarray:
    """``a @ b`` (+ ``c``: beta 1) of float32 (or float64) stacks, rounded as MKL's ``sgemm`` (``dgemm``) rounds
    the kernel's block products: per element an fma chain over k (``_chain``), added to ``c``; an inner dim over
    384 in parts of ``ceil(k / parts)``, each part's chain added to the result in turn (measured, both dtypes:
    k = 385..512 splits in two halves, the first the larger, and with beta 1 ``(c + part1) + part2``). On the AMD
    CPU, from a zero ``c``, ``core._small_gemm``'s orders where it knows them (``_mkl_products``; ``layout``: where
    ``c``'s matrices lie in torch's gradient, ``_flash_zen3.remainder_stack``)."""
    k = a.shape[-1]
    if c is None or not c.any():
        product = _mkl_products(a, b, alpha, None, layout)
        if product is not None:
            return product if c is None else c + product
    else:
        product = _mkl_products(a, b, alpha, c, layout)
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
