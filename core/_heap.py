"""Keep freed array memory in the process: glibc's malloc settings for many short-lived mid-sized arrays.

NOTE: a hot path, set once at import. A training step allocates its activations, gradients and temporaries
afresh (hundreds of KiB to a few MiB each) and frees them a moment later. With glibc's defaults a block over
128 KiB is mapped from the kernel and unmapped when freed, and the heap's free top is handed back whenever it
passes a few MiB, so every step faults each page of those arrays in again: a third of the 784-256-128-10 MLP
step (0.5 of 1.5 ms) went to page faults. Serving blocks up to 32 MiB from the heap and handing its top back
only past 256 MiB keeps that memory for the next step, as PyTorch's caching allocators do. The process keeps
up to 256 MiB of freed memory it would otherwise have returned; ``NODEGRAD_MALLOC_DEFAULTS=1`` in the
environment keeps glibc's defaults. Other C libraries (macOS, Windows, musl) are left alone.
"""

from __future__ import annotations

import ctypes
import os
import sys

_M_TRIM_THRESHOLD = -1  # mallopt parameter numbers from glibc's malloc.h
_M_MMAP_THRESHOLD = -3
MMAP_THRESHOLD = 32 << 20  # glibc's largest allowed value on 64-bit systems
TRIM_THRESHOLD = 256 << 20


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds; return whether they were set."""
    if not sys.platform.startswith("linux") or os.environ.get("NODEGRAD_MALLOC_DEFAULTS") == "1":
        return False
    try:
        libc = ctypes.CDLL(None)
        mallopt = libc.mallopt
    except (OSError, AttributeError):  # no C library to load, or one without mallopt
        return False
    if not hasattr(libc, "gnu_get_libc_version"):  # only glibc numbers mallopt's parameters this way
        return False
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
