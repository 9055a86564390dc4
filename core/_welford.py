"""PyTorch's CPU ``WelfordOps`` (var/std over dims, var_mean/std_mean) in its order of operations, vectorised.

ATen's ``std_var_kernel_impl`` (``binary_kernel_reduce``) reduces each output's elements one at a time, in its
TensorIterator's order (the reduced dims innermost, sorted by the input's strides), in double::

    delta = x - mean; mean += delta / n; m2 += delta * (x - mean)

Several outputs each run whole on one thread. One output of ``GRAIN_SIZE`` elements or more on several threads
is cut as ``parallel_for`` cuts (``core._var_all.run_bounds``), each run starting from zero, and the runs'
states are combined in order by Chan's formula (its last multiply-adds fused: ``_combined``). The result is
``m2 / max(n - correction, 0)`` (its square root for std), the mean rounded to the input's dtype.

Two routes give those bits:

- ``_stepwise``: a NumPy step per reduced element over all outputs at once (many outputs, few elements each);
- ``_block_means``: few outputs, long rows. The means' recurrence is sequential, but a step's increment
  ``fl(m + d) - m`` hardly depends on a small error in ``m`` once ``n`` is large, so a block of means is guessed
  (prefix sums), every step is recomputed from the guess at once, the guess is rebuilt from the recomputed
  increments (a left-to-right ``cumsum`` from the first step that did not reproduce, each tie put right:
  ``_even_ties``) and this repeats until each step reproduces its guess exactly: then the block is the
  sequential result, bit for bit. A block's length grows with ``n`` (up to a quarter of it), so few rounds are
  needed; each round keeps the verified prefix and the first wrong step's recomputed value, so it always
  advances; where rounds stall (a mean near zero: there the increments follow the guess's errors) a short
  stretch is stepped one element at a time. With the means known, ``m2``'s terms are elementwise and their sum
  a left-to-right ``np.add.accumulate``.
"""

from __future__ import annotations

import math

import numpy as np

from core._arange_values import fma
from core._strided_sum import _iteration_dims
from core._threads import get_num_threads
from core._var_all import run_bounds

__all__ = ["welford", "welford_fits"]

FIRST = 64  # rows this short go step by step over the outputs; the shortest guessed block
MANY_OUTPUTS = 32  # from this many outputs a step over all of them costs less than the guessing rounds
MAX_BLOCK = 1 << 15  # most elements of a row in one guessed block (memory: a few arrays of rows x block)
STALL = 32  # a round that verifies fewer steps than this is followed by STRETCH steps one at a time
# (also the rows' first steps)
STRETCH = 1024
SHARE = 4  # a block is at most a quarter of the elements before it (a longer block's first guess strays)
LARGEST = 1 << 23  # more elements keep the two-pass route (a step over many outputs costs ~10-150 ns an element)
LONG_ROWS = 1 << 18  # more elements in few long rows keep it too (the guessing rounds cost ~0.1-1 µs an element)


def welford_fits(x: np.ndarray, ax: tuple) -> bool:
    """Whether ``welford`` follows PyTorch's order for a reduction of ``x`` over ``ax`` at a cost that stays
    reasonable: a non-empty float32/float64 input of at most ``LARGEST`` elements, ``LONG_ROWS`` where fewer than
    ``MANY_OUTPUTS`` outputs reduce more than ``FIRST`` elements each."""
    if not 0 < x.size <= LARGEST or x.dtype not in (np.float32, np.float64):
        return False
    outputs = math.prod(x.shape[d] for d in range(x.ndim) if d not in ax)
    return x.size <= LONG_ROWS or outputs >= MANY_OUTPUTS or x.size <= FIRST * outputs


def welford(x: np.ndarray, ax: tuple, correction: float, keepdim: bool):
    """(variance, mean) in double over axes ``ax`` of float32/float64 ``x``, as PyTorch's CPU ``WelfordOps``."""
    rows = _rows(x, ax)  # (outputs, reduced elements), in the iterator's order
    outputs, n = rows.shape
    runs = run_bounds(n, get_num_threads()) if outputs == 1 else [(0, n)]
    if len(runs) > 1:
        mean, m2 = _combined(rows[0], runs)
    else:
        mean, m2 = _state(rows)
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / np.float64(n - correction if n > correction else 0)
    shape = [1 if d in ax else s for d, s in enumerate(x.shape)] if keepdim else \
        [s for d, s in enumerate(x.shape) if d not in ax]
    return var.reshape(shape), mean.reshape(shape)


def _rows(x: np.ndarray, ax: tuple) -> np.ndarray:
    """``x`` as (outputs, reduced elements): the outputs in the result's row-major order, each one's elements in
    TensorIterator's order (its dims sorted by stride, a broadcast dim left where the sort leaves it)."""
    if min(x.strides, default=0) < 0:
        x = np.ascontiguousarray(x)
    sizes, ins, outs = _iteration_dims(x, ax)
    view = np.lib.stride_tricks.as_strided(x, sizes[::-1], [s * x.itemsize for s in ins[::-1]], writeable=False)
    kept = [d for d, o in enumerate(outs[::-1]) if o != 0]
    red = [d for d, o in enumerate(outs[::-1]) if o == 0]
    outputs = math.prod(x.shape[d] for d in range(x.ndim) if d not in ax)
    return np.transpose(view, kept + red).reshape(outputs, -1)


def _state(rows: np.ndarray):
    """(mean, m2) in double of each row's elements taken left to right, by the cheaper route."""
    outputs, n = rows.shape
    if n <= FIRST or outputs >= MANY_OUTPUTS:
        return _stepwise(rows, 0, np.zeros(outputs), np.zeros(outputs))
    wide = np.ascontiguousarray(rows, dtype=np.float64)
    first, zeros = min(STRETCH, n), np.zeros(outputs)
    means = _exact_means(wide[:, :first], 0, zeros)  # (the first steps: an error in the mean moves the next step)
    mean, m2 = means[:, -1].copy(), _m2(wide[:, :first], means, zeros, zeros)
    k, size = first, FIRST
    while k < n:
        block = wide[:, k:k + min(n - k, size)]
        means, rounds = _block_means(block, k, mean)
        m2 = _m2(block, means, mean, m2)
        mean = means[:, -1].copy()
        k += block.shape[1]
        size = _next_size(size, rounds, k)
    return mean, m2


def _next_size(size: int, rounds: int, k: int) -> int:
    """The next block's length: doubled after a block that settled in a few rounds, halved after one that took
    many (a mean near zero), never longer than ``1 / SHARE`` of the elements so far nor than ``MAX_BLOCK``."""
    if rounds <= 4:
        size *= 2
    elif rounds > 8:
        size //= 2
    return max(FIRST, min(size, k // SHARE, MAX_BLOCK))


def _stepwise(rows: np.ndarray, k0: int, mean: np.ndarray, m2: np.ndarray):
    """Welford's steps for the elements ``k0 + 1, ...`` of each row, one NumPy step per element over all rows."""
    mean, m2 = mean.copy(), m2.copy()
    delta, step = np.empty_like(mean), np.empty_like(mean)
    for i, col in enumerate(rows.T):
        np.subtract(col, mean, out=delta, dtype=np.float64)
        np.add(mean, np.divide(delta, np.float64(k0 + i + 1), out=step), out=mean)
        np.subtract(col, mean, out=step, dtype=np.float64)
        m2 += np.multiply(delta, step, out=step)
    return mean, m2


def _m2(x: np.ndarray, means: np.ndarray, mean: np.ndarray, m2: np.ndarray) -> np.ndarray:
    """``m2`` after adding ``(x - previous mean) * (x - mean)`` for each element, left to right."""
    prev = np.empty_like(x)
    prev[:, 0] = mean
    prev[:, 1:] = means[:, :-1]
    terms = (x - prev) * (x - means)
    terms[:, 0] += m2
    return np.add.accumulate(terms, axis=1)[:, -1]


def _block_means(x: np.ndarray, k0: int, mean: np.ndarray):
    """Welford's means after each element of the block (rows of double ``x``) from the mean after ``k0``, and
    the number of rounds it took. Each
    round works on the part after the steps every row has verified (``lo``); a round that verifies fewer than
    ``STALL`` more steps (a mean near zero, where every step's rounding follows the guess's errors) is followed by
    ``STRETCH`` steps taken one at a time (``_exact_means``)."""
    rows, n = x.shape
    k = np.arange(k0 + 1, k0 + n + 1, dtype=np.float64)
    with np.errstate(invalid="ignore", over="ignore"):
        guess = (np.cumsum(x, axis=1) + (mean * k0)[:, None]) / k  # the exact running means, near the rounded ones
        lo = rounds = 0
        while lo < n:
            rounds += 1
            start = guess[:, lo - 1] if lo else mean
            first, rebuilt = _round(x[:, lo:], k[lo:], guess[:, lo:], start)
            if first is None:
                break
            guess[:, lo:] = rebuilt
            step = int(first.min())
            lo += step
            if step < STALL and lo < n:
                stop = min(n, lo + STRETCH)
                guess[:, lo:stop] = _exact_means(x[:, lo:stop], k0 + lo, guess[:, lo - 1] if lo else mean)
                lo = stop
    return guess, rounds


def _exact_means(x: np.ndarray, k0: int, mean: np.ndarray) -> np.ndarray:
    """The means after each element of a short stretch, one step at a time: Python's floats are the same doubles
    with the same roundings (a few hundred steps, ~0.2 µs each, where a NumPy step over few rows costs ~5 µs)."""
    out = np.empty_like(x)
    for r in range(x.shape[0]):
        m, means = float(mean[r]), []
        for i, v in enumerate(x[r].tolist(), k0 + 1):
            m += (v - m) / i  # (i below 2**53 converts exactly: ``delta / double(n)``)
            means.append(m)
        out[r] = means
    return out


def _round(x: np.ndarray, k: np.ndarray, guess: np.ndarray, start: np.ndarray):
    """One round over a block's unverified part: each step recomputed from the guess of the step before (``start``
    before the first); (None, None) where all reproduce, else each row's first step that did not and the guess
    rebuilt from there: that step's recomputed value (exact), then the recomputed increments added in order."""
    prev = np.empty_like(x)
    prev[:, 0] = start
    prev[:, 1:] = guess[:, :-1]
    t = np.divide(np.subtract(x, prev), k)
    new = prev + t
    wrong = (new != guess) & ~(np.isnan(new) & np.isnan(guess))
    if not wrong.any():
        return None, None
    n = x.shape[1]
    first = np.where(wrong.any(axis=1), wrong.argmax(axis=1), n)
    after = np.arange(n)[None, :] > first[:, None]
    steps = np.where(after, new - prev, 0.0)
    bad = np.nonzero(first < n)[0]
    steps[bad, first[bad]] = new[bad, first[bad]]
    rebuilt = _even_ties(np.cumsum(steps, axis=1), prev, t, new, after)
    return first, np.where(after | (steps != 0.0), rebuilt, guess)


def _even_ties(base: np.ndarray, prev: np.ndarray, t: np.ndarray, new: np.ndarray, after: np.ndarray):
    """``base`` (means rebuilt from increments) with each tie put right: where ``prev + t`` fell exactly halfway
    between two doubles, the sum rounds to the even one whatever ``prev`` was, so an increment taken from a guess
    one unit off is one unit off there. The fix is a scan, but of parities only: a tie leaves an even mean, so a
    tie's rebuilt mean needs the other neighbour exactly when its parity differs from the previous tie's."""
    up = new - prev  # TwoSum: the exact error of new = prev + t
    err = (prev - (new - up)) + (t - up)
    gap = np.abs(np.nextafter(new, np.copysign(np.inf, err)) - new)
    tie = after & (err != 0.0) & (2.0 * np.abs(err) == gap)
    if not tie.any():
        return base
    odd = tie & (base.view(np.int64) & 1).astype(bool)
    rows, n = base.shape
    last = np.maximum.accumulate(np.where(tie, np.arange(n)[None, :], -1), axis=1)  # the latest tie so far
    before = np.concatenate([np.full((rows, 1), -1), last[:, :-1]], axis=1)
    odd_before = np.where(before >= 0, np.take_along_axis(odd, np.maximum(before, 0), axis=1), False)
    shift = np.where(tie & (odd != odd_before), np.copysign(gap, err), 0.0)
    return base + np.cumsum(shift, axis=1)


def _combined(flat: np.ndarray, runs: list):
    """(mean, m2) of one output split among threads: each run's Welford state from zero, then Chan's formula
    over the runs in order (``WelfordOps::combine``).

    NOTE: torch 2.13's CPU build fuses the combine's last multiply-add of each (``a.mean + delta * nb_over_n``,
    ``a.m2 + b.m2 + delta * delta * a.nf * nb_over_n``) into one rounding (an FMA), though not the reduce's: measured
    on 2, 3 and 4 threads (three runs tell, where a plain multiply and add differ in the mean's last bit)."""
    size = runs[0][1] - runs[0][0]
    even = [r for r in runs if r[1] - r[0] == size]
    states = list(zip(*_state(np.stack([flat[b:e] for b, e in even])), strict=True))
    states += [tuple(v[0] for v in _state(flat[b:e][None, :])) for b, e in runs[len(even):]]
    mean, m2, count = float(states[0][0]), float(states[0][1]), float(size)
    for (b, e), (m_b, m2_b) in zip(runs[1:], states[1:], strict=True):
        n_b = float(e - b)
        delta = float(m_b) - mean
        total = count + n_b
        nb_over_n = n_b / total
        mean = _fma(delta, nb_over_n, mean)
        m2 = _fma(delta * delta * count, nb_over_n, m2 + float(m2_b))
        count = total
    return np.array([mean]), np.array([m2])


def _fma(a: float, b: float, c: float) -> float:
    """``a * b + c`` rounded once (``core._arange_values.fma``); a non-finite operand's result is the plain one's."""
    if math.isfinite(a) and math.isfinite(b) and math.isfinite(c):
        return float(fma(np.array([a]), np.array([b]), np.array([c]))[0])
    return a * b + c
