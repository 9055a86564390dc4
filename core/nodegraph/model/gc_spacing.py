"""Full garbage collections spaced in proportion to the large documents alive (issue #21, "Growth").

CPython 3.11 runs a full collection, which walks every tracked object of the process, once ten collections of the
middle generation have run since the last (``gc.get_threshold()[2]``) and the objects that reached the oldest
generation since then number a quarter of those it held after the last. While a document is built by commands,
everything it makes survives, so the second condition holds after every quarter of growth and the whole heap is
walked again and again: about five times its final size in all. Building 100,000 nodes spent 0.35 s of 1.7 s
there (none of it garbage) and took 7x as long as 20,000 nodes, where one such walk of a smaller heap happens.

So while documents of at least ``LARGE`` nodes are alive, the count of middle-generation collections that starts
a full one is one per ``NODES_PER_COLLECTION`` of their nodes (never below the threshold found before): a full
collection waits for allocation in proportion to the heap it will walk, so that its cost per object allocated
stays flat as documents grow, which is what the quarter rule means to do. Nothing is disabled or frozen: full
collections still come, and cyclic garbage, a closed document's included, is freed by the next one. The document
reports its size only when it leaves a band around its last report (``note_size``), so this costs one comparison
per added node. The threshold found before comes back when the last large document is freed; a threshold that
someone else set meanwhile becomes the one found before (it is never lowered, and it is what comes back).
"""

from __future__ import annotations

import gc
import weakref

__all__ = ["LARGE", "NODES_PER_COLLECTION", "note_size", "large_nodes"]

LARGE = 4096  # documents below this many nodes leave the collector's thresholds alone
NODES_PER_COLLECTION = 500  # a large document's nodes per middle-generation collection before a full one

_sizes: dict[int, int] = {}  # id of a large document -> its nodes when it last reported
_finalizers: dict[int, weakref.finalize] = {}
_held: tuple[int, int] | None = None  # (threshold found before, threshold set here) while large documents live


def note_size(document: object, nodes: int) -> tuple[int, int]:
    """Record that ``document`` holds ``nodes`` nodes; returns the band ``(low, high)`` of sizes it needn't report.

    Its entry goes when it is freed (a ``weakref.finalize``), or when it reports fewer than ``LARGE`` nodes."""
    key = id(document)
    if nodes >= LARGE:
        _sizes[key] = nodes
        if key not in _finalizers:
            finalizer = _finalizers[key] = weakref.finalize(document, _forget, key)
            finalizer.atexit = False  # at exit the thresholds no longer matter
        high = 1 << nodes.bit_length()  # the next power of two above: O(log n) reports while a document grows
        band = (high // 8, high)
    else:
        if key in _finalizers:
            _finalizers.pop(key).detach()
        _sizes.pop(key, None)
        band = (0, LARGE)
    _apply()
    return band


def large_nodes() -> int:
    """The nodes of the large documents alive, as they last reported them."""
    return sum(_sizes.values())


def _forget(key: int) -> None:
    if _sizes.pop(key, None) is not None:
        _finalizers.pop(key, None)
        _apply()


def _apply() -> None:
    """Set the full-collection threshold for the large documents alive, or give back the one found before."""
    global _held
    t0, t1, current = gc.get_threshold()
    base = current if _held is None or current != _held[1] else _held[0]
    total = large_nodes()
    if not total:
        if _held is not None and current == _held[1]:
            gc.set_threshold(t0, t1, _held[0])
        _held = None
        return
    wanted = max(base, total // NODES_PER_COLLECTION)
    if wanted != current:
        gc.set_threshold(t0, t1, wanted)
    _held = (base, wanted)
