"""Float sums in the order PyTorch's CPU kernels add them: ``sum``/``mean`` (``nll_loss``'s reduction has its own
cascade: ``core._nll_sum``; a bias gradient's batch sum its fast path: ``core._batch_sum``).

PyTorch's ``cascade_sum`` (ATen's SumKernel, dispatched with 8 float32 lanes: the AVX2 build of the kernel,
also on AVX-512 machines) adds a contiguous row as follows, and NumPy's pairwise sum rounds differently on
50–85% of rows, which every printed ``loss.item()`` of a mean-reduced loss shows in its last digits:

- a row of 8 or more elements is read as vectors of 8 lanes; the tail that does not fill a vector is added
  left to right into a scalar starting at 0, then the 8 lanes of the vector sum, lane by lane;
- a sum over items (vectors, or elements for a row shorter than 8) is interleaved 4 ways: item ``4r + k``
  goes to partial sum ``k`` (items left over after the last group of 4 go to partial 0), and the partials
  are added 0 + 1 + 2 + 3;
- each partial adds its items in blocks of 16 and carries the block sums up a 4-level cascade (``multi_row_sum``),
  so numbers of a similar size meet;
- the result is stored as ``0 + total`` (the output starts at 0), so a zero sum is +0, never -0.

A sum over another dim (``column_sums``, e.g. ``x.sum(0)`` over a batch) walks the reduced
dim for 32 columns at a time with the cascade alone, then 8 columns at a time and single columns with the
4-way interleave too (fewer than 8 columns: 4 at a time with the cascade, then single ones).

float64 takes the same order with 4 lanes a vector; float16 and bfloat16 add in float32, loading 16 elements a
vector (``_half_sum``); non-contiguous views go through PyTorch's iterator order (``core._strided_sum``).

Every step is an in-order sum of whole slices (``in_order``), a few NumPy calls each, so the emulation costs a
small multiple of NumPy's own sum. ``ordered_sum`` reproduces it exactly (the tests compare bit for bit with
torch); a sum to one value of more than ``LIMIT`` elements is split among PyTorch's threads, chunk by chunk
(``_thread_sums``); PyTorch's single thread (``set_num_threads(1)``) adds any size in one cascade. core follows
either up to ``ONE_THREAD_LIMIT`` elements a chunk.
"""

from __future__ import annotations

import math
import struct

import numpy as np

from core._threads import get_num_threads

__all__ = ["LIMIT", "batch_sums", "column_sums", "in_order", "ordered_sum", "row_sums"]

LANES = 8
ILP = 4
LEVELS = 4
LIMIT = 32767  # most elements of a sum to one value in PyTorch's order: larger ones are split among its threads
ONE_THREAD_LIMIT = 1 << 24  # most elements of a sum to one value in one thread's order (~0.3 ns an element)
HUGE = 1 << 24  # larger arrays keep NumPy's sum, but for a contiguous sum over leading dims (``_huge_batch``)
_F32 = np.float32
_ORDERED_TYPES = (np.dtype(np.float32), np.dtype(np.float64))
_F32_DTYPE, _F64_DTYPE, _F16_DTYPE = (*_ORDERED_TYPES, np.dtype(np.float16))  # (identity tests: see ordered_sum)
_VECTOR_BYTES = 32  # an AVX2 register: 8 float32 or 4 float64 lanes
_add = np.add
_add_reduce = np.add.reduce
try:  # NOTE: np.einsum's Python wrapper (dispatch, ``optimize`` checks) costs ~0.7 µs a call, half a small sum's
    from numpy._core._multiarray_umath import c_einsum as _einsum  # einsum: the hot small sums call its C core
except ImportError:  # (plain ndarrays only: it skips __array_function__)
    _einsum = np.einsum
_BLOCK_DIMS, _SUM_DIMS = [0, 1, 2], [0, 2]
_FEW_LANES = 16  # single lanes from which ``in_order`` transposes them into one row rather than cumsum each
_MANY_LANES = 1 << 13  # single lanes from which a few slices (``_FEW_SLICES``) are added one by one instead
_FEW_SLICES = 32


def _lanes(x: np.ndarray) -> int:
    """Accumulator lanes of a vector of ``x``'s dtype (float32: 8, float64: 4)."""
    return _VECTOR_BYTES // x.itemsize


def _ceil_log2(n: int) -> int:
    return (n - 1).bit_length() if n > 1 else 0


def in_order(block: np.ndarray, axis: int = 0) -> np.ndarray:
    """block[0] + block[1] + ... along ``axis``, one slice after another (0 for an empty axis).

    NOTE: every order in this module (and in ``core._lane_sum``, the layer-norm and softmax kernels) is made of
    these, so the NumPy call chosen here is what the speed of an exact sum comes down to. NumPy adds in order
    along an axis that is not the innermost one of its loop: then each step is an elementwise ``out += slice``
    over the inner axis (its pairwise or unrolled summation is only for a reduced innermost axis). NumPy's loop
    order follows the strides, so the block's last axis must be a contiguous run of 2 or more lanes (else it is
    copied, or for single lanes transposed, into such a layout). ``np.einsum`` (C path, one operand) then runs
    that loop ~4x faster than ``np.add.reduce``, whose outer loop costs ~30 ns a row of lanes: near NumPy's
    own sum. bfloat16 and float16 take ``np.add.reduce`` (einsum has no bfloat16 loop); a handful of single
    lanes a cumsum, which adds in order whatever the layout."""
    shape = block.shape
    axis %= block.ndim
    k, kept = shape[axis], shape[:axis] + shape[axis + 1:]
    if k <= 1 or not block.size:
        return block[(slice(None),) * axis + (0,)].copy() if k == 1 else np.zeros(kept, block.dtype)
    lead, lanes = math.prod(shape[:axis]), math.prod(shape[axis + 1:])
    if lanes >= 2:
        if shape[-1] < 2 or block.strides[-1] != block.itemsize:
            block = np.ascontiguousarray(block)
        if block.dtype in _ORDERED_TYPES:
            dims = list(range(block.ndim))
            return np.einsum(block, dims, dims[:axis] + dims[axis + 1:])
        return _add_reduce(np.ascontiguousarray(block).reshape(lead, k, lanes), 1).reshape(kept)
    if lead >= _MANY_LANES and k <= _FEW_SLICES and block.ndim > 1:  # a transposed copy costs more than k adds
        at = (slice(None),) * axis
        total = block[at + (0,)] + block[at + (1,)]
        for i in range(2, k):
            _add(total, block[at + (i,)], out=total)
        return total
    if lead >= _FEW_LANES:
        rows = np.ascontiguousarray(np.moveaxis(block, axis, 0)).reshape(k, lead)
        sums = np.einsum(rows, [0, 1], [1]) if block.dtype in _ORDERED_TYPES else _add_reduce(rows, 0)
        return sums.reshape(kept)
    return np.cumsum(block.reshape(lead, k), axis=1)[:, -1].reshape(kept)


def _cascade(items: np.ndarray, axis: int) -> np.ndarray:
    """``multi_row_sum``: the sum over ``axis`` of ``items``, carried up the levels in blocks of ``step``.

    Level 0 adds ``step`` items at a time; each full block's sum goes to level 1 (level 0 starts again), and
    each ``step`` blocks of level 1 go to level 2, and so on; the top level keeps everything it gets. At the end
    the levels hold the sums of what came after their last carry, added level 0 + 1 + 2 + 3. So the sums per
    level are in-order sums of blocks, computed here level by level with one ``in_order`` each (splitting an
    axis into blocks is a view, never a copy)."""
    step = 1 << max(4, _ceil_log2(items.shape[axis]) // LEVELS)
    level, total = items, None
    for depth in range(LEVELS):
        size = level.shape[axis]
        blocks = size // step if depth < LEVELS - 1 else 0  # the top level keeps every block sum it received
        if size > blocks * step:  # what this level holds at the end (an empty level adds 0)
            rest = in_order(_take(level, axis, blocks * step, size), axis)
            total = rest if total is None else total + rest
        if not blocks:
            break
        split = level.shape[:axis] + (blocks, step) + level.shape[axis + 1:]
        level = in_order(_take(level, axis, 0, blocks * step).reshape(split), axis + 1)
    return np.zeros(items.shape[:axis] + items.shape[axis + 1:], items.dtype) if total is None else total


def _take(a: np.ndarray, axis: int, start: int, stop: int) -> np.ndarray:
    return a[(slice(None),) * axis + (slice(start, stop),)]


def _interleaved(items: np.ndarray, axis: int) -> np.ndarray:
    """``row_sum``: the sum over ``axis`` 4-way interleaved (item 4r + k to partial k, leftovers to partial 0),
    each partial a cascade, the partials added 0 + 1 + 2 + 3."""
    size = items.shape[axis]
    groups = size // ILP
    split = items.shape[:axis] + (groups, ILP) + items.shape[axis + 1:]
    partials = _cascade(_take(items, axis, 0, groups * ILP).reshape(split), axis)  # (..., ILP, lanes...)
    if groups * ILP < size:
        first = (slice(None),) * axis + (0,)
        for i in range(groups * ILP, size):
            partials[first] += items[(slice(None),) * axis + (i,)]
    return in_order(partials, axis)


def row_sums(x: np.ndarray, vector: int | None = None) -> np.ndarray:
    """The sums of float32 (or float64) ``x``'s rows along its last axis, added in PyTorch's order; shape
    ``x.shape[:-1]``.

    ``vector``: elements of the source dtype per vector load, 16 for float16 and bfloat16 (``_HALF_VECTOR``): a row
    shorter than that takes the scalar loop, and each vector is loaded as its two halves of 8 added together."""
    n, lanes = x.shape[-1], _lanes(x)
    vector = vector or lanes
    if n < ILP:  # no group of 4: left to right, as NumPy adds too
        return x.sum(axis=-1)
    rows = x.reshape(-1, n)
    if n < vector:  # PyTorch's scalar loop: element 4r + k to partial k
        if n < 2 * ILP:  # x0 + x4 + x5 + x6, then + x1 + x2 + x3: one left-to-right pass (cumsum adds in order)
            return rows[:, [0, *range(ILP, n), 1, 2, 3]].cumsum(axis=1)[:, -1].reshape(x.shape[:-1])
        return _interleaved(rows, 1).reshape(x.shape[:-1])
    full = n // vector
    if vector != lanes:  # each 16-element load adds its two halves of 8 lanes (in float32) into one vector
        halves = rows[:, :full * vector].reshape(-1, full, 2, lanes)
        rows = np.concatenate(((halves[:, :, 0] + halves[:, :, 1]).reshape(-1, full * lanes),
                               rows[:, full * vector:]), axis=1)
    if full < _SHORT:
        return _short_row_sums(rows, full).reshape(x.shape[:-1])
    sums = _interleaved(rows[:, :full * lanes].reshape(-1, full, lanes), 1)
    return in_order(np.concatenate([rows[:, full * lanes:], sums], axis=1), 1).reshape(x.shape[:-1])


_SHORT = ILP * 16  # vectors in a row below which no partial carries a block (one in-order sum each)


def _short_row_sums(rows: np.ndarray, full: int) -> np.ndarray:
    """``row_sums`` of rows of 8 to 511 elements (``full`` vectors of 8 each), in as few NumPy calls as the order
    allows.

    NOTE: the hot path of every printed loss (one row: its mean) and of small ``sum(-1)``s. With fewer than 16
    groups of 4 vectors nothing is carried, so partial k is the in-order sum of vectors 4r + k, the vectors after
    the last group go to partial 0, the partials are added 0 + 1 + 2 + 3, and the tail and the lanes follow left
    to right: a few rows transposed first (``_short_columns_sums``), more with two einsums over their own layout (a
    transposed copy costs ~2 ns an element, more than all the adds), then ``in_order`` along each row's chain."""
    m, n = rows.shape
    width = _lanes(rows)
    if m == 1:
        return _short_vector_sum(rows.reshape(n), full).reshape(1)
    groups = full // ILP
    if m * n <= _SMALL_BATCH:
        return _short_columns_sums(np.ascontiguousarray(rows.T), full, width)
    if groups:
        partials = np.einsum(rows[:, :groups * ILP * width].reshape(m, groups, ILP * width), [0, 1, 2], [0, 2])
    else:
        partials = np.zeros((m, ILP * width), rows.dtype)
    for i in range(groups * ILP, full):
        partials[:, :width] += rows[:, i * width:(i + 1) * width]
    lanes = np.einsum(partials.reshape(m, ILP, width), [0, 1, 2], [0, 2])  # ((p0 + p1) + p2) + p3
    return in_order(np.concatenate((rows[:, full * width:], lanes), axis=1) if n > full * width else lanes, 1)


def _short_columns_sums(cols: np.ndarray, full: int, width: int) -> np.ndarray:
    """``_short_row_sums`` of a few rows given transposed (each row a column of ``cols``): every step is then a
    reduce over the outer axis of rows as long as the batch (cheaper at this size than ~30 ns a short inner row)."""
    n, m = cols.shape
    groups = full // ILP
    if groups:
        partials = _add_reduce(cols[:groups * ILP * width].reshape(groups, ILP * width, m), 0)
    else:
        partials = np.zeros((ILP * width, m), cols.dtype)
    for i in range(groups * ILP, full):
        partials[:width] += cols[i * width:(i + 1) * width]
    lanes = _add_reduce(partials.reshape(ILP, width, m), 0)
    return _add_reduce(np.concatenate((cols[full * width:], lanes)) if n > full * width else lanes, 0)


def _short_vector_sum(v: np.ndarray, full: int):
    """``_short_row_sums`` of one row: the same steps on a 1-d array (a 0-d result). Fewer than 4 vectors make
    no group: partial 0 is their in-order sum and the others stay 0, so the lanes are that sum (two adds)."""
    groups, width = full // ILP, _VECTOR_BYTES // v.itemsize  # (``_lanes``)
    if groups:
        partials = _add_reduce(v[:groups * ILP * width].reshape(groups, ILP * width), 0)
        for i in range(groups * ILP, full):
            partials[:width] += v[i * width:(i + 1) * width]
        lanes = _add_reduce(partials.reshape(ILP, width), 0)
    else:
        lanes = v[:width] + v[width:2 * width] if full > 1 else v[:width]
        if full > 2:
            lanes += v[2 * width:3 * width]
    return (np.concatenate((v[full * width:], lanes)) if v.shape[0] > full * width else lanes).cumsum()[-1]


def column_sums(x: np.ndarray, vector: int | None = None) -> np.ndarray:
    """Sums over axis 1 of float32 ``x`` shaped (outer, reduced, columns) in PyTorch's order: (outer, columns).

    Each column is a lane of the same order: blocks of 32 columns (4 with fewer than ``vector`` columns: PyTorch's
    scalar loop) take the cascade alone, the rest (8-column vectors and single columns alike) the 4-way interleave;
    so two calls cover all."""
    cols, lanes = x.shape[2], _lanes(x)
    block = ILP * lanes if cols >= (vector or lanes) else ILP
    j = cols // block * block
    out = np.empty((x.shape[0], cols), x.dtype)
    if j:
        out[:, :j] = _cascade(x[:, :, :j], 1)
    if cols > j:
        out[:, j:] = _interleaved(x[:, :, j:], 1)
    return out


def batch_sums(x: np.ndarray, vector: int | None = None) -> np.ndarray:
    """``column_sums`` of a C-contiguous float32 (rows, columns) array: the sum over its rows."""
    cols, lanes = x.shape[1], _lanes(x)
    if x.size <= _SMALL_BATCH or cols >= _WIDE:  # (callers pass several columns)
        block = ILP * lanes if cols >= (vector or lanes) else ILP
        if cols % block == 0:  # every column in the cascade alone
            return _cascade_rows(x)
        if cols < block:  # every column in the 4-way interleave
            return _interleaved_rows(x)
    return column_sums(x.reshape(1, *x.shape), vector)[0]


_SMALL_BATCH = 1 << 14  # elements of a batch up to which its sum is a few reduces over its rows
_WIDE = 128  # columns from which a batch's rows are long enough for those reduces at any size


def _cascade_rows(y: np.ndarray) -> np.ndarray:
    """``_cascade`` over the rows of a small C-contiguous (n, m) array, m >= 2: one reduce a level.

    NOTE: the hot path of every bias gradient. Each level's in-order block sums are one ``np.add.reduce`` over
    the outer axis of a C-contiguous array of 2 or more columns, which adds whole rows one after another (a lone
    column would become the reduced innermost axis, which NumPy sums pairwise); at this size that beats
    ``in_order``'s choices, whose bookkeeping costs more than the adds."""
    n, m = y.shape
    step = 1 << max(4, _ceil_log2(n) // LEVELS)
    level, total = y, None
    for depth in range(LEVELS):
        size = level.shape[0]
        blocks = size // step if depth < LEVELS - 1 else 0
        if size > blocks * step:  # what this level holds at the end (an empty level adds 0)
            rest = _add_reduce(level[blocks * step:], 0)
            total = rest if total is None else total + rest
        if not blocks:
            break
        level = _einsum(level[:blocks * step].reshape(blocks, step, m), _BLOCK_DIMS, _SUM_DIMS)  # see in_order
    return np.zeros(m, y.dtype) if total is None else total


def _interleaved_rows(y: np.ndarray) -> np.ndarray:
    """``_interleaved`` over the rows of a small C-contiguous (n, c) array, c >= 2 (see ``_cascade_rows``)."""
    rows, cols = y.shape
    groups = rows // ILP
    partials = _cascade_rows(y[:groups * ILP].reshape(groups, ILP * cols)).reshape(ILP, cols)
    for i in range(groups * ILP, rows):
        partials[0] += y[i]
    return _add_reduce(partials, 0)  # ((p0 + p1) + p2) + p3


_ZERO = _F32(0)  # PyTorch's output starts at 0: 0 + a zero sum is +0
# NOTE: a last sequential add.reduce may start from it instead (``initial``: one pass and one array less per bias
# gradient): 0 + p0 differs from p0 only for p0 = -0, and the partial sums then differ only in the sign of a zero
# while every term so far is a zero; the first nonzero term makes them equal, and a sum of zeros ends at +0 either
# way (+0 + -0 is +0), as 0 + (that sum) does


_F32_SAFE = 3.0e38  # a float32 sum below this in magnitude rounds to a finite float32 (FLT_MAX is 3.4028e38)
_F64 = np.float64


def _tiny_sum(x, dt):
    """``np.add.reduce(x)`` of a 1-d float32 or float64 array of 1 to 3 elements: the same bits and warnings.

    NOTE: the per-op hot path (the chapter's ``(x * w).sum()``): NumPy's reduction of fewer than 8 elements adds
    them left to right into a sum that starts at +0, in the element type (its pairwise sum's short loop). Here
    the elements are Python floats (exact) added in double: a float64 sum is the same adds; a float32 sum is
    rounded to float32 after each add (the double sum of two floats rounded to float32 is their correctly rounded
    float32 sum). ~0.4 µs where add.reduce's setup costs ~0.85. Python's float adds never warn, so a result that
    is not finite or too large for float32 goes to add.reduce, which warns as it did (a sum that is subnormal is
    exact: no underflow either). Old-vs-new test: tests/core/test_tiny_sum_unchanged.py."""
    v = x.tolist()
    total = 0.0 + v[0]
    if dt is _F64_DTYPE:
        for u in v[1:]:
            total += u
        return _F64(total) if total - total == 0 else _add_reduce(x)  # (inf - inf and nan - nan are nan)
    if len(v) > 1:
        total += v[1]
        if len(v) > 2:  # (at most 3)
            if not -_F32_SAFE < total < _F32_SAFE:  # (a nan compares false)
                return _add_reduce(x)
            total = _rounded32(total) + v[2]
    return _F32(total) if -_F32_SAFE < total < _F32_SAFE else _add_reduce(x)  # (a nan compares false)


_PACK32 = struct.Struct("f")


def _rounded32(value: float) -> float:
    """``value`` rounded to float32 (to nearest, ties to even: C's cast), as a Python float."""
    return _PACK32.unpack(_PACK32.pack(value))[0]


EXPANDED_LIMIT = 2 ** 20  # elements: a larger expanded (stride-0) view sums as NumPy's, without a copy (a graph's
# shape inference sums 4000x4000 sources expanded from one number: torch's order would make 64 MB of them)


def ordered_sum(x, axes: tuple, keepdim: bool):
    """``x.sum(axes, keepdims=keepdim)``, added in PyTorch's order for a C-contiguous float32 NumPy array of 4 or
    more elements, over everything or over neighbouring axes (PyTorch coalesces them into one); any other sum is
    NumPy's (fewer than 4 elements: left to right in both). A contiguous sum to one value of more than ``LIMIT``
    elements on more than one thread is PyTorch's split among its threads (``_thread_sums``); a sum with several
    outputs is split by outputs, each added whole, so any size keeps the order."""
    if type(x) is np.ndarray and x.size < 4:
        dt = x.dtype
        if dt is _F32_DTYPE or dt is _F64_DTYPE or (dt.kind != "V" and dt != _F16_DTYPE):
            # NOTE: NumPy's sum without ndarray.sum's Python wrapper; a 1-d array's whole sum (the chapter's
            # ``(x * w).sum()``) without the axes and keyword, which cost add.reduce ~0.5 µs more per call
            if x.ndim == 1 and len(axes) == 1 and not keepdim:
                if x.size and (dt is _F32_DTYPE or dt is _F64_DTYPE):
                    return _tiny_sum(x, dt)
                return _add_reduce(x)
            return _add_reduce(x, axes, keepdims=keepdim)
    if type(x) is np.ndarray and len(axes) == x.ndim and x.dtype in _ORDERED_TYPES and x.flags.c_contiguous:
        lanes = _VECTOR_BYTES // x.itemsize  # (``_lanes``)
        if lanes <= x.size < _SHORT * lanes:  # NOTE: a loss's mean (a (batch, 1) loss is one row too)
            total = _short_vector_sum(x.reshape(-1), x.size // lanes) + _ZERO  # (a NumPy scalar's add)
            return total.reshape((1,) * x.ndim) if keepdim else total
    if type(x) is np.ndarray and (x.dtype == np.float16 or x.dtype.kind == "V"):  # float16, bfloat16 (ml_dtypes)
        return np.asarray(_half_sum(x, axes, keepdim)).astype(x.dtype)  # rounded once from float32, as PyTorch
    ordered = _ordered(x, axes, keepdim)
    if ordered is not None:
        return ordered + _ZERO
    return x.sum(axis=axes, keepdims=keepdim)


_HALF_VECTOR = 16  # float16 or bfloat16 elements per vector load (AVX2)


def _half_sum(x: np.ndarray, axes: tuple, keepdim: bool):
    """A float16 or bfloat16 sum as PyTorch adds it: in float32 (its accumulate type), loading 16 elements a
    vector (``row_sums``, ``column_sums``); a sum over reduced runs that are not neighbours converts the input to
    float32 first and adds it as float32 (PyTorch's accumulation buffer for that case)."""
    wide = x.astype(_F32) if x.flags.c_contiguous else _float32_like(x)
    ordered = _ordered(wide, axes, keepdim, _HALF_VECTOR)
    return wide.sum(axis=axes, keepdims=keepdim) if ordered is None else ordered + _ZERO


def _float32_like(x: np.ndarray) -> np.ndarray:
    """``x`` in float32 with the same strides in elements (PyTorch's half kernel walks the half array's layout)."""
    if min(x.strides, default=0) < 0:
        return x.astype(_F32)
    span = 1 + sum((n - 1) * s // x.itemsize for n, s in zip(x.shape, x.strides) if n)
    out = np.lib.stride_tricks.as_strided(np.empty(span, _F32), x.shape, [s // x.itemsize * 4 for s in x.strides])
    out[...] = x
    return out


def _ordered(x, axes: tuple, keepdim: bool, vector: int | None = None):
    """``ordered_sum``'s PyTorch-order sum, or None where NumPy's is the one to take.

    PyTorch's iterator drops dims of size 1 and merges neighbouring dims that are both reduced or both kept (the
    input is contiguous), so the order depends only on what is left: one reduced run (a row, a batch, columns
    between kept dims) or a kept run between reduced ones (``_outer_and_inner``)."""
    if type(x) is not np.ndarray or x.dtype not in _ORDERED_TYPES or x.size < 4 or x.size > HUGE and \
            not _huge_batch(x, axes):
        return None
    limit = LIMIT if get_num_threads() > 1 else ONE_THREAD_LIMIT  # one thread adds any size in one cascade
    if not x.flags.c_contiguous and len(axes) == x.ndim and x.ndim > 1 and min(x.strides) >= 0:
        flat = _dense_order(x)  # NOTE: a dense view (x.T, a permutation) to one value: PyTorch's iterator coalesces
        if flat is not None:  # it into its memory order, one contiguous row (NumPy's pairwise sum rounded otherwise)
            res = _ordered(flat, (0,), False, vector)
            return res if res is None or not keepdim else res.reshape((1,) * x.ndim)
    if not x.flags.c_contiguous:
        if x.size > limit and x.size == math.prod([x.shape[a] for a in axes]) or min(x.strides) < 0:
            return None
        if x.size > EXPANDED_LIMIT and 0 in x.strides:
            return None  # NOTE: a big expanded view: following torch's order would copy (materialise) it
        from core._strided_sum import strided_sum  # (it builds on this module)
        return strided_sum(x, axes, keepdim, vector or _lanes(x))
    shape = x.shape
    if len(axes) == x.ndim:  # to one value: one row
        res = row_sums(x.reshape(-1), vector) if x.size <= limit else _thread_sums(x.reshape(-1), vector)
        if res is None:
            return None
        return res.reshape((1,) * x.ndim) if keepdim else res
    if x.ndim == 2 and len(axes) == 1 and shape[0] > 1 and shape[1] > 1:  # NOTE: hot (a batch's or rows' sums)
        res = batch_sums(x, vector) if axes[0] == 0 else row_sums(x, vector)
        return res.reshape((1, shape[1]) if axes[0] == 0 else (shape[0], 1)) if keepdim else res
    out = tuple(1 if d in axes else n for d, n in enumerate(shape)) if keepdim else \
        tuple(n for d, n in enumerate(shape) if d not in axes)
    dims = [n for n in shape if n != 1]
    reduced = [i for i, d in enumerate(d for d, n in enumerate(shape) if n != 1) if d in axes]
    if len(reduced) == len(dims) and x.size > limit:
        return None  # one output after all
    res = _coalesced_sum(x, dims, reduced, vector)
    return None if res is None else res.reshape(out)


def _dense_order(x: np.ndarray) -> np.ndarray | None:
    """``x``'s elements in memory order as a C-contiguous view of the same shape's size (1-d), where ``x`` fills its
    memory without gaps or overlaps in some order of its dims (``x.T``, a permutation); else None."""
    order = sorted(range(x.ndim), key=lambda d: -x.strides[d])
    view = np.transpose(x, order)
    if not view.flags.c_contiguous:
        return None
    return view.reshape(-1)


def _huge_batch(x: np.ndarray, axes: tuple) -> bool:
    """Whether a sum of more than ``HUGE`` elements still takes PyTorch's order: a C-contiguous array summed over
    its leading dims into two or more outputs, one ``batch_sums`` (a few reduces a level, about NumPy's speed; e.g.
    a VAE tutorial's (250, 784, 784) batch of outer products summed over the batch, 1.5e8 elements)."""
    return x.flags.c_contiguous and 0 < len(axes) < x.ndim and tuple(sorted(axes)) == tuple(range(len(axes)))


GRAIN = 32768  # ATen's GRAIN_SIZE: a sum to one value of more elements is split among the threads


def _thread_sums(x: np.ndarray, vector: int | None):
    """The sum of a long 1-d ``x`` as PyTorch's two-pass reduction adds it on ``get_num_threads()`` threads, or None
    (a chunk over ``ONE_THREAD_LIMIT``): ``parallel_for`` cuts it into min(threads, ceil(n / GRAIN)) chunks of
    ceil(n / chunks) elements, each summed in one thread's order into its own slot (0 where a thread has no chunk),
    then the slots are summed as a row. Measured bit for bit against torch 2.13 on 2 threads: 32768..10^6 + 1."""
    n, threads = x.shape[0], get_num_threads()
    chunks = min(threads, -(-n // GRAIN))
    size = -(-n // chunks)
    if size > ONE_THREAD_LIMIT:
        return None
    slots = np.zeros(threads, x.dtype)
    for i in range(chunks):
        slots[i] = row_sums(x[i * size:(i + 1) * size], vector)
    return row_sums(slots) if threads >= ILP else _add_reduce(slots)


def _coalesced_sum(x: np.ndarray, dims: list, reduced: list, vector: int | None):
    """The sum of ``x`` viewed with shape ``dims`` (no 1s) over the dims ``reduced``, flat in the kept dims' order.

    Neighbouring dims of one kind merge into runs. PyTorch's iterator puts the reduced runs innermost (the last one
    first) and adds in its 2-d loop over the two innermost dims: with one reduced run, that run by the kept run
    after it (``column_sums``; a row when nothing follows); with more, the last reduced run by the one before, as
    rows (``_outer_and_inner``)."""
    if not reduced:  # only dims of size 1: each element on its own (0 + x)
        return x.reshape(-1)
    runs: list[list] = []  # [size, reduced]
    for i, n in enumerate(dims):
        if runs and runs[-1][1] == (i in reduced):
            runs[-1][0] *= n
        else:
            runs.append([n, i in reduced])
    sizes = [n for n, _ in runs]
    at = [j for j, (_, r) in enumerate(runs) if r]
    if len(at) == 1:
        pre, size, post = math.prod(sizes[:at[0]]), sizes[at[0]], math.prod(sizes[at[0] + 1:])
        if post == 1:
            return row_sums(x.reshape(pre, size), vector)
        if pre == 1:  # a batch's sum (a bias's gradient): the 2-d route, a few NumPy calls
            return batch_sums(x.reshape(size, post), vector)
        return column_sums(x.reshape(pre, size, post), vector).reshape(-1)
    return _outer_and_inner(x.reshape(sizes), at)  # (float16 and bfloat16 too: in float32, 8 a vector)


def _outer_and_inner(x: np.ndarray, at: list) -> np.ndarray:
    """The sum of ``x`` (dims: runs alternating kept and reduced) over the reduced runs ``at``, two or more: each
    row along the last reduced run summed as PyTorch's 2-d loop does (the vectorised row order when the run is
    the last dim, else one element at a time, 4-way interleaved: ``_interleaved`` with each kept position after
    it as a lane), then those row sums over the other reduced runs one after another, the last one fastest (its
    outer loop). ``x.sum((0, 2, 3))`` of an NCHW batch is ``in_order`` of the ``row_sums`` of its H*W planes."""
    last = at[-1]
    shape = x.shape
    if last == x.ndim - 1:
        sums = row_sums(x.reshape(-1, shape[last])).reshape(shape[:last])
    else:
        before, post = math.prod(shape[:last]), math.prod(shape[last + 1:])
        sums = _interleaved(x.reshape(before, shape[last], post), 1).reshape(shape[:last] + shape[last + 1:])
    outer = at[:-1]
    kept = [d for d in range(sums.ndim) if d not in outer]
    grouped = np.transpose(sums, outer + kept).reshape(math.prod(sums.shape[d] for d in outer), -1)
    return in_order(grouped, 0)
