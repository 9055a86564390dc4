"""MKL's float32 dot kernels for ``x @ W.T`` of 2 or more rows and 2 or more outputs (a Linear's forward, a
classification head), the route ``core._small_gemm`` takes where ``core._small_gemm_regions._dot_region`` says.

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
"""

from __future__ import annotations

import functools
import math

import numpy as np

from core._cascade_sum import in_order
from core._numpy_c import data_address
from core._small_gemm_chain import _chain

try:  # NOTE: np.einsum's Python wrapper costs ~0.7 µs a call (``core._small_gemm_chain`` calls its C core the same way)
    from numpy._core._multiarray_umath import c_einsum as _einsum
except ImportError:
    _einsum = np.einsum

_FEW_GROUPS = 6  # groups of lanes added one call each rather than by one reduction (``_lane_sums``)
_DOT_BLOCK = 1 << 20  # products (a float32 each) of one block of x's rows in the dot kernels (in cache)


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
        return np.ascontiguousarray(_lane_chains(np.ascontiguousarray(a.T), np.ascontiguousarray(b), peel,
                                                 4 if n >= 4 else 8))
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
    columns of ``b``, in ``lanes`` lanes as ``_dot_kernels`` says: an (N, M) array."""
    return _lane_chains(np.ascontiguousarray(x.T), np.ascontiguousarray(b), peel, lanes).T


def _lane_chains(xt, wt, peel, lanes):
    """The dot kernels' sums (module docstring) of ``xt`` (K, M) and ``wt`` (K, N), both C-contiguous: an (M, N)
    array (a transposed view where N > M). Lane 0 adds the ``peel`` first products, then every ``lanes``-th from
    there; lane j the others in turn; the lanes are added in halves, then the tail in order, then +0.

    NOTE: each lane's products are rounded and added in order by one two-operand ``einsum`` (``_einsum_lanes``) over
    the operands laid out (steps, lanes, rows), the products never stored (they were laid out (K, N, M) by one
    broadcast multiply, then reduced: MEASURED). The peel is lane 0's first steps, zeros in the other lanes there
    (0 x 0 adds +0, which can change only the sign of a zero sum; the last + 0 makes that +0 either way).
    ``_two_kernels`` keeps its one multiply: there the einsum's inner loops of M took as long as its passes."""
    (k, m), n = xt.shape, wt.shape[1]
    body = (k - peel) // lanes
    if not body:  # (all in order: the peel, then the tail)
        total = _einsum_lanes(xt[:, None], wt[:, None])[0] if k else np.zeros((m, n), np.float32)
    else:
        acc = _einsum_lanes(_lanes_of(xt, peel, body, lanes), _lanes_of(wt, peel, body, lanes))
        if lanes == 8:
            acc = acc[:4] + acc[4:]
        acc = acc[:2] + acc[2:]  # (lanes 0 + 2 and 1 + 3 in one call)
        total = acc[0] + acc[1]
    for i in range(peel + body * lanes if body else k, k):
        total += np.multiply.outer(xt[i], wt[i])  # (each product rounded, then added)
    total += 0  # NOTE: each lane starts at +0, so products that are all -0 give +0
    return total


def _lanes_of(t, peel, body, lanes):
    """``t`` (K, L) as (peel + body, lanes, L): first the ``peel`` rows in lane 0 (zeros in the others), then the
    next ``body * lanes`` rows ``lanes`` a step (a view where there is no peel)."""
    if not peel:
        return t[:body * lanes].reshape(body, lanes, t.shape[1])
    out = np.zeros((peel + body, lanes, t.shape[1]), t.dtype)
    out[:peel, 0] = t[:peel]
    out[peel:] = t[peel:peel + body * lanes].reshape(body, lanes, t.shape[1])
    return out


def _einsum_lanes(xs, ws):
    """``sum over s of xs[s, j, m] ws[s, j, n]`` for each lane j, as (lanes, M, N) (a transposed view where N > M):
    each product rounded, then added in order of s from +0.

    NOTE: NumPy's two-operand ``einsum`` (C core, no optimisation) multiplies then adds with its baseline SIMD, which
    on x86-64 has no fused multiply-add, over an inner loop along the longer of M and N (that operand contiguous,
    the other one value), the step axis outermost (its strides are the largest in both operands and the result has
    none); ``einsum_holds()`` checks that once, and where it fails the products are formed by one multiply and added
    by ``in_order``, as they are for a single output (its only axis is then the sum, which einsum adds in SIMD lanes:
    a 6-step sum differed)."""
    if xs.shape[1] * xs.shape[2] * ws.shape[2] < 2 or not einsum_holds():
        return in_order(xs[:, :, :, None] * ws[:, :, None, :])  # NOTE: one output's einsum is a SIMD dot product
    return _einsum_pair(xs, ws)


def _einsum_pair(xs, ws):
    """``_einsum_lanes``' einsum, its inner loop along the longer of M and N."""
    if xs.shape[2] >= ws.shape[2]:
        return _einsum(ws, _SJN, xs, _SJM, _JNM).transpose(0, 2, 1)
    return _einsum(xs, _SJM, ws, _SJN, _JMN)


_SJM, _SJN, _JNM, _JMN = [0, 1, 2], [0, 1, 3], [1, 3, 2], [1, 2, 3]  # (einsum's subscripts: s, j, m, n)


@functools.cache
def einsum_holds() -> bool:
    """Whether NumPy's two-operand ``einsum`` adds rounded products in order of the step axis (``_einsum_lanes``):
    one product of each inner layout, with sums that round at every step, against products added one step at a
    time (~0.1 ms, once)."""
    rng = np.random.default_rng(0)
    for m, n in ((19, 3), (3, 21)):
        xs = (rng.standard_normal((9, 4, m)) * 2.0 ** rng.integers(-20, 20, (9, 4, m))).astype(np.float32)
        ws = rng.standard_normal((9, 4, n)).astype(np.float32)
        want = np.zeros((4, m, n), np.float32)
        for s in range(9):
            want += xs[s, :, :, None] * ws[s, :, None, :]
        if not np.array_equal(_einsum_pair(xs, ws).view(np.int32), want.view(np.int32)):
            return False
    return True
