"""Pausing Python's cyclic garbage collector around one batch of work on a large graph.

Loading a 20,000-node file or running it forward allocates a few hundred thousand small objects that all stay
alive (the document's nodes and dicts, values, autograd nodes, plans, snapshots). Every few hundred of them start
a collection that walks the young objects and, now and then, every object the process holds: that was about
half the time of ``Session.forward`` and of ``files.loads`` at 20,000 nodes, and it grows with the graph. None of
those objects is garbage the collector could free early, so while such a batch runs it waits. Reference counting
still frees at once everything that is not in a cycle; cycles made meanwhile go at the first collection after
the batch.

Re-enabling alone would only move the cost: the first young collections after the batch would walk every object
it made (a fifth of a second at 20,000 nodes). So the batch's survivors go straight to the oldest generation:
``gc.freeze`` followed by ``gc.unfreeze`` moves every tracked object there without walking it. They are walked,
and any cycles among them freed, by the next full collection, which the collector spaces out as the heap grows.
When something else has frozen objects (the window's trainer does while it trains), the batch's objects stay
frozen with them and come back with that caller's ``unfreeze``. ``gc_paused`` is the one place that does this;
each caller says which batch it covers.

NOTE: objects moved that way do not count towards the collector's rule for a full collection (survivors of the
middle generation numbering a quarter of the oldest), so full collections almost stopped. Sessions and documents
are freed only by the cyclic collector (they hold cycles), and their tensors with them: a process that opened
document after document (the fuzz tests: 40 sessions of a 36 MB tensor each grew to 5.5 GB, one run to 19 GB and
the out-of-memory killer) kept every one. So the collector is also told about memory, which it never counts: after
a batch, when the resident memory grew by more than ``GROWTH_SHARE`` (half) of what it was after the last full
collection here (and at least ``MIN_GROWTH``), a full collection runs (``collect_if_grown``), and on Linux the C
library gives what it freed back to the system. Its cost is a walk of the heap per such growth, amortized over
the allocation that caused it.

NOTE: reading the resident memory opens and parses ``/proc/self/statm`` (~14 µs, more than a small graph's whole
``gc_paused`` block), so ``collect_if_grown`` reads it at most once every ``CHECK_INTERVAL`` seconds of the
monotonic clock (~0.05 µs to ask) and returns at once in between: a loop of small batches (``Session.forward`` of
a lesson graph, stepping backward) pays one read per interval instead of one per batch. Memory only becomes
resident as its pages are written (``MIN_GROWTH`` of ones took 45-80 ms on the Zen 3), so a growth that would
start a collection is seen at most one interval (and about one ``MIN_GROWTH``) late.
"""

from __future__ import annotations

import gc
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused", "collect_if_grown", "resident_bytes", "MIN_GROWTH", "GROWTH_SHARE", "CHECK_INTERVAL"]

MIN_GROWTH = 256 * 1024 ** 2  # the least growth of resident memory that starts a full collection
GROWTH_SHARE = 0.5  # ... and the least as a share of the resident memory after the last one
CHECK_INTERVAL = 0.02  # seconds between two reads of the resident memory (see the NOTE above)
_base: list[int] = []  # the resident bytes after the last full collection collect_if_grown ran (or first seen)
_next_check = [0.0]  # the monotonic time before which collect_if_grown does not read the resident memory again
_monotonic = time.monotonic


@contextmanager
def gc_paused() -> Iterator[None]:
    """Disable the cyclic collector for the ``with`` block and enable it again after, however the block ends; what
    the block made moves to the oldest generation unwalked (see the module's docstring).

    Nested blocks (a backward that runs the forward first) and a collector already off (paused by the caller or
    turned off by the user) are left as they are."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        others_frozen = gc.get_freeze_count() > 0
        gc.freeze()
        if not others_frozen:
            gc.unfreeze()
        gc.enable()
        collect_if_grown()


def resident_bytes() -> int | None:
    """The process's resident memory now (Linux), else its peak (other Unix systems); None where neither is known."""
    try:
        with open("/proc/self/statm", "rb") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        pass
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return int(peak) if sys.platform == "darwin" else int(peak) * 1024  # bytes on macOS, KiB elsewhere


def collect_if_grown(force: bool = False) -> bool:
    """Run a full collection when the resident memory grew by more than half (and ``MIN_GROWTH``) since the last one
    run here; True when it ran. Cyclic garbage holding large arrays (a closed session's tensors) goes then. The
    memory is read at most once every ``CHECK_INTERVAL`` seconds (``force``: now, whenever it was last read)."""
    clock = _monotonic()
    if clock < _next_check[0] and not force:
        return False
    _next_check[0] = clock + CHECK_INTERVAL
    now = resident_bytes()
    if now is None:
        return False
    if not _base:
        _base.append(now)
        return False
    if now <= _base[0] + max(MIN_GROWTH, int(_base[0] * GROWTH_SHARE)):
        return False
    gc.collect()
    _trim()
    _base[0] = resident_bytes() or now
    return True


def _trim() -> None:
    """Give the memory the collection freed back to the system (glibc keeps freed arrays below 32 MB in its heap,
    where the resident memory went on growing: 40 sessions of 16 MB tensors still took 600 MB); elsewhere nothing."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes

        ctypes.CDLL(None).malloc_trim(0)
    except (OSError, AttributeError):  # another C library (musl)
        pass
