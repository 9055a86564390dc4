"""PyTorch's CPU ``layer_norm`` arithmetic (forward and backward) for float32 and float64, step for step.

NumPy's mean and variance round differently from PyTorch's kernel (ATen's layer_norm_kernel.cpp with
moments_utils.h), and 30–85% of outputs and gradients then differ in the last bit, which a few optimizer steps
turn into different printed losses. This module repeats the kernel's order of operations on whole arrays.
The kernel runs at the AVX2 build's vector width (8 float32 or 4 float64 lanes, also on AVX-512 machines), and
which of its multiply-adds are fused (its explicit ``fmadd`` calls and the compiler's contractions) was
measured against torch 2.13 element for element:

- statistics per row (``RowwiseMoments``): the row is read as vectors; each run of 16 vectors (a chunk) is a
  per-lane Welford pass (``m1 += d * (1/(j+1))`` and ``m2 += d * (x - m1)``, both fused); chunk results are
  merged up a binary cascade of stacks (``c = n_add / n``, ``m1 += c * d`` unfused,
  ``m2 = fma(d * c, d * n_old, m2 + m2_add)``); the elements after the last full vector go through a scalar
  Welford (``m1 += d / count``, unfused ``m2``); the lanes are then merged into it one by one
  (``m1 = fma(c, d, m1)``, ``m2 += fma(d * d * c, n_old, m2_add)``); ``var = m2 / N``;
- ``rstd = 1 / sqrt(var + eps)`` and ``y = fma((x - mean) * rstd, weight, bias)``;
- backward per row: ``ds = sum(dy * x * w)`` and ``db = sum(dy * w)`` accumulate per lane (the first vector,
  then unfused adds; the partial last vector is fused), and the lanes add as a tree for float32
  (``((l0+l4)+(l2+l6)) + ((l1+l5)+(l3+l7))``) or left to right for float64;
  ``b = fma(db, mean, -ds) * a * a * a * s``, ``c = fma(-b, mean, -(db * a * s))`` with ``a = rstd`` and
  ``s = 1 / N`` (each product rounded in turn), and
  ``dx = fma(b, x, a * dy * w) + c``;
- weight and bias gradients: each of PyTorch's threads adds its block of ``ceil(M / threads)`` rows into its
  own buffer, one row after another (``buf = fma(dy, fma(a, x, -a * mean), buf)`` for the weight), and the
  buffers are added in thread order. So these two depend on the thread count: core uses
  ``core.get_num_threads()``, whose default is PyTorch's, and matches PyTorch run with the same count.

Float32 fused multiply-adds compute in float64 and round once (exact but for ~1 in 10^9 double roundings; the
Welford mean's, whose multiplier is one number, is the BLAS's fused saxpy where ``core._saxpy`` finds one);
float64 ones use the exact two-product fma. The tests compare with torch bit for bit. ``layer_norm`` takes this
route for float32 NumPy arrays, and for float64 ones only with ``EXACT_FLOAT64`` set (the cost, below); float64
otherwise keeps double statistics (last-bit differences from torch on about half the elements).
"""

from __future__ import annotations

import numpy as np

from core import _saxpy
from core._cascade_sum import in_order
from core._fused import fma as _fused_fma
from core._numpy_c import copyto as _copyto
from core._threads import get_num_threads

__all__ = ["layer_norm_forward", "layer_norm_backward", "layer_norm_stats", "supported"]

CHUNK = 16  # vectors per Welford chunk (kChunkSize)
# NOTE: float64 is reproduced as exactly (the tests check it), but each exact fused multiply-add costs some
# twenty NumPy passes in float64 against four in float32, which made float64 layer_norm 5-7x slower than its
# double-statistics path; so layer_norm uses it for float64 only when this is switched on.
EXACT_FLOAT64 = False
_LANES = {np.dtype(np.float32): 8, np.dtype(np.float64): 4}
_F32 = np.dtype(np.float32)


def supported(*arrays) -> bool:
    """Whether the kernel reproduction applies: NumPy arrays (or None) of one dtype, float32 (or float64 with
    ``EXACT_FLOAT64``)."""
    present = [a for a in arrays if a is not None]
    dt = present[0].dtype
    return (all(type(a) is np.ndarray for a in present) and (dt == _F32 or (EXACT_FLOAT64 and dt in _LANES))
            and all(a.dtype == dt for a in present))


def _fma(a, b, c):
    """``a * b + c`` rounded once; ``c`` is an array or NumPy scalar of the computation's dtype."""
    if c.dtype == _F32:  # (the product of two float32 values is exact in float64)
        return (np.asarray(a, np.float64) * b + c).astype(_F32)
    return _fused_fma(np, a, b, c)


def _welford(blocks, dt):
    """Per-lane Welford moments of ``blocks`` (M, chunks, steps, lanes) over its steps: (m1, m2)."""
    m1 = np.zeros(blocks.shape[:2] + blocks.shape[3:], dt)
    m2 = np.zeros_like(m1)
    for j in range(blocks.shape[2]):
        x = blocks[:, :, j]
        d = x - m1
        m1 = _fma(d, dt.type(1) / dt.type(j + 1), m1)
        m2 = _fma(d, x - m1, m2)
    return m1, m2


def _merge_vec(add, into, dt):
    """``AddMomentsVec``: the moments ``add`` = [count, m1, m2] merged into ``into``, in place."""
    n = into[0] + add[0]
    c = dt.type(0) if n == 0 else dt.type(add[0]) / dt.type(n)
    d = add[1] - into[1]
    into[1] = into[1] + c * d
    into[2] = _fma(d * c, d * dt.type(into[0]), into[2] + add[2])
    into[0] = n


def _welford32(blocks):
    """``_welford`` of float32 ``blocks``: the same steps on one contiguous row of lanes per step, through
    preallocated buffers.

    NOTE: ~1.5x ``_welford``'s speed (the steps were strided slices and every fma made four fresh arrays).
    ``m1 = fma(d, 1 / (j + 1), m1)`` is the BLAS's fused ``saxpy`` where ``core._saxpy`` found one (its
    multiplier is one number): rounded once, as the kernel's fma; the float64 route rounds twice, which differs
    from it ~1 time in 10^9 (the module's note). ``m2``'s fma (two arrays) stays in float64."""
    count_rows, chunks, steps, lanes = blocks.shape
    k = count_rows * chunks * lanes
    x = np.empty((steps, count_rows, chunks, lanes), _F32)
    _copyto(x, blocks.transpose(2, 0, 1, 3))
    x = x.reshape(steps, k)
    m1, m2, d, e = np.zeros((4, k), _F32)
    t, u, m2_wide = np.zeros((3, k), np.float64)
    sub, mul, add = np.subtract, np.multiply, np.add
    for j in range(steps):
        xj = x[j]
        sub(xj, m1, out=d)
        r = np.float32(1) / np.float32(j + 1)
        if j == 0:  # (fma(d, 1, m1) is the sum, rounded once)
            add(d, m1, out=m1)
        elif not _saxpy.saxpy_(m1, d, r):
            _copyto(t, d)
            mul(t, np.float64(r), out=t)
            _copyto(u, m1)
            add(t, u, out=t)
            _copyto(m1, t, casting="same_kind")
        sub(xj, m1, out=e)
        _copyto(t, d)  # m2 = fma(d, x - m1, m2): the product exact in float64, one add, rounded
        _copyto(u, e)
        mul(t, u, out=t)
        add(t, m2_wide, out=t)
        _copyto(m2, t, casting="same_kind")
        _copyto(m2_wide, m2)
    shape = (count_rows, chunks, lanes)
    return m1.reshape(shape), m2.reshape(shape)


def _merged(into, add, dt):
    """``AddMomentsVec`` of ``add`` into ``into`` (each ``(count, m1, m2)``, the count one number for all of
    their rows), as a new triple: ``_merge_vec``'s steps on arrays that may hold many merges side by side."""
    n = into[0] + add[0]
    c = dt.type(0) if n == 0 else dt.type(add[0]) / dt.type(n)
    d = add[1] - into[1]
    return n, into[1] + c * d, _fma(d * c, d * dt.type(into[0]), into[2] + add[2])


def _pairs(items, dt):
    """One level of the cascade: ``(M(M(E, a), b) for the pairs (a, b) of items)``, ``items`` a list of
    ``(counts, m1, m2)`` with ``m1``/``m2`` of shape (M, k, lanes) and ``counts`` the k items' counts; the pairs
    of one count computed side by side (only the last item, the partial chunk's, may have another)."""
    counts, m1, m2 = items
    pairs = len(counts) // 2
    groups = [(0, pairs)]
    if pairs > 1 and (counts[2 * pairs - 2], counts[2 * pairs - 1]) != (counts[0], counts[1]):
        groups = [(0, pairs - 1), (pairs - 1, pairs)]
    out_counts, out_m1, out_m2 = [], [], []
    for first, stop in groups:
        left = slice(2 * first, 2 * stop, 2)
        right = slice(2 * first + 1, 2 * stop, 2)
        zero = np.zeros_like(m1[:, left])
        a = _merged((0, zero, zero), (counts[2 * first], m1[:, left], m2[:, left]), dt)
        n, p1, p2 = _merged(a, (counts[2 * first + 1], m1[:, right], m2[:, right]), dt)
        out_counts += [n] * (stop - first)
        out_m1.append(p1)
        out_m2.append(p2)
    if len(groups) == 1:
        return out_counts, out_m1[0], out_m2[0]
    return out_counts, np.concatenate(out_m1, axis=1), np.concatenate(out_m2, axis=1)


def _cascade32(counts, m1, m2, depth, dt):
    """``_chunk_moments``' cascade of the chunks' moments (``m1``/``m2``: (M, chunks, lanes)) a level at a time:
    level j's items pair up as ``M(M(E, a), b)`` (the stack's carry), an odd one out stays in stack j as
    ``M(E, last)``, the top level's one or two items are merged in order without a carry; then stacks 1.. merge
    into stack 0 in order, as the chunk-by-chunk loop leaves and merges them."""
    rows, lanes = m1.shape[0], m1.shape[2]
    zero = np.zeros((rows, lanes), dt)
    empty = (0, zero, zero)
    stacks = []
    items = (list(counts), m1, m2)
    for level in range(depth):
        k = len(items[0])
        if level == depth - 1 or k == 0:  # (the top: at most two items, merged in order, no carry)
            top = empty
            for i in range(k):
                top = _merged(top, (items[0][i], items[1][:, i], items[2][:, i]), dt)
            stacks.append(top)
            stacks += [empty] * (depth - 1 - level)
            break
        stacks.append(_merged(empty, (items[0][-1], items[1][:, -1], items[2][:, -1]), dt) if k % 2 else empty)
        items = _pairs(items, dt) if k > 1 else ([], items[1][:, :0], items[2][:, :0])
    total = stacks[0]
    for j in range(1, depth):
        total = _merged(total, stacks[j], dt)
    return total


def _chunk_moments(vecs, dt):
    """The lanes' merged moments [count, m1, m2] of ``vecs`` (M, n, lanes), chunk results up the cascade."""
    if dt == _F32 and bool(np.isfinite(vecs).all()):
        return _chunk_moments32(vecs)
    m, n = -(-vecs.shape[1] // CHUNK), vecs.shape[1]
    full = n // CHUNK
    chunks = []
    if full:
        m1, m2 = _welford(vecs[:, :full * CHUNK].reshape(vecs.shape[0], full, CHUNK, -1), dt)
        chunks += [(CHUNK, m1[:, i], m2[:, i]) for i in range(full)]
    if n > full * CHUNK:
        m1, m2 = _welford(vecs[:, None, full * CHUNK:], dt)
        chunks.append((n - full * CHUNK, m1[:, 0], m2[:, 0]))
    depth = max(1, (m - 1).bit_length())
    zero = np.zeros((vecs.shape[0], vecs.shape[2]), dt)
    stack = [[0, zero, zero] for _ in range(depth)]
    for i, chunk in enumerate(chunks):
        _merge_vec(list(chunk), stack[0], dt)
        mask, j = i + 1, 1
        while j < depth and mask & 1 == 0:
            _merge_vec(stack[j - 1], stack[j], dt)
            stack[j - 1] = [0, zero, zero]
            mask, j = mask >> 1, j + 1
    for j in range(1, depth):
        _merge_vec(stack[j], stack[0], dt)
    return stack[0]


def _chunk_moments32(vecs):
    """``_chunk_moments`` of finite float32 ``vecs``: the full chunks' Welford passes in one ``_welford32``, the
    cascade a level at a time (``_cascade32``) instead of one merge per chunk.

    NOTE: only for finite values: where two NaNs of different signs meet (an infinite or NaN input's), which one
    NumPy's loops return depends on the element's position in the call, and these calls lay the elements out
    otherwise (rows full of NaNs and infinities came out with other NaN signs in ~10% of cases; torch's signs
    matched either route's in a fifth of them). A finite row makes only the default NaN (overflow), all alike."""
    dt = vecs.dtype
    m, n = -(-vecs.shape[1] // CHUNK), vecs.shape[1]
    full = n // CHUNK
    parts, counts = [], []
    if full:
        parts.append(_welford32(vecs[:, :full * CHUNK].reshape(vecs.shape[0], full, CHUNK, -1)))
        counts += [CHUNK] * full
    if n > full * CHUNK:
        parts.append(_welford32(vecs[:, None, full * CHUNK:]))
        counts.append(n - full * CHUNK)
    m1 = parts[0][0] if len(parts) == 1 else np.concatenate([p[0] for p in parts], axis=1)
    m2 = parts[0][1] if len(parts) == 1 else np.concatenate([p[1] for p in parts], axis=1)
    return list(_cascade32(counts, m1, m2, max(1, (m - 1).bit_length()), dt))


def _moments(rows):
    """``RowwiseMoments``: (mean, biased variance) of each row of ``rows`` (M, N)."""
    dt, (count_rows, size) = rows.dtype, rows.shape
    lanes = _LANES[dt]
    n = size // lanes
    m1 = np.zeros(count_rows, dt)
    m2 = np.zeros(count_rows, dt)
    for count, k in enumerate(range(n * lanes, size), 1):  # the scalar Welford over the tail
        x = rows[:, k]
        d = x - m1
        m1 = m1 + d / dt.type(count)
        m2 = m2 + d * (x - m1)
    count = size - n * lanes
    if n:
        _, lane_m1, lane_m2 = _chunk_moments(rows[:, :n * lanes].reshape(count_rows, n, lanes), dt)
        for lane in range(lanes):  # AddMoments, lane by lane
            c = dt.type(n) / dt.type(count + n)
            d = lane_m1[:, lane] - m1
            m1 = _fma(c, d, m1)
            m2 = m2 + _fma(d * d * c, dt.type(count), lane_m2[:, lane])
            count += n
    return m1, m2 / dt.type(size)


def layer_norm_forward(rows, weight, bias, eps: float):
    """``(y, mean, rstd)`` of ``rows`` (M, N) normalised per row, as PyTorch's kernel computes them
    (``weight``/``bias``: (N,) arrays or None; ``mean``/``rstd``: (M,))."""
    dt = rows.dtype
    mean, var = _moments(rows)
    rstd = dt.type(1) / np.sqrt(var + dt.type(eps))
    if dt == _F32 and (weight is not None or bias is not None) and _finite(mean, rstd, weight, bias):
        return _affine32(rows, mean, rstd, weight, bias), mean, rstd
    t = (rows - mean[:, None]) * rstd[:, None]
    if weight is None and bias is None:
        return t, mean, rstd
    w = np.ones(rows.shape[1], dt) if weight is None else weight
    b = np.zeros(rows.shape[1], dt) if bias is None else bias
    return _fma(t, w, b), mean, rstd


_ROWS_BLOCK = 16384  # elements of the rows ``_affine32`` takes at a time (its float64 scratch stays in cache)


def _finite(*arrays) -> bool:
    """Whether the per-row statistics and coefficients (and the weight, bias: None counts as finite) are all
    finite: then so is every row (an infinite or NaN element makes its row's mean so), no NaN meets another in the
    elementwise steps, and computing them a few rows at a time gives the whole-array steps' bits, NaN payloads
    included (where two NaNs meet, which one NumPy's loop returns depends on the operands' layout)."""
    return all(a is None or bool(np.isfinite(a).all()) for a in arrays)


def _affine32(rows, mean, rstd, weight, bias):
    """``fma((x - mean) * rstd, weight, bias)`` of float32 ``rows`` whose statistics are finite (``_finite``), a
    few rows at a time through one float64 buffer (the fma: the exact product plus the bias in float64, rounded
    once more, as ``_fma``)."""
    count, size = rows.shape
    w = np.ones(size) if weight is None else weight.astype(np.float64)
    b = np.zeros(size) if bias is None else bias.astype(np.float64)
    out = np.empty((count, size), _F32)
    step = max(1, _ROWS_BLOCK // max(size, 1))
    wide = np.empty((min(step, count), size))
    for start in range(0, count, step):
        stop = min(start + step, count)
        o, t = out[start:stop], wide[:stop - start]
        np.subtract(rows[start:stop], mean[start:stop, None], out=o)
        np.multiply(o, rstd[start:stop, None], out=o)
        _copyto(t, o)
        np.multiply(t, w, out=t)
        np.add(t, b, out=t)
        _copyto(o, t, casting="same_kind")
    return out


def layer_norm_stats(arr, k: int, eps: float):
    """``native_layer_norm``'s ``(mean, rstd)`` of ``arr`` over its last ``k`` dims (kept as size 1), as the
    kernel computes them; None where the reproduction does not apply."""
    if not arr.size or not supported(arr):
        return None
    rows = np.ascontiguousarray(arr).reshape(-1, int(np.prod(arr.shape[arr.ndim - k:])))
    mean, var = _moments(rows)
    shape = arr.shape[:arr.ndim - k] + (1,) * k
    return mean.reshape(shape), (rows.dtype.type(1) / np.sqrt(var + rows.dtype.type(eps))).reshape(shape)


def _lane_sum(acc):
    """``vec_reduce_all``: the lanes of ``acc`` (M, lanes) added (float32: a shuffle tree; float64: in order)."""
    if acc.shape[1] == 8:
        w = acc[:, :4] + acc[:, 4:]
        u = w[:, :2] + w[:, 2:]
        return u[:, 0] + u[:, 1]
    total = acc[:, 0]
    for k in range(1, acc.shape[1]):
        total = total + acc[:, k]
    return total


def _row_dot(a, b):
    """``map_reduce_all``: each row's sum of ``a * b`` (``b`` None: of ``a``) in the kernel's order."""
    lanes, (rows, size) = _LANES[a.dtype], a.shape
    if size < lanes:
        p = a if b is None else a * b
        total = p[:, 0]
        for k in range(1, size):
            total = total + p[:, k]
        return total
    n = size // lanes
    p = a[:, :n * lanes] if b is None else a[:, :n * lanes] * b[..., :n * lanes]
    acc = in_order(p.reshape(rows, n, lanes), axis=1)
    if size > n * lanes:
        tail = slice(n * lanes, size)
        one = a.dtype.type(1)
        acc[:, :size - n * lanes] = _fma(a[:, tail], one if b is None else b[..., tail], acc[:, :size - n * lanes])
    return _lane_sum(acc)


def _input_grad(dy, rows, mean, rstd, weight):
    dt = rows.dtype
    scale = dt.type(1) / dt.type(rows.shape[1])
    if weight is None:
        ds, db = _row_dot(dy, rows), _row_dot(dy, None)
        wdy = rstd[:, None] * dy
    else:
        ds, db = _row_dot(dy * rows, weight), _row_dot(dy, weight)
        wdy = rstd[:, None] * dy * weight
    b = _fma(db, mean, -ds) * rstd * rstd * rstd * scale
    c = _fma(-b, mean, -(db * rstd * scale))
    if dt == _F32 and _finite(mean, rstd, b, c, weight):
        return _fma_rows32(b, rows, wdy, c)
    return _fma(b[:, None], rows, wdy) + c[:, None]


def _fma_rows32(b, rows, wdy, c):
    """``fma(b, x, wdy) + c`` (``b``, ``c`` per row) of float32 arrays whose coefficients are finite
    (``_finite``), a few rows at a time through float64 buffers (the exact product plus ``wdy`` in float64,
    rounded once more, as ``_fma``)."""
    count, size = rows.shape
    b64 = b.astype(np.float64)[:, None]
    out = np.empty((count, size), _F32)
    step = max(1, _ROWS_BLOCK // max(size, 1))
    wide = np.empty((2, min(step, count), size))
    for start in range(0, count, step):
        stop = min(start + step, count)
        o, t, u = out[start:stop], wide[0, :stop - start], wide[1, :stop - start]
        _copyto(t, rows[start:stop])
        np.multiply(t, b64[start:stop], out=t)
        _copyto(u, wdy[start:stop])
        np.add(t, u, out=t)
        _copyto(o, t, casting="same_kind")
        np.add(o, c[start:stop, None], out=o)
    return out


def _thread_blocks(arr, threads: int):
    """``arr`` (M, N) as (blocks, rows per block, N): PyTorch's ``parallel_for`` split, the last block padded
    with zeros."""
    rows = arr.shape[0]
    per = -(-rows // min(threads, rows))
    blocks = -(-rows // per)
    padded = np.zeros((blocks * per, arr.shape[1]), arr.dtype)
    padded[:rows] = arr
    return padded.reshape(blocks, per, arr.shape[1])


def _weight_grad(dy, rows, mean, rstd, threads: int):
    """Each thread's buffer gets ``fma(dy, a * x + b, buf)`` row after row; the buffers add in thread order."""
    per = -(-rows.shape[0] // min(threads, rows.shape[0]))
    if rows.dtype == _F32 and rows.shape[0] % per == 0 and _finite(mean, rstd):
        return _weight_grad32(dy, rows, mean, rstd, per)
    xhat = _fma(rstd[:, None], rows, (-rstd * mean)[:, None])
    if rows.dtype == np.float32:  # the product is exact in float64: one add and one rounding per row
        prods = _thread_blocks(dy.astype(np.float64) * xhat, threads)
        buf = np.zeros((prods.shape[0], rows.shape[1]), np.float32)
        for r in range(prods.shape[1]):
            buf = (prods[:, r] + buf).astype(np.float32)
    else:
        dys, xhats = _thread_blocks(dy, threads), _thread_blocks(xhat, threads)
        buf = np.zeros((dys.shape[0], rows.shape[1]), rows.dtype)
        for r in range(dys.shape[1]):
            buf = _fma(dys[:, r], xhats[:, r], buf)
    return in_order(buf)


def _weight_grad32(dy, rows, mean, rstd, per: int):
    """``_weight_grad`` of float32 arrays whose rows split evenly into blocks of ``per`` (no padded block) and
    whose statistics are finite: the blocks' rows ``r0:r1`` at a time, their ``xhat = fma(a, x, -a mean)`` and
    exact products with ``dy`` in float64 buffers (in cache), then added row after row into the blocks' float32
    buffers (``fl32(p + buf)``, the whole-array route's expression: a NaN of ``dy`` may meet one in ``buf``)."""
    count, size = rows.shape
    blocks = count // per
    xs, dys = rows.reshape(blocks, per, size), dy.reshape(blocks, per, size)
    scale = rstd.astype(np.float64).reshape(blocks, per, 1)
    shift = (-rstd * mean).astype(np.float64).reshape(blocks, per, 1)
    step = max(1, _ROWS_BLOCK // (blocks * size))
    wide = np.empty((2, blocks, min(step, per), size))
    narrow = np.empty((blocks, min(step, per), size), _F32)
    buf = np.zeros((blocks, size), _F32)
    for r0 in range(0, per, step):
        r1 = min(r0 + step, per)
        t, u, h = wide[0, :, :r1 - r0], wide[1, :, :r1 - r0], narrow[:, :r1 - r0]
        _copyto(t, xs[:, r0:r1])
        np.multiply(t, scale[:, r0:r1], out=t)
        np.add(t, shift[:, r0:r1], out=t)
        _copyto(h, t, casting="same_kind")  # xhat, rounded
        _copyto(u, dys[:, r0:r1])
        _copyto(t, h)
        np.multiply(u, t, out=t)  # dy xhat: exact
        for i in range(r1 - r0):
            buf = (t[:, i] + buf).astype(_F32)
    return in_order(buf)


def layer_norm_backward(dy, rows, mean, rstd, weight, need):
    """``(dx, dweight, dbias)`` (None where ``need`` says not) for the gradient ``dy`` of
    ``layer_norm_forward(rows, weight, ...)``, whose ``mean`` and ``rstd`` are given."""
    threads = max(1, get_num_threads())
    dx = _input_grad(dy, rows, mean, rstd, weight) if need[0] else None
    dw = _weight_grad(dy, rows, mean, rstd, threads) if need[1] else None
    db = in_order(in_order(_thread_blocks(dy, threads), axis=1)) if need[2] else None
    return dx, dw, db
