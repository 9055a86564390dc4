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
