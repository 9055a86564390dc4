"""``nll_loss``'s reduction over a batch in the order of PyTorch's CPU kernel (``nll_total``): its own 8-level
cascade of the picked log-probabilities, ignored samples (``ignore_index``) skipped before each carry.

Each block is an in-order sum (``core._cascade_sum.in_order``), so the bits are the kernel's; a small float32
batch (a training step's loss) takes the same adds in fewer NumPy calls (``_small_total``).
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import _ceil_log2, in_order

__all__ = ["nll_total"]


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
    if picked.dtype == _F32_NLL and size <= _SMALL_NLL:
        return _small_total(picked, step)
    level, rests = picked[1:], []
    for _ in range(NLL_LEVELS - 1):
        if not level.shape[0]:  # NOTE: the levels above hold 0, and ``total + 0`` is ``total`` (never -0: it
            break  # starts at +0), so a small batch (64 samples: 2 levels of 7) skips their empty sums
        blocks = level.shape[0] // step
        rests.append(in_order(level[blocks * step:]))
        level = in_order(level[:blocks * step].reshape(blocks, step), axis=1) if blocks else level[:0]
    rests.append(in_order(np.concatenate([picked[:1], level])) if level.shape[0] else picked[0])  # the top level:
    # sample 0, then carries
    total = np.zeros((), picked.dtype)
    for rest in rests:
        total = total + rest
    return total


_F32_NLL = np.dtype(np.float32)
_SMALL_NLL = 4096  # samples up to which a float32 ``nll_total`` takes ``_small_total``


def _small_total(picked: np.ndarray, step: int):
    """``nll_total``'s sum of a small float32 batch, the same adds in the same order in fewer NumPy calls.

    NOTE: the hot path of a training step's loss (a batch of 64: ~25 µs in ``in_order``'s general layout logic and
    0-d arrays for ~10 adds). ``np.cumsum`` adds in order, each add rounded in float32, starting from the first
    element (as ``in_order``); level sums are added to the running total as they come, in the order the general
    loop adds its ``rests``, and an empty remainder (``in_order``'s +0) is skipped: the total starts at +0 and
    ``t + 0`` is ``t`` for every t, a +0 total included (so it is never -0). Float32 NumPy scalars round as 0-d
    arrays do."""
    total, level = np.float32(0), picked[1:]
    for _ in range(NLL_LEVELS - 1):
        n = level.shape[0]
        if not n:
            break
        cut = n - n % step
        if cut < n:
            total = total + _accumulate(level[cut:])[-1]
        level = _accumulate(level[:cut].reshape(-1, step), axis=1)[:, -1] if cut else level[:0]
    top = _accumulate(np.concatenate([picked[:1], level]))[-1] if level.shape[0] else picked[0]
    return total + top


_accumulate = np.add.accumulate  # NOTE: np.cumsum of a float32 array without its Python wrapper (~1 µs a call)


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
