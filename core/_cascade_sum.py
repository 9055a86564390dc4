"""Float32 sums in the order PyTorch's CPU kernels add them: ``sum``/``mean`` and ``nll_loss``'s reduction.

PyTorch's ``cascade_sum`` (ATen's SumKernel, dispatched with 8 float32 lanes: the AVX2 build of the kernel,
also on AVX-512 machines) adds a contiguous row as follows, and NumPy's pairwise sum rounds differently on
50–85% of rows, which every printed ``loss.item()`` of a mean-reduced loss shows in its last digits:

- a row of 8 or more elements is read as vectors of 8 lanes; the tail that does not fill a vector is added
  left to right into a scalar starting at 0, then the 8 lanes of the vector sum, lane by lane;
- a sum over items (vectors, or elements for a row shorter than 8) is interleaved 4 ways: item ``4r + k``
  goes to partial sum ``k`` (items left over after the last group of 4 go to partial 0), and the partials
  are added 0 + 1 + 2 + 3;
- each partial adds its items in blocks of 16 and carries the block sums up a 4-level cascade (``multi_row_sum``),
  so numbers of a similar size meet.

A sum over another dim (``column_sums``, e.g. ``x.sum(0)`` over a batch) walks the reduced
dim for 32 columns at a time with the cascade alone, then 8 columns at a time and single columns with the
4-way interleave too (fewer than 8 columns: 4 at a time with the cascade, then single ones).

``ordered_sum`` reproduces it exactly (the tests compare bit for bit with torch) for C-contiguous float32
arrays; a sum to one value of more than ``LIMIT`` elements keeps NumPy's sum (PyTorch splits it among threads),
unless ``set_num_threads(1)`` asked for one thread: PyTorch's single thread adds any size in one cascade, which
core follows up to ``ONE_THREAD_LIMIT`` elements (a few milliseconds; larger sums take NumPy's, ~50x faster).
"""

from __future__ import annotations

import math

import numpy as np

from core._threads import get_num_threads

__all__ = ["LIMIT", "batch_sums", "column_sums", "sum_over_batch", "in_order", "nll_total", "ordered_sum", "row_sums"]

LANES = 8
ILP = 4
LEVELS = 4
LIMIT = 32767  # most elements of a sum to one value in PyTorch's order: larger ones are split among its threads
ONE_THREAD_LIMIT = 1 << 18  # most elements of a sum to one value in one thread's order (the ordered sum costs ~4 ns an
# element: a 300x784 batch's mean takes ~1 ms; beyond this NumPy's sum, which torch's differs from in the last bits)
HUGE = 1 << 24  # larger arrays keep NumPy's sum (the ordered one costs a few passes more)
_F32 = np.float32
_add_reduce = np.add.reduce


def _ceil_log2(n: int) -> int:
    return (n - 1).bit_length() if n > 1 else 0


def _cascade(items: np.ndarray) -> np.ndarray:
    """``multi_row_sum``: the sum over axis 0 of ``items``, carried up the levels in blocks of ``step``.

    Level 0 adds ``step`` items at a time; each full block's sum goes to level 1 (level 0 starts again), and
    each ``step`` blocks of level 1 go to level 2, and so on; the top level keeps everything it gets. At the end
    the levels hold the sums of what came after their last carry, added level 0 + 1 + 2 + 3. So the sums per
    level are in-order sums of blocks, computed here level by level with one call each."""
    size = items.shape[0]
    step = 1 << max(4, _ceil_log2(size) // LEVELS)
    level, rests = items, []
    for _ in range(LEVELS - 1):
        blocks = level.shape[0] // step
        rests.append(in_order(level[blocks * step:]))  # what this level holds at the end
        if not blocks:
            break
        level = in_order(level[:blocks * step].reshape(blocks, step, *level.shape[1:]), axis=1)
    else:
        rests.append(in_order(level))  # the top level: every block sum it received
    total = rests[0]
    for rest in rests[1:]:
        total = total + rest
    return total


def in_order(block: np.ndarray, axis: int = 0) -> np.ndarray:
    """0 + block[0] + block[1] + ... along ``axis``, one slice after another (also used by ``core._lane_sum``).

    A long run of sizeable slices is one NumPy sum over the outer axis of a contiguous copy (NumPy adds the slices
    of an outer axis in order; its pairwise summation is for the innermost axis only); anything else is a
    cumsum, which adds in order whatever the layout."""
    if block.shape[axis] == 0:
        return np.zeros(block.shape[:axis] + block.shape[axis + 1:], block.dtype)
    if block.shape[axis] > 16 and block.size // block.shape[axis] >= 16:
        return np.ascontiguousarray(np.moveaxis(block, axis, 0)).sum(axis=0)
    return np.take(np.cumsum(block, axis=axis), -1, axis=axis)


def _row_sum(items: np.ndarray) -> np.ndarray:
    """``row_sum``: items along axis 0 (each item an array of rows, or of rows x lanes), 4-way interleaved."""
    size = items.shape[0]
    groups = size // ILP
    if groups:
        partials = list(_cascade(items[:groups * ILP].reshape(groups, ILP, *items.shape[1:])))
    else:
        partials = [np.zeros(items.shape[1:], _F32) for _ in range(ILP)]
    for i in range(groups * ILP, size):
        partials[0] = partials[0] + items[i]
    for k in range(1, ILP):
        partials[0] = partials[0] + partials[k]
    return partials[0]


def row_sums(x: np.ndarray) -> np.ndarray:
    """The sums of float32 ``x``'s rows along its last axis, added in PyTorch's order; shape ``x.shape[:-1]``."""
    n = x.shape[-1]
    if n < ILP:  # no group of 4: left to right, as NumPy adds too
        return x.sum(axis=-1)
    if x.ndim == 1 and LANES <= n < LANES * ILP * 16:
        return _short_vector_sum(x)
    rows = x.reshape(-1, n)
    if n < LANES:  # x0 + x4 + x5 + x6, then + x1 + x2 + x3: one left-to-right pass (cumsum adds in order)
        return _in_sequence(rows[:, [0, *range(ILP, n), 1, 2, 3]]).reshape(x.shape[:-1])
    full = n // LANES
    vectors = rows[:, :full * LANES].reshape(-1, full, LANES)
    if full < ILP * 16:  # no block of 16 groups to carry: partial k is the in-order sum of vectors 4r + k
        lanes = _short_row_sum(vectors)
    else:
        lanes = _row_sum(np.moveaxis(vectors, 1, 0))
    return _in_sequence(np.concatenate([rows[:, full * LANES:], lanes], axis=1)).reshape(x.shape[:-1])


def _short_vector_sum(v: np.ndarray) -> np.ndarray:
    """``row_sums`` of one row of 8 to 511 elements (a loss's mean), in as few NumPy calls as the order allows.

    NOTE: the hot path of every printed loss: partial k is the in-order sum of vectors 4r + k (one reduce over
    the outer axis), the vectors after the last group of 4 go to partial 0, the partials are added 0 + 1 + 2 + 3
    (one reduce), and the tail and the 8 lanes follow left to right (one cumsum)."""
    full = v.shape[0] // LANES
    groups = full // ILP
    if groups:
        partials = _add_reduce(v[:groups * ILP * LANES].reshape(groups, ILP * LANES), 0)
    else:
        partials = np.zeros(ILP * LANES, _F32)
    for i in range(groups * ILP, full):
        partials[:LANES] += v[i * LANES:(i + 1) * LANES]
    lanes = _add_reduce(partials.reshape(ILP, LANES), 0)
    return np.concatenate((v[full * LANES:], lanes)).cumsum()[-1]


def _in_sequence(parts: np.ndarray) -> np.ndarray:
    """Each row of ``parts`` added left to right (NumPy's cumsum adds one element after another)."""
    return parts.cumsum(axis=1)[:, -1]


def _short_row_sum(vectors: np.ndarray) -> np.ndarray:
    """``_row_sum`` over axis 1 of (rows, vectors, lanes) when fewer than 16 groups of 4 vectors exist.

    NOTE: the hot path of a loss's mean: NumPy's reduce over an outer axis adds its slices in order (pairwise
    summation is for the innermost axis only), so each step is one call."""
    rows, full, _ = vectors.shape
    groups = full // ILP
    if groups:
        partials = np.add.reduce(vectors[:, :groups * ILP].reshape(rows, groups, ILP * LANES), axis=1)
    else:
        partials = np.zeros((rows, ILP * LANES), _F32)
    for i in range(groups * ILP, full):  # the vectors after the last group of 4 go to partial 0
        partials[:, :LANES] += vectors[:, i]
    return np.add.reduce(partials.reshape(rows, ILP, LANES), axis=1)  # ((p0 + p1) + p2) + p3


def column_sums(x: np.ndarray) -> np.ndarray:
    """Sums over axis 1 of float32 ``x`` shaped (outer, reduced, columns) in PyTorch's order: (outer, columns)."""
    cols = x.shape[2]
    out = np.empty((x.shape[0], cols), _F32)
    items = np.moveaxis(x, 1, 0)  # (reduced, outer, columns)
    block = ILP * LANES if cols >= LANES else ILP
    j = cols // block * block
    k = j + (cols - j) // LANES * LANES if cols >= LANES else j
    if j:
        out[:, :j] = _cascade(items[:, :, :j])
    if k > j:
        out[:, j:k] = _row_sum(items[:, :, j:k])
    if cols > k:
        out[:, k:] = _row_sum(items[:, :, k:])
    return out


def sum_over_batch(x):
    """``x.sum(0)`` of a 2-d array in PyTorch's order: ``ordered_sum(x, (0,), False)`` without its general checks.

    NOTE: the hot path of every Linear layer's bias gradient (``nn.functional.misc``): a C-contiguous float32
    NumPy array of several columns goes straight to ``batch_sums``, one column to ``row_sums`` (PyTorch coalesces
    a (rows, 1) sum into one row); anything else takes ``ordered_sum``."""
    if type(x) is np.ndarray and x.dtype == _F32 and x.flags.c_contiguous and x.shape[0] > 1:
        rows, cols = x.shape
        if cols > 1 and x.size <= HUGE:
            return batch_sums(x)
        if cols == 1 and 4 <= rows <= LIMIT:
            return row_sums(x.reshape(rows)).reshape(1)
    return ordered_sum(x, (0,), False)


def batch_sums(x: np.ndarray) -> np.ndarray:
    """``column_sums`` of a C-contiguous float32 (rows, columns) array: the sum over its rows, the same values.

    NOTE: the hot path of every bias gradient. The order is ``column_sums``'s, but each in-order sum of rows is one
    ``np.add.reduce`` over the outer axis of a C-contiguous array of 2 or more columns: NumPy then adds whole rows
    one after another (its pairwise summation is for a reduced innermost axis only; with one column the reduced
    axis becomes the innermost, so a lone column goes through the interleaved route's 4 columns). A (64, 256)
    gradient: 4 NumPy calls instead of ``column_sums``'s cumsums, ~25x faster."""
    rows, cols = x.shape
    block = ILP * LANES if cols >= LANES else ILP
    j = cols // block * block
    out = np.empty(cols, _F32)
    if j:
        out[:j] = _cascade_rows(np.ascontiguousarray(x[:, :j]) if j < cols else x)
    if cols > j:
        out[j:] = _interleaved_rows(np.ascontiguousarray(x[:, j:]) if j else x)
    return out


def _in_order_rows(y: np.ndarray) -> np.ndarray:
    """0 + y[0] + y[1] + ... for a C-contiguous (n, m) array, m >= 2 (see ``batch_sums``)."""
    return _add_reduce(y, 0) if y.shape[0] else np.zeros(y.shape[1], _F32)


def _cascade_rows(y: np.ndarray) -> np.ndarray:
    """``_cascade`` over the rows of a C-contiguous (n, m) array, m >= 2: in-order block sums, level by level."""
    m = y.shape[1]
    step = 1 << max(4, _ceil_log2(y.shape[0]) // LEVELS)
    level, rests = y, []
    for _ in range(LEVELS - 1):
        blocks = level.shape[0] // step
        rests.append(_in_order_rows(level[blocks * step:]))
        if not blocks:
            break
        level = _add_reduce(level[:blocks * step].reshape(blocks, step, m), 1)  # rows of each block, in order
    else:
        rests.append(_in_order_rows(level))
    total = rests[0]
    for rest in rests[1:]:
        total = total + rest
    return total


def _interleaved_rows(y: np.ndarray) -> np.ndarray:
    """``_row_sum`` over the rows of a C-contiguous (n, c) array: row 4r + k to partial k, leftovers to partial 0."""
    rows, cols = y.shape
    groups = rows // ILP
    if groups:
        partials = _cascade_rows(y[:groups * ILP].reshape(groups, ILP * cols)).reshape(ILP, cols)
    else:
        partials = np.zeros((ILP, cols), _F32)
    if cols > 1 and groups * ILP == rows:  # no leftover rows: ((p0 + p1) + p2) + p3 in one in-order reduce
        return _add_reduce(partials, 0)
    total = partials[0]
    for i in range(groups * ILP, rows):
        total = total + y[i]
    for k in range(1, ILP):
        total = total + partials[k]
    return total


def ordered_sum(x, axes: tuple, keepdim: bool):
    """``x.sum(axes, keepdims=keepdim)``, added in PyTorch's order for a C-contiguous float32 NumPy array of 4 or
    more elements, over everything or over neighbouring axes (PyTorch coalesces them into one); any other sum is
    NumPy's (fewer than 4 elements: left to right in both), and so is a sum to one value of more than ``LIMIT``
    elements when more than one thread is set (PyTorch splits that among its threads; a sum with several outputs
    is split by outputs, each added whole, so any size keeps the order)."""
    ordered = _ordered(x, axes, keepdim)
    if ordered is not None:
        return ordered
    if x.dtype.kind == "V":  # bfloat16 (ml_dtypes): added in float32, PyTorch's accumulate type, rounded once
        return np.asarray(ordered_sum(x.astype(_F32), axes, keepdim)).astype(x.dtype)
    return x.sum(axis=axes, keepdims=keepdim)


def _ordered(x, axes: tuple, keepdim: bool):
    """``ordered_sum``'s PyTorch-order sum, or None where NumPy's is the one to take."""
    if x.dtype != _F32 or type(x) is not np.ndarray or x.size < 4 or not x.flags.c_contiguous:
        return None
    nd = x.ndim
    outputs = x.size // max(1, math.prod([x.shape[a] for a in axes]))
    if (outputs == 1 and x.size > (LIMIT if get_num_threads() > 1 else ONE_THREAD_LIMIT)) or x.size > HUGE:
        return None  # (one thread adds any size in one cascade: then the order is PyTorch's again)
    if len(axes) == nd:
        res = row_sums(x.reshape(-1))
        return res.reshape((1,) * nd) if keepdim else res
    first, last = min(axes), max(axes)
    if last - first + 1 != len(axes):  # reduced dims that are not neighbours: not one coalesced dim
        return _outer_and_inner(x, axes, keepdim)
    shape = x.shape
    pre, size, post = math.prod(shape[:first]), math.prod(shape[first:last + 1]), math.prod(shape[last + 1:])
    if post == 1:
        res = row_sums(x.reshape(pre, size))
    elif pre == 1:  # a batch's sum (a bias's gradient): the 2-d route, a few NumPy calls
        res = batch_sums(x.reshape(size, post))
    else:
        res = column_sums(x.reshape(pre, size, post))
    kept = tuple(1 for _ in axes) if keepdim else ()
    return res.reshape(shape[:first] + kept + shape[last + 1:])


def _outer_and_inner(x, axes: tuple, keepdim: bool):
    """A sum over leading and trailing dims around kept ones (``x.sum((0, 2, 3))`` of an NCHW batch): PyTorch adds
    each contiguous run of trailing elements as a row, then those row sums over the leading dims one after another
    (its outer loop), so ``in_order`` of ``row_sums``; None for other patterns."""
    nd = x.ndim
    lead = next(i for i in range(nd + 1) if i not in axes)
    trail = next(i for i in range(nd, -1, -1) if i - 1 not in axes or i == 0)
    if lead == 0 or trail == nd or set(axes) != set(range(lead)) | set(range(trail, nd)):
        return None
    shape = x.shape
    pre, kept, post = math.prod(shape[:lead]), math.prod(shape[lead:trail]), math.prod(shape[trail:])
    res = in_order(row_sums(x.reshape(pre * kept, post)).reshape(pre, kept))
    out = shape[lead:trail]
    return res.reshape((1,) * lead + out + (1,) * (nd - trail) if keepdim else out)


NLL_LEVELS = 8


def nll_total(picked: np.ndarray, kept: np.ndarray | None = None) -> np.ndarray:
    """The sum of a 1-D float32 (or bfloat16: each add rounded, as the kernel's bfloat16 partial sums) array in the
    order of PyTorch's ``nll_loss`` (its own 8-level cascade).

    The kernel adds sample 0 and carries it straight to the top level (the carry test ``i & mask == 0`` holds
    at i = 0 for every level); samples 1..step, step+1..2 step, ... form level 0's blocks, ``step`` blocks form
    a level-1 block, and so on; at the end the levels are added bottom to top, starting from 0. ``kept``: False
    for ignored samples (``ignore_index``), which the kernel skips before its carry test, so their carries are
    not made (``_skipping_total``)."""
    size = picked.shape[0]
    if size == 0:
        return np.zeros((), picked.dtype)
    power = max(4, _ceil_log2(size) // NLL_LEVELS)
    if kept is not None and not kept.all():
        return _skipping_total(picked, np.flatnonzero(kept), power)
    step = 1 << power
    level, rests = picked[1:], []
    for _ in range(NLL_LEVELS - 1):
        blocks = level.shape[0] // step
        rests.append(in_order(level[blocks * step:]))
        level = in_order(level[:blocks * step].reshape(blocks, step), axis=1) if blocks else level[:0]
    rests.append(in_order(np.concatenate([picked[:1], level])))  # the top level: sample 0, then carries
    total = np.zeros((), picked.dtype)
    for rest in rests:
        total = total + rest
    return total


def _skipping_total(picked: np.ndarray, kept_at: np.ndarray, power: int) -> np.ndarray:
    """``nll_total`` when some samples are ignored: each kept sample ``i`` carries its level's partial sum up one
    level per level whose mask ``i`` clears (``i`` a multiple of ``2**(power * (j + 1))``), in sample order; each
    level's partial sums are then runs of its incoming values added in order (``_runs_in_order``)."""
    items = picked[kept_at]
    with np.errstate(divide="ignore"):
        zeros = np.where(kept_at == 0, 64, np.log2(kept_at & -kept_at).astype(np.int64))  # trailing zero bits
    carries = np.minimum(zeros // power, NLL_LEVELS - 1)
    rests = []
    for level in range(NLL_LEVELS - 1):
        closes = carries > level
        runs = _runs_in_order(items, np.cumsum(closes) - closes, int(closes.sum()) + 1)
        rests.append(runs[-1])  # what is left at this level after its last carry
        items, carries = runs[:-1], carries[closes]
    rests.append(in_order(items))  # the top level keeps everything carried to it
    total = np.zeros((), picked.dtype)
    for rest in rests:
        total = total + rest
    return total


def _runs_in_order(items: np.ndarray, run_of: np.ndarray, runs: int) -> np.ndarray:
    """Per run (``run_of``: each item's run, non-decreasing), its items added in order from 0; empty runs are 0."""
    if not items.shape[0]:
        return np.zeros(runs, items.dtype)
    starts = np.searchsorted(run_of, np.arange(runs))
    at = np.arange(items.shape[0]) - starts[run_of]
    table = np.zeros((runs, int(at.max()) + 1), items.dtype)
    table[run_of, at] = items
    return in_order(table, axis=1)
