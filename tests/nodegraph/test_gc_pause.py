"""Pausing the cyclic garbage collector around a batch (``core.nodegraph.model.gc_pause``, issue #21 "Growth"):
it is back on after the block however the block ends, nested blocks and a collector already off are left alone,
what the block made is neither walked by young collections afterwards nor leaked (its cycles go at the next full
collection), and objects someone else froze stay frozen."""

import gc
import weakref

import pytest

from core.nodegraph.model.gc_pause import gc_paused


class Cell:
    """An object that can sit in a reference cycle."""

    other = None


@pytest.fixture
def collector_on():
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


def test_the_collector_is_off_inside_and_on_again_after_the_block(collector_on):
    with gc_paused():
        assert not gc.isenabled()
        with gc_paused():  # a nested batch
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_the_collector_is_on_again_after_a_block_that_raised(collector_on):
    with pytest.raises(KeyError), gc_paused():
        raise KeyError("x")
    assert gc.isenabled()


def test_a_collector_turned_off_before_stays_off():
    was = gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        if was:
            gc.enable()


def test_a_cycle_made_in_the_block_is_freed_by_the_next_full_collection(collector_on):
    with gc_paused():
        a, b = Cell(), Cell()
        a.other, b.other = b, a
        ref = weakref.ref(a)
        del a, b
        made = [Cell() for _ in range(100)]
    assert ref() is not None  # not collected while paused (reference counting can't free a cycle)
    assert all(gc.is_tracked(c) for c in made) and gc.get_freeze_count() == 0
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(c) in oldest for c in made)  # moved to the oldest generation, not left for young collections
    gc.collect()
    assert ref() is None


def test_objects_someone_else_froze_stay_frozen(collector_on):
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with gc_paused():
            made = [[i] for i in range(50)]
        assert gc.get_freeze_count() >= frozen + len(made)  # the block's objects wait with the others
    finally:
        gc.unfreeze()


class _Clock:
    """A monotonic clock the test moves by hand (the throttle is read against it, never waited for)."""

    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


@pytest.fixture
def memory_reads(monkeypatch, collector_on):
    """Counts the reads of the resident memory, on a hand-moved clock, from a fresh throttle."""
    from core.nodegraph.model import gc_pause

    reads = []
    clock = _Clock()
    sizes = [100 * 1024 ** 2]
    monkeypatch.setattr(gc_pause, "_monotonic", clock)
    monkeypatch.setattr(gc_pause, "_next_check", [0.0])
    monkeypatch.setattr(gc_pause, "_base", [])
    monkeypatch.setattr(gc_pause, "resident_bytes", lambda: reads.append(clock.now) or sizes[0])
    monkeypatch.setattr(gc_pause, "_trim", lambda: None)
    return reads, clock, sizes


def test_a_loop_of_small_batches_reads_the_resident_memory_once_an_interval(memory_reads):
    from core.nodegraph.model.gc_pause import CHECK_INTERVAL

    reads, clock, _ = memory_reads
    for _ in range(50):
        with gc_paused():
            pass
    assert len(reads) == 1  # not one read of /proc/self/statm per batch
    clock.now += CHECK_INTERVAL
    with gc_paused():
        pass
    assert len(reads) == 2


def test_growth_seen_after_the_interval_starts_a_full_collection(memory_reads):
    from core.nodegraph.model.gc_pause import CHECK_INTERVAL, MIN_GROWTH, collect_if_grown

    reads, clock, sizes = memory_reads
    assert not collect_if_grown()  # the first read: the base
    a, b = Cell(), Cell()
    a.other, b.other = b, a
    ref = weakref.ref(a)
    del a, b
    sizes[0] += 2 * MIN_GROWTH
    assert not collect_if_grown() and ref() is not None  # within the interval: not read yet
    clock.now += CHECK_INTERVAL
    assert collect_if_grown() and ref() is None
    assert collect_if_grown(force=True) is False and len(reads) == 4  # force reads at once (no new growth)
