"""MKL's in-order chain (each product rounded, then added in order of k, no FMA) and its kernel for N of 5, 6, 7, 9, 10
or 11, whose first columns take some products in blocks of 4: the routes ``core._small_gemm`` takes in the regions
``core._small_gemm_regions`` names (``core._small_gemm``'s docstring says where the chain was measured).

**MKL's kernel for N of 5, 6, 7, 9, 10 or 11, and 2 or 3 rows of N >= 13 not a multiple of 4** (``_remainder_rows``):
float32, ``b`` untransposed (``x @ W`` with W of such a width, a 10-class head written by hand), 2 or more rows, K >= 6,
``a`` either way: the in-order ``_chain`` (from the bias), except some of the first columns, chosen by the row's index
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
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import in_order

try:  # NOTE: np.einsum's Python wrapper costs ~0.7 µs a call (``core._cascade_sum`` calls its C core the same way)
    from numpy._core._multiarray_umath import c_einsum as _einsum
except ImportError:
    _einsum = np.einsum
_KMN, _MN, _KM, _M = [0, 1, 2], [1, 2], [0, 1], [1]  # (einsum's subscripts: sums over the first axis)
_BROADCAST_LANES = 16  # lanes from which _chain's products are one broadcast multiply
# NOTE: lanes (M N) up to which _chain's long rows (M < N, no start) are summed by einsum's C core: ~30 ns a slab less
# than ``np.add.reduce`` (2 x 50 lanes, K = 10000: 0.83 -> 0.73 ms); no faster from ~400 lanes (3 x 130, 8 x 200)
_EINSUM_LANES = 256
_CHAIN_BLOCK = 1 << 20  # products (a float32 each) of one block of rows in ``_chain_by_rows``


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
    products = np.multiply(rows[:, None, :], cols.T[None, :, :]).reshape(-1, rows.shape[1])  # (lanes, k)
    return _slabs_of(products)


def _slabs_of(products):
    """``_block_slabs`` of products laid out (lanes, K), each lane's products in order of k (a stack's lanes too:
    ``core._small_gemm_zen3``). A new C-contiguous (lanes, steps) array."""
    (lanes, k), blocks = products.shape, products.shape[1] // 4
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
