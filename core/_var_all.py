"""PyTorch's CPU variance of a whole float32/float64 tensor (``std_var_all_cpu``), in its order of additions.

``torch.var``/``torch.std`` reducing every dimension (no ``dim``, or all of them, or all but size-1 ones) do not
use Welford's kernel on the CPU: ATen takes the tensor's mean (``self.mean()``, in the tensor's dtype, read as a
double), then splits the elements, in memory order, among its threads as ``parallel_reduce`` does (no split up
to ``GRAIN_SIZE`` = 32768 elements or on one thread; else ``min(threads, ceil(n / GRAIN_SIZE))`` runs of
``ceil(n / runs)``), adds ``(double(x) - mean) ** 2`` left to right in double within each run and the runs' sums
left to right, and divides by ``max(0, n - correction)``; the square root (``std``) and the rounding to float32
come last. ``np.add.accumulate`` adds left to right, so NumPy gives the same bits, vectorised; a long
input's runs go to that many Python threads, as ATen's to its threads.

The elements are taken in TensorIterator's order (``core._strided_sum._iteration_dims``: dims sorted by stride,
neighbours that stride as one merged, a broadcast stride-0 dim left where the sort leaves it). A dense input
(contiguous, transposed, permuted) is one row; for others (a strided slice, an expanded tensor) ATen's loop
restarts its partial sum at each of its 2-d calls (``DimCounter::max_2d_step``: the rest of a row, the rest of a
plane of the two innermost dims, whole planes, whole rows, the rest), adding each call's sum to the thread's
(``_strided_run_sum``). The mean is ``core._cascade_sum.ordered_sum``'s, PyTorch's order but for a strided
input of more than 32,767 elements on several threads (NumPy's sum there: within rounding).
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import ordered_sum
from core._pool import pool_map
from core._strided_sum import _iteration_dims
from core._threads import get_num_threads

GRAIN_SIZE = 32768  # at::internal::GRAIN_SIZE
BLOCK = 1 << 15  # elements squared and added per NumPy call (256 KiB of doubles)
THREADED = 1 << 18  # from here the runs go to threads (each ~1 ms or more of work, starting threads ~0.1 ms)


def memory_order(x: np.ndarray) -> np.ndarray:
    """``x``'s elements as a 1-d array in memory order (a view where ``x`` is dense in some order of its axes),
    the order in which ATen's TensorIterator visits a single input (its dimensions sorted by stride)."""
    order = sorted(range(x.ndim), key=lambda d: -abs(x.strides[d]))
    return np.transpose(x, order).reshape(-1)


def run_bounds(n: int, threads: int) -> list[tuple[int, int]]:
    """The ``[begin, end)`` runs ``at::parallel_reduce`` with ``GRAIN_SIZE`` gives each thread (OpenMP's split)."""
    if n <= GRAIN_SIZE or threads <= 1:
        return [(0, n)]
    runs = min(threads, -(-n // GRAIN_SIZE))
    chunk = -(-n // runs)
    return [(b, min(n, b + chunk)) for b in range(0, n, chunk)]


def var_all(x: np.ndarray, correction: float) -> np.float64:
    """The variance of all of float32/float64 ``x`` (non-empty) as a double, in ``std_var_all_cpu``'s order."""
    flat, inner, plane = _iteration(x)
    n = flat.size
    with np.errstate(invalid="ignore", over="ignore"):
        mean = np.float64(ordered_sum(x, tuple(range(x.ndim)), False) / x.dtype.type(n))  # self.mean(), its dtype
        runs = run_bounds(n, get_num_threads())
        if plane < n:  # a strided or expanded input: the loop's 2-d calls each start a sum of their own
            sums = [_strided_run_sum(flat, b, e, mean, inner, plane) for b, e in runs]
        elif len(runs) > 1 and n >= THREADED:  # a Python thread a run (NumPy's ufuncs release the GIL): same sums
            sums = pool_map(lambda r: _run_sum(flat, r[0], r[1], mean), runs)
        else:
            sums = [_run_sum(flat, b, e, mean) for b, e in runs]
        total = np.float64(0.0)
        for s in sums:  # the runs' sums added in order, as parallel_reduce's
            total += s
    with np.errstate(divide="ignore", invalid="ignore"):
        return total / np.float64(max(0.0, n - correction))


def _iteration(x: np.ndarray):
    """(``x``'s elements in TensorIterator's order as a 1-d array, the innermost dim's size, the size of the plane
    of the two innermost dims): a view of a dense ``x`` (one dim, so one plane of every element), else a copy."""
    if min(x.strides, default=0) < 0:
        x = np.ascontiguousarray(x)
    sizes, strides, _ = _iteration_dims(x, tuple(range(x.ndim)))
    if sizes[1] == 1 and len(sizes) == 2:  # dense: one dim
        return memory_order(x), x.size, x.size
    view = np.lib.stride_tricks.as_strided(x, sizes[::-1], [s * x.itemsize for s in strides[::-1]],
                                           writeable=False)
    return view.reshape(-1), sizes[0], sizes[0] * sizes[1]


def _strided_run_sum(flat: np.ndarray, begin: int, end: int, mean: np.float64, inner: int, plane: int):
    """One thread's sum over ``flat[begin:end]`` as ``std_var_all_cpu``'s loop adds it over a strided iteration:
    each 2-d call (rows of ``inner`` elements, planes of ``plane``) sums its squares left to right from 0, and the
    thread adds the calls' sums in order."""
    sums, at = [], begin
    for stop in (min(end, -(-at // inner) * inner), None):  # the rest of a row, then the rest of the plane's rows
        stop = stop if stop is not None else min(end // inner * inner, -(-at // plane) * plane)
        if stop > at:
            sums.append(_run_sum(flat, at, stop, mean))
            at = stop
    whole = at + (end - at) // plane * plane
    if whole > at:  # whole planes: one sum each
        d = flat[at:whole].astype(np.float64).reshape(-1, plane) - mean
        sums.extend(np.add.accumulate(np.multiply(d, d, out=d), axis=1)[:, -1])
        at = whole
    for stop in (at + (end - at) // inner * inner, end):  # whole rows, then the rest of a row
        if stop > at:
            sums.append(_run_sum(flat, at, stop, mean))
            at = stop
    return np.add.accumulate(np.array([0.0, *sums]))[-1]


def _run_sum(flat: np.ndarray, begin: int, end: int, mean: np.float64) -> np.float64:
    """One thread's ``sum += (double(x) - mean) ** 2`` over ``flat[begin:end]``, left to right, in blocks that
    stay in cache (no temporary of the input's size).

    NOTE: each block's first square gets the running sum added before ``np.add.accumulate`` (that addition is
    the sequential loop's own next step), so the blocks change no bit."""
    buf = np.empty(min(BLOCK, end - begin), np.float64)
    carry = np.float64(0.0)
    for b in range(begin, end, BLOCK):
        d = buf[: min(BLOCK, end - b)]
        np.subtract(flat[b : b + d.size], mean, out=d, dtype=np.float64)
        np.multiply(d, d, out=d)
        d[0] += carry
        carry = np.add.accumulate(d, out=d)[-1]
    return carry


def welford_fits(x: np.ndarray, ax: tuple) -> bool:
    """Whether ``welford`` is cheap for a reduction of ``x`` over ``ax``: one NumPy step per reduced element, each
    over all outputs, so a few reduced elements (64), or no more of them than outputs where each step reads a
    contiguous row (the reduced dims outermost; a transposing copy first cost ~4x the two-pass route)."""
    r = 1
    for d in ax:
        r *= x.shape[d]
    if r <= 64:
        return r > 0  # (so never one output of GRAIN_SIZE elements: see welford's NOTE)
    return r <= x.size // r and _steps(x, ax, flat=False).flags.c_contiguous


def _steps(x: np.ndarray, ax: tuple, flat: bool = True) -> np.ndarray:
    """``x`` as (reduced elements in TensorIterator's order, *kept dims): its reduced dims outer to inner by
    stride, flattened in front of the kept ones (``flat=False``: the transposed view, not flattened)."""
    red = sorted(ax, key=lambda d: -abs(x.strides[d]))
    kept = [d for d in range(x.ndim) if d not in ax]
    view = np.transpose(x, red + kept)
    return view.reshape(-1, *[x.shape[d] for d in kept]) if flat else view


def welford(x: np.ndarray, ax: tuple, correction: float, keepdim: bool):
    """(variance, mean) in double over axes ``ax`` of float32/float64 ``x``, as PyTorch's CPU ``WelfordOps``
    (``std_var_kernel_impl``, and var_mean/std_mean): each output's elements in the input's memory order over
    the reduced dims, one at a time: ``delta = x - mean; mean += delta / n; m2 += delta * (x - mean)``.

    NOTE: a loop over the reduced elements, vectorised over the outputs (``welford_fits`` says when that is
    cheap); one output of ``GRAIN_SIZE`` elements or more ATen splits among threads and combines (Chan's
    formula), which this does not follow (``welford_fits`` leaves it out)."""
    steps = _steps(x, ax)
    mean = np.zeros(steps.shape[1:], np.float64)
    m2 = np.zeros_like(mean)
    delta, step = np.empty_like(mean), np.empty_like(mean)
    for i, row in enumerate(steps):
        np.subtract(row, mean, out=delta, dtype=np.float64)
        np.add(mean, delta / np.float64(i + 1), out=mean)
        np.subtract(row, mean, out=step, dtype=np.float64)
        m2 += np.multiply(delta, step, out=step)
    n = steps.shape[0]
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / np.float64(n - correction if n > correction else 0)
    if keepdim:
        var, mean = (np.expand_dims(v, tuple(ax)) for v in (var, mean))
    return var, mean
