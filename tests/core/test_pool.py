"""core._pool: the kept pool of worker threads the split kernels share (results in order, errors raised in the
caller, sized by ``core.get_num_threads()``, usable from its own workers and in a forked child)."""

from __future__ import annotations

import multiprocessing
import os
import threading

import pytest

import core
from core import _pool


def test_pool_map_returns_each_result_in_the_order_of_its_item():
    assert _pool.pool_map(lambda i: i * i, range(10)) == [i * i for i in range(10)]


def test_pool_map_runs_the_items_on_worker_threads_not_the_caller():
    names = _pool.pool_map(lambda _: threading.current_thread().name, range(3))
    assert all(name.startswith("core-intraop") for name in names)


def test_an_exception_in_an_item_is_raised_in_the_caller():
    def fail(i):
        if i == 2:
            raise ValueError("item 2")
        return i

    with pytest.raises(ValueError, match="item 2"):
        _pool.pool_map(fail, range(4))


def test_workers_ignore_floating_point_errors_as_core_does_on_the_importing_thread():
    """A kernel split over the pool overflows quietly, as it does unsplit (torch warns about none of these)."""
    import warnings

    import numpy as np

    def overflow(_):
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            np.exp(np.float32(100.0)) * np.float32(0.0)
        return np.geterr(), len(caught)

    for state, warned in _pool.pool_map(overflow, range(4)):
        assert state == np.geterr()
        assert warned == 0


def test_the_pool_is_kept_between_calls_and_sized_by_the_thread_count():
    core.set_num_threads(2)
    _pool.pool_map(abs, [1])
    first = _pool._pool()
    _pool.pool_map(abs, [1])
    assert _pool._pool() is first
    assert first._max_workers == 2


def test_set_num_threads_gives_a_pool_of_the_new_size():
    core.set_num_threads(2)
    before = _pool._pool()
    core.set_num_threads(3)
    barrier = threading.Barrier(3, timeout=30)  # three items that only finish together need three workers
    assert _pool.pool_map(lambda i: barrier.wait() >= 0 and i, range(3)) == [0, 1, 2]
    assert _pool._pool() is not before
    assert _pool._pool()._max_workers == 3


def test_a_call_from_a_worker_runs_its_items_in_that_worker_instead_of_waiting_on_the_pool():
    core.set_num_threads(1)
    assert _pool.pool_map(lambda i: _pool.pool_map(lambda j: i + j, range(3)), range(2)) == [[0, 1, 2], [1, 2, 3]]


def _child_sum(queue) -> None:
    queue.put(sum(_pool.pool_map(lambda i: i, range(5))))


@pytest.mark.skipif(not hasattr(os, "fork"), reason="fork is POSIX-only")
def test_a_forked_child_gets_a_working_pool_of_its_own():
    _pool.pool_map(abs, [1])  # the parent's pool exists before the fork
    ctx = multiprocessing.get_context("fork")
    queue = ctx.Queue()
    child = ctx.Process(target=_child_sum, args=(queue,))
    child.start()
    assert queue.get(timeout=60) == 10
    child.join(timeout=60)
    assert child.exitcode == 0
