"""MKL's float32 vector products: its gemv (one output per row, or one row) and its sdot (``dot`` of two vectors),
the routes ``core._small_gemm``'s ``mkl_gemm``, ``mkl_gemv`` and ``mkl_sdot`` take.

**MKL's gemv** (``_gemv``): float32 products with one output per row (``x @ W.T`` of a ``Linear(K, 1)``, ``x @ w``
with w a column or 1-d, ``mv``; 2 or more rows) or one row (``w @ x.T``, and a Linear's forward on one sample:
W's rows are then the matrix), the matrix's rows contiguous, up to ``GEMV_LIMIT`` multiply-adds: dots of the
matrix's rows with the vector, 4 rows at a time with a peel by the matrix's address and row stride, the last
M % 4 rows one at a time with a peel by the vector's address (``_gemv`` says the lanes). One row times x (a
``Linear(K, 1)``'s weight gradient ``g.T @ x``) and a transposed matrix times a column (``g.T @ x`` of one input
feature) are the in-order chain up to ``GEMV_LIMIT`` too (measured: 18 shapes, K 10..2000, M 7..200), and so is one row
times one untransposed column (a ``Linear(1, 1)``'s weight gradient), float32 and float64, from the bias.
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import in_order
from core._numpy_c import data_address
from core._small_gemm_chain import _KM, _M, _einsum
from core._small_gemm_dot import _dot_lanes
from core._small_gemm_regions import ACTIVE
from core._threads import get_num_threads

__all__ = ["mkl_sdot"]


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
