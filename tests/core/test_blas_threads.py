"""core._blas_threads: NumPy's BLAS on one thread inside a block, the previous count restored after it."""

from __future__ import annotations

import threading

import numpy as np

from core import _blas_threads


def _count():
    funcs = _blas_threads._funcs()
    return funcs[0]() if funcs else None


def test_single_threaded_blocks_nest_and_restore_the_thread_count():
    before = _count()
    with _blas_threads.single_threaded():
        with _blas_threads.single_threaded():
            assert _count() == (1 if _blas_threads.available() else None)
        assert _count() == (1 if _blas_threads.available() else None)
        a = np.ones((64, 64), np.float32)
        assert (a @ a == 64).all()
    assert _count() == before


def test_concurrent_single_threaded_blocks_restore_the_count_once_the_last_one_leaves():
    before = _count()
    inside, release = threading.Barrier(2), threading.Event()

    def worker():
        with _blas_threads.single_threaded():
            inside.wait()
            release.wait()

    thread = threading.Thread(target=worker)
    thread.start()
    with _blas_threads.single_threaded():
        inside.wait()
    assert _count() == (1 if _blas_threads.available() else None)  # the worker is still inside
    release.set()
    thread.join()
    assert _count() == before
