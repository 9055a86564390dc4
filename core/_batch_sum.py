"""A Linear layer's bias gradient, ``x.sum(0)`` of a 2-d float32 batch, in PyTorch's order at a small sum's cost.

``core._cascade_sum`` states the order (``batch_sums``, ``row_sums``); ``sum_over_batch`` gives the same bits with
fewer NumPy calls on the hot path of every bias gradient: a small C-contiguous batch takes a plan made once per
shape (``_batch_plan``), its two cascade levels unrolled (``_planned_sum``); anything else goes to
``core._cascade_sum``'s general routes.
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import (
    _BLOCK_DIMS,
    _F32,
    _SHORT,
    _SMALL_BATCH,
    _SUM_DIMS,
    _ZERO,
    HUGE,
    ILP,
    LANES,
    LIMIT,
    _add_reduce,
    _einsum,
    _short_vector_sum,
    batch_sums,
    ordered_sum,
    row_sums,
)

__all__ = ["sum_over_batch"]


def sum_over_batch(x):
    """``x.sum(0)`` of a 2-d array in PyTorch's order: ``ordered_sum(x, (0,), False)`` without its general checks.

    NOTE: the hot path of every Linear layer's bias gradient (``nn.functional.misc``): a C-contiguous float32
    NumPy array of a small batch of several columns takes its shape's plan (``_batch_plan``), other float32 batches
    of several columns ``batch_sums``, one column ``row_sums`` (PyTorch coalesces a (rows, 1) sum into one row);
    anything else ``ordered_sum``."""
    if type(x) is np.ndarray and x.dtype == _F32 and x.flags.c_contiguous and x.shape[0] > 1:
        rows, cols = x.shape
        if cols == 1:
            if LANES <= rows < _SHORT * LANES:  # (float32: 8 lanes)
                return (_short_vector_sum(x.reshape(rows), rows // LANES) + _ZERO).reshape(1)
            if 4 <= rows <= LIMIT:
                return row_sums(x.reshape(rows)).reshape(1) + _ZERO
            return ordered_sum(x, (0,), False)
        plan = _BATCH_PLANS.get(x.shape)
        if plan is None:
            if len(_BATCH_PLANS) >= _MAX_PLANS:
                _BATCH_PLANS.clear()
            plan = _BATCH_PLANS[x.shape] = _batch_plan(rows, cols)
        if plan:
            return _planned_sum(x, *plan)
        if x.size <= HUGE:
            return batch_sums(x) + _ZERO
    return ordered_sum(x, (0,), False)


_BATCH_PLANS: dict = {}  # (rows, cols) -> ``_batch_plan``'s answer (a training loop has a handful of shapes)
_MAX_PLANS = 4096  # shapes kept (cleared when full: a plan costs a few microseconds to make again)
_FEW_ITEMS = 16 * 16  # items of a cascade below which it has two levels: blocks of 16, then the blocks' sums


def _batch_plan(rows: int, cols: int) -> tuple:
    """How ``sum_over_batch`` adds a float32 (rows, cols) batch in few NumPy calls, or () for the general route.

    ``(kind, items, width, blocks, groups_end, rows)``: ``batch_sums``'s small route (2 or more columns) with fewer
    than ``_FEW_ITEMS`` items, so its cascade has two levels: "cascade" adds whole rows (``items`` = rows, ``width``
    = cols), "interleaved" groups of 4 rows laid side by side (``items`` groups of ``width`` = 4 cols, the rows from
    ``groups_end`` on added to partial 0 after); ``blocks`` full blocks of 16 items."""
    if rows * cols > _SMALL_BATCH:
        return ()
    block = ILP * LANES if cols >= LANES else ILP
    if cols % block == 0:
        kind, items, width = "cascade", rows, cols
    elif cols < block:
        kind, items, width = "interleaved", rows // ILP, ILP * cols
    else:
        return ()
    if not 2 <= items < _FEW_ITEMS:
        return ()
    return kind, items, width, items // 16, items * ILP, rows


def _planned_sum(x, kind, items, width, blocks, groups_end, rows):
    """``sum_over_batch`` by its shape's plan (``_batch_plan``); the same adds as ``batch_sums``'s
    ``_cascade_rows`` and ``_interleaved_rows``, their level-by-level loop unrolled for two levels."""
    z = x.reshape(items, width) if kind == "cascade" or groups_end == rows else \
        x[:groups_end].reshape(items, width)
    cut = blocks * 16
    if blocks:
        sums = _einsum(z[:cut].reshape(blocks, 16, width), _BLOCK_DIMS, _SUM_DIMS)  # see in_order's NOTE
        if kind == "cascade" and blocks > 1 and cut == items:
            return _add_reduce(sums, 0, initial=_ZERO)  # (see _ZERO's NOTE)
        total = sums[0] if blocks == 1 else _add_reduce(sums, 0)
        if cut < items:
            total = _add_reduce(z[cut:], 0) + total  # level 0's rest first, then level 1's
    else:
        total = _add_reduce(z, 0)
    if kind == "cascade":
        return total + _ZERO
    partials = total.reshape(ILP, width // ILP)
    for i in range(groups_end, rows):
        partials[0] += x[i]
    return _add_reduce(partials, 0, initial=_ZERO)  # ((p0 + p1) + p2) + p3, from +0 (see _ZERO's NOTE)
