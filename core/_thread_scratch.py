"""Scratch arrays kept per thread and size, for the bit-exact kernels that run a block at a time.

``core._sleef``'s exp and ``core._mkl_tanh``'s tanh write every step into preallocated temporaries (``out=``) so
the float64 steps run in cache. A small array's call would otherwise spend a noticeable share of its time making
them (two or three ``np.empty`` and a tuple or object: ~1 µs of a 200-element exp's ~25), and fresh buffers are
cold. ``kept_per_thread(make, up_to, sizes)`` gives a function ``scratch(size)`` that returns ``make(size)``,
the same object again for a size this thread asked for lately: the last ``sizes`` sizes up to ``up_to`` elements
are kept (the oldest size is dropped first), larger ones are made fresh each call. Each thread has its own, so
kernels running on several threads never share one; a kernel that holds one must not be reentered on its thread.
"""

from __future__ import annotations

import threading
from typing import Callable, TypeVar

__all__ = ["kept_per_thread"]

T = TypeVar("T")


def kept_per_thread(make: Callable[[int], T], up_to: int, sizes: int) -> Callable[[int], T]:
    """``scratch(size)``: ``make(size)`` kept per thread for the last ``sizes`` sizes of at most ``up_to``
    elements (module docstring); a plain function (a closure), as cheap to call as the kernels' own were."""
    kept = threading.local()

    def scratch(size: int) -> T:
        if size > up_to:
            return make(size)
        by_size = getattr(kept, "by_size", None)
        if by_size is None:
            by_size = kept.by_size = {}
        made = by_size.get(size)
        if made is None:
            if len(by_size) >= sizes:
                by_size.pop(next(iter(by_size)))
            made = by_size[size] = make(size)
        return made

    return scratch
