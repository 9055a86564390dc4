"""The per-thread scratch cache of the bit-exact kernels (``core._thread_scratch``): kept buffers are reused on
the thread that made them, never shared with another thread, and bounded in number and size."""

from __future__ import annotations

import threading

from core._thread_scratch import kept_per_thread


def _counting():
    made = []

    def make(size):
        made.append(size)
        return [size]

    return made, make


def test_a_kept_size_gives_the_same_scratch_again_on_its_thread():
    made, make = _counting()
    scratch = kept_per_thread(make, up_to=100, sizes=2)
    assert scratch(10) is scratch(10)
    assert made == [10]


def test_sizes_over_the_bound_are_made_fresh_each_call():
    made, make = _counting()
    scratch = kept_per_thread(make, up_to=100, sizes=2)
    assert scratch(101) is not scratch(101)
    assert made == [101, 101]


def test_the_oldest_size_is_dropped_past_the_number_kept():
    made, make = _counting()
    scratch = kept_per_thread(make, up_to=100, sizes=2)
    first = scratch(1)
    scratch(2)
    scratch(3)  # drops size 1
    assert scratch(3) is not None and scratch(2) is not None
    assert scratch(1) is not first
    assert made == [1, 2, 3, 1]


def test_another_thread_gets_its_own_scratch():
    _, make = _counting()
    scratch = kept_per_thread(make, up_to=100, sizes=2)
    mine = scratch(5)
    theirs = []
    worker = threading.Thread(target=lambda: theirs.append(scratch(5)))
    worker.start()
    worker.join()
    assert theirs[0] == mine and theirs[0] is not mine


def test_keys_with_a_size_are_kept_by_key_and_bounded_by_their_size():
    made, make = _counting()
    scratch = kept_per_thread(make, up_to=100, sizes=2, size_of=lambda key: key[1])
    assert scratch(("rows", 10)) is scratch(("rows", 10))
    assert scratch(("columns", 10)) is not scratch(("rows", 10))
    assert scratch(("rows", 101)) is not scratch(("rows", 101))
    assert made == [("rows", 10), ("columns", 10), ("rows", 101), ("rows", 101)]
