"""Scratch arrays kept per thread and size, for the bit-exact kernels that run a block at a time.

``core._sleef``'s exp and ``core._mkl_tanh``'s tanh write every step into preallocated temporaries (``out=``) so
the float64 steps run in cache. A small array's call would otherwise spend a noticeable share of its time making
them (two or three ``np.empty`` and a tuple or object: ~1 µs of a 200-element exp's ~25), and fresh buffers are
cold. ``kept_per_thread(make, up_to, sizes)`` gives a function ``scratch(size)`` that returns ``make(size)``,
the same object again for a size this thread asked for lately: the last ``sizes`` sizes up to ``up_to`` elements
are kept (the oldest size is dropped first), larger ones are made fresh each call. Each thread has its own, so
kernels running on several threads never share one; a kernel that holds one must not be reentered on its thread.

With ``size_of``, the argument is any hashable key (``core._openblas_chains``' zero-padded GEMM operands are kept
by their use and shape) and ``size_of(key)`` is what ``up_to`` bounds; ``sizes`` then counts keys.
"""

from __future__ import annotations

import threading
from typing import Callable, Hashable, TypeVar

__all__ = ["kept_per_thread"]

K = TypeVar("K", bound=Hashable)
T = TypeVar("T")


def kept_per_thread(make: Callable[[K], T], up_to: int, sizes: int,
                    size_of: Callable[[K], int] | None = None) -> Callable[[K], T]:
    """``scratch(key)``: ``make(key)`` kept per thread for the last ``sizes`` keys whose size (the key itself, an
    int, or ``size_of(key)``) is at most ``up_to`` (module docstring); a plain function (a closure), as cheap to
    call as the kernels' own were."""
    kept = threading.local()

    def scratch(key: K) -> T:
        if (key if size_of is None else size_of(key)) > up_to:
            return make(key)
        by_key = getattr(kept, "by_key", None)
        if by_key is None:
            by_key = kept.by_key = {}
        made = by_key.get(key)
        if made is None:
            if len(by_key) >= sizes:
                by_key.pop(next(iter(by_key)))
            made = by_key[key] = make(key)
        return made

    return scratch
