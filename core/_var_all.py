"""PyTorch's CPU variance of a whole float32/float64 tensor (``std_var_all_cpu``), in its order of additions.

``torch.var``/``torch.std`` reducing every dimension (no ``dim``, or all of them, or all but size-1 ones) do not
use Welford's kernel on the CPU: ATen takes the tensor's mean (``self.mean()``, in the tensor's dtype, read as a
double), then splits the elements, in memory order, among its threads as ``parallel_reduce`` does (no split up
to ``GRAIN_SIZE`` = 32768 elements or on one thread; else ``min(threads, ceil(n / GRAIN_SIZE))`` runs of
``ceil(n / runs)``), adds ``(double(x) - mean) ** 2`` left to right in double within each run and the runs' sums
left to right, and divides by ``max(0, n - correction)``; the square root (``std``) and the rounding to float32
come last. ``np.add.accumulate`` adds left to right, so NumPy gives the same bits, vectorised; a long
input's runs go to that many Python threads, as ATen's to its threads.

It promises those bits for an input that is dense in some order of its dimensions (contiguous, transposed,
permuted); for others (a strided slice, an expanded tensor) ATen restarts its partial sum at each row block of
its iteration, which this module does not follow (the result is then within rounding, not bit for bit).
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import ordered_sum
from core._pool import pool_map
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
    flat = memory_order(x)
    n = flat.size
    with np.errstate(invalid="ignore", over="ignore"):
        mean = np.float64(ordered_sum(flat, (0,), False) / flat.dtype.type(n))  # self.mean() in the input's dtype
        runs = run_bounds(n, get_num_threads())
        if len(runs) > 1 and n >= THREADED:  # a Python thread a run (NumPy's ufuncs release the GIL): same sums
            sums = pool_map(lambda r: _run_sum(flat, r[0], r[1], mean), runs)
        else:
            sums = [_run_sum(flat, b, e, mean) for b, e in runs]
        total = np.float64(0.0)
        for s in sums:  # the runs' sums added in order, as parallel_reduce's
            total += s
    with np.errstate(divide="ignore", invalid="ignore"):
        return total / np.float64(max(0.0, n - correction))


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
