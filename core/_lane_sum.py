"""Sums in the order of PyTorch's vectorised CPU softmax kernels, for float32 (``softmax_sum``).

PyTorch's ``softmax``/``log_softmax`` over the last dim sum each row's exponentials with its SIMD reduction
(``vec::map_reduce_all``): a row shorter than one vector (``LANES``: 16 float32 lanes with AVX-512, 8 with AVX2,
``core._cpu.vector_bytes()``) is summed left to right; a longer one is summed into ``LANES`` lane accumulators
chunk by chunk (the partial last chunk into the first lanes), and the lanes are combined as a tree (lane i with
lane i + LANES / 2, then down to +1). NumPy's pairwise sum
rounds differently on 10–50% of rows, and a classifier's loss carries that into every step. Reproducing the
order costs a few vectorised adds per chunk of 16 columns; it applies to float32 only (float64 rows keep
NumPy's sum, whose error is far below what prints). Over another dim, PyTorch's kernel vectorises across the
inner positions and adds along the dim one slice at a time: a left-to-right sum.
"""

from __future__ import annotations

import numpy as np

from core import _cpu
from core._cascade_sum import in_order

__all__ = ["lane_row_sum", "softmax_sum", "row_max"]

# NOTE: float32 lanes of one ``Vectorized<float>`` on this CPU: 16 on ATen's AVX-512 build (an AMD Zen 4), 8 on its
# AVX2 build (measured on an AMD Zen 3, 2026-12-07: with 16, 42 nll_loss/cross_entropy cases differed in the last bit)
LANES = _cpu.vector_bytes() // 4
# NOTE: lanes of the bfloat16 and float16 softmax's sums: 16 on both builds (measured: a (64, 300) bfloat16 softmax
# on an AMD Zen 3 with AVX2 gives torch's bits with 16, not with 8; on a Zen 4 with 16)
HALF_LANES = 16


def _to_front(a: np.ndarray, axis: int) -> np.ndarray:
    """``np.moveaxis(a, axis, 0)`` for a negative ``axis``, without its argument checks (~4 µs a call, several
    per softmax or cross-entropy: a small batch's loss is such calls)."""
    axis += a.ndim
    return a.transpose((axis,) + tuple(range(axis)) + tuple(range(axis + 1, a.ndim)))


# NOTE: NumPy reduces along a short last axis row by row (~0.1 µs of loop setup a row: a 64x10 max 5 µs, 1000x10
# 67 µs), but reduces along axis 0 of a C-contiguous array one vectorised pass per row of it. So many short rows
# (a classifier's logits) are copied transposed, (n, rows), and reduced along axis 0: each row of that in turn,
# left to right from the first element as before (64x10: max 5.1 -> 2.1 µs, sum 2.7 -> 2.0). (Only with many
# columns: an (n, 1) array is one contiguous run, which NumPy's add sums pairwise.)
_MANY_ROWS, _SHORT_ROW = 16, 32
_NEGATIVE_ZERO = np.float32(-0.0)


def _short_rows(x: np.ndarray) -> bool:
    """Many rows of at most ``_SHORT_ROW`` elements (see the NOTE above), in a NumPy array."""
    n = x.shape[-1]
    return type(x) is np.ndarray and 0 < n <= _SHORT_ROW and x.size >= _MANY_ROWS * n


def _columns(x: np.ndarray) -> np.ndarray:
    """``x`` (..., n) as the C-contiguous (n, rows) array of its rows side by side."""
    return np.ascontiguousarray(x.reshape(-1, x.shape[-1]).T)


def row_max(x: np.ndarray) -> np.ndarray:
    """``np.maximum.reduce(x, axis=-1, keepdims=True)`` (NaN propagates), many short rows by ``_columns``: the same
    maxima; where a row's maximum is a zero of either sign the two may pick different zeros, which no softmax
    output can see (x - m is then a zero either way, its exp 1, and a tie of two zeros makes the sum of exps 2 or
    more, so log_softmax's x - m - log(sum) is -log(sum) either way)."""
    if x.ndim > 1 and _short_rows(x):
        return np.maximum.reduce(_columns(x), axis=0).reshape(*x.shape[:-1], 1)
    return np.maximum.reduce(x, axis=-1, keepdims=True)


def lane_row_sum(e: np.ndarray, lanes: int = LANES) -> np.ndarray:
    """Sums of ``e``'s rows along the last axis, keepdims, in PyTorch's vectorised order (float32 NumPy arrays) over
    ``lanes`` lanes."""
    n = e.shape[-1]
    if n < lanes:  # NOTE: shorter than a vector: left to right from the first element, as ``np.cumsum`` adds
        # (one call, no transposed copy; ``in_order``'s einsum started from +0, so a row of -0s gave +0, not -0);
        # many rows: along axis 0 of their transposed copy (the NOTE above), the same adds in the same order
        if e.ndim > 1 and _short_rows(e):  # (from -0, which NumPy's add would take as +0: -0 + x is x, -0 included)
            return np.add.reduce(_columns(e), axis=0, initial=_NEGATIVE_ZERO).reshape(*e.shape[:-1], 1)
        return np.add.accumulate(e, axis=-1)[..., -1:]  # (np.cumsum without its Python wrapper)
    full, rest = divmod(n, lanes)
    if e.ndim > 1 and _short_rows(e):
        return _lanes_side_by_side(_columns(e), full, rest, lanes).reshape(*e.shape[:-1], 1)
    acc = in_order(_to_front(e[..., :full * lanes].reshape(*e.shape[:-1], full, lanes), -2))
    if rest:
        acc[..., :rest] += e[..., full * lanes:]
    # NOTE: the tree adds lane i and lane i ^ half for half = LANES / 2 .. 1; lane 0's result needs only the lower
    # half at each step, with the same operands in the same order (lane i first): four adds of slices
    half = lanes // 2
    while half:
        acc = acc[..., :half] + acc[..., half:2 * half]
        half //= 2
    return acc


def _lanes_side_by_side(columns: np.ndarray, full: int, rest: int, lanes: int) -> np.ndarray:
    """``lane_row_sum`` of many short rows given as ``columns`` (n, rows), each row's lanes down a column: a (1, rows)
    array, the same adds in the same order.

    NOTE: the hot path of a classifier's loss (log_softmax's sums forward and backward, every step): laid out (n,
    rows), each lane's chunks, the partial last chunk and each level of the tree are one add over whole contiguous
    rows of the batch, where the (rows, n) slices took an inner loop of 1-8 elements a row (64 x 10: ~14 -> ~8 µs)."""
    acc = in_order(columns[:full * lanes].reshape(full, lanes, -1))
    if rest:
        acc[:rest] += columns[full * lanes:]
    half = lanes // 2
    while half:  # (lane i + lane i + half, as above)
        acc = acc[:half] + acc[half:2 * half]
        half //= 2
    return acc


def softmax_sum(e: np.ndarray, axis: int, lanes: int = LANES) -> np.ndarray:
    """``e.sum(axis, keepdims=True)`` in the order PyTorch's softmax kernels add (float32 NumPy arrays with a
    non-empty ``axis``; other arrays take NumPy's sum)."""
    if e.dtype != np.float32 or type(e) is not np.ndarray or e.ndim == 0 or e.shape[axis] == 0:
        return e.sum(axis=axis, keepdims=True)
    axis %= e.ndim
    if axis == e.ndim - 1:
        return lane_row_sum(e, lanes)
    return np.expand_dims(in_order(np.moveaxis(e, axis, 0)), axis)
