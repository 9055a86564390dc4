"""One kept pool of worker threads for core's split kernels, as ATen keeps its intra-op thread pool.

The bit-exact kernels that split their work over ``core.get_num_threads()`` Python threads (NumPy's ufuncs,
copies and GEMMs release the GIL) used to start a ``ThreadPoolExecutor`` on every call: a few threads started
and joined per call, ~0.1 ms each, which is most of the cost of a call just over a threading threshold. They
now share this one pool, created on first use with ``core.get_num_threads()`` workers, replaced (lazily, at the
next call) when ``set_num_threads`` changes that count, and dropped in a forked child, whose copy of the pool
has no threads.

It promises what the per-call executors did: ``pool_map(fn, items)`` returns ``[fn(item) for item in items]`` in
order, every item run on a worker thread, and the first exception raised again in the caller. NumPy's error state is
per thread and the caller's does not carry over: each worker starts with the one ``core`` sets on import (every
floating-point error ignored, as torch's kernels return inf/nan silently), and an item must leave it so
(``np.errstate`` as a context manager, never ``np.seterr``), since the workers are kept. The callers choose the
split, so the values are the same bits as before. A call from one of the pool's own workers runs its items in that
thread, one after another (a worker waiting on its own pool could otherwise wait forever).
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import numpy as np

from core._threads import get_num_threads

__all__ = ["pool_map"]

_lock = threading.Lock()
_state: dict = {"pool": None, "size": 0}
_worker = threading.local()


def _start_worker() -> None:
    """Marks the thread as the pool's and gives it core's NumPy error state (see the module's docstring)."""
    _worker.active = True
    np.seterr(all="ignore")


def _pool() -> ThreadPoolExecutor:
    """The kept pool, made or remade with ``core.get_num_threads()`` workers when that count changed."""
    size = get_num_threads()
    with _lock:
        pool = _state["pool"]
        if pool is None or _state["size"] != size:
            if pool is not None:
                pool.shutdown(wait=False)  # (its idle workers exit; running tasks finish first)
            pool = ThreadPoolExecutor(size, thread_name_prefix="core-intraop", initializer=_start_worker)
            _state["pool"], _state["size"] = pool, size
        return pool


def pool_map(fn, items) -> list:
    """``[fn(item) for item in items]``, the items run on the kept pool's threads at the same time (up to
    ``core.get_num_threads()`` of them); results in the items' order."""
    items = list(items)
    if getattr(_worker, "active", False):
        return [fn(item) for item in items]
    return list(_pool().map(fn, items))


def _forget_after_fork() -> None:
    """A forked child has the parent's pool object but none of its threads: start afresh on first use."""
    global _lock
    _lock = threading.Lock()
    _state["pool"], _state["size"] = None, 0


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_after_fork)
