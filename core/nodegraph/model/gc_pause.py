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
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["gc_paused"]


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
