"""NumPy's BLAS on one thread while core runs its own threads: ``single_threaded()`` and ``available()``.

Kernels that split a batch over Python threads (conv2d) want each thread's GEMMs single-threaded: a
multi-threaded BLAS called from several threads at once oversubscribes the cores, and its spinning
workers collapse when another process takes a core (the chapter's conv2d went from 0.25 s to 1-4 s on
a loaded 2-core machine; with one BLAS thread per worker it stays at ~0.2-0.3 s). NumPy has no API for
this, so, as threadpoolctl does, we find OpenBLAS's ``openblas_set_num_threads`` in the loaded library
with ctypes (Linux: the library named in /proc/self/maps). Where it is not found (another BLAS, another
OS), ``available()`` is False and callers run serially with the BLAS's own threads.

The setting is process-wide: ``single_threaded`` counts its users, so nested and concurrent blocks
restore the previous count once, when the last one leaves.
"""

from __future__ import annotations

import contextlib
import ctypes
import re
import threading

__all__ = ["available", "single_threaded", "run_single_threaded", "openblas_libraries", "set_threads"]

_SYMBOLS = ("scipy_openblas_{}_num_threads64_", "scipy_openblas_{}_num_threads", "openblas_{}_num_threads64_",
            "openblas_{}_num_threads")
_lock = threading.Lock()
_state = {"funcs": None, "users": 0, "saved": None, "one": None}


def openblas_libraries() -> list:
    """The OpenBLAS libraries NumPy loaded, as ``ctypes.CDLL``s (Linux: named in /proc/self/maps; else none)."""
    import numpy  # noqa: F401 - NumPy's BLAS must be loaded before we look for it

    try:
        with open("/proc/self/maps", encoding="utf-8", errors="replace") as f:
            paths = sorted(set(re.findall(r"(/\S*openblas\S*\.so\S*)", f.read())))
    except OSError:
        return []
    libs = []
    for path in paths:
        try:
            libs.append(ctypes.CDLL(path))
        except OSError:
            continue
    return libs


def _find():
    """(get, set) of the OpenBLAS that NumPy loaded, or () when there is none to find."""
    for lib in openblas_libraries():
        for pattern in _SYMBOLS:
            get, put = getattr(lib, pattern.format("get"), None), getattr(lib, pattern.format("set"), None)
            if get is not None and put is not None:
                get.restype = ctypes.c_int
                put.argtypes = [ctypes.c_int]
                return get, put
    return ()


def _funcs():
    if _state["funcs"] is None:
        _state["funcs"] = _find()
    return _state["funcs"]


def available() -> bool:
    """True when core can set NumPy's BLAS thread count (OpenBLAS found in this process)."""
    return bool(_funcs())


@contextlib.contextmanager
def single_threaded():
    """NumPy's BLAS runs on one thread inside the block (a no-op where ``available()`` is False)."""
    funcs = _funcs()
    if not funcs:
        yield
        return
    get, put = funcs
    with _lock:
        if _state["users"] == 0:
            _state["saved"] = get()
            put(1)
        _state["users"] += 1
    try:
        yield
    finally:
        with _lock:
            _state["users"] -= 1
            if _state["users"] == 0:
                put(_state["saved"])


def set_threads(n: int) -> None:
    """NumPy's BLAS on ``n`` threads from now on: ``torch.set_num_threads(n)``, as torch's own BLAS and LAPACK
    follow its intra-op thread count (inside a ``single_threaded`` block, the count it restores). A no-op where
    ``available()`` is False.

    NOTE: OpenBLAS starts with a thread per core, and its spinning workers collapse on a loaded machine: BoTorch's
    ``test_get_sampler`` (a 22000 x 22000 Cholesky factor and its product) spent 2-3 times torch's CPU time in
    core under ``set_num_threads(1)``, which core only recorded. Past OpenBLAS's threading threshold (a few hundred
    rows) its results depend on the thread count, as they did on the machine's core count before."""
    funcs = _funcs()
    if not funcs:
        return
    with _lock:
        if _state["users"]:
            _state["saved"] = n
        else:
            funcs[1](n)
        _state["one"] = n == 1


def run_single_threaded(fn, *args):
    """``fn(*args)`` with NumPy's BLAS on one thread: the call alone where the BLAS started with one thread (or
    can't be set), else inside ``single_threaded``.

    NOTE: a hot path (nn.Linear's GEMMs, several per training step): ``single_threaded`` costs a lock and two
    calls into the BLAS each time, which a BLAS started on one thread (``OPENBLAS_NUM_THREADS=1``) does not need;
    its start-up count is read once (a count changed later by other tools only makes this do a needless set).
    """
    one = _state["one"]
    if one is None:
        funcs = _funcs()
        with _lock:  # (inside a ``single_threaded`` block the count it will restore is the start-up one)
            one = _state["one"] = not funcs or (_state["saved"] if _state["users"] else funcs[0]()) == 1
    if one:
        return fn(*args)
    with single_threaded():
        return fn(*args)
