"""torch.distributed.algorithms.join in one process (accelerate's Accelerator imports Join): the context manager
runs its joinables' post-hooks once, notifies through the first joinable only, and refuses what torch refuses."""

from __future__ import annotations

import importlib

import pytest

import core


def _joinable(lib):
    """A Joinable that records its hooks' calls (as DDP's and ZeroRedundancyOptimizer's hooks do their work)."""
    join = importlib.import_module(f"{lib.__name__}.distributed.algorithms.join")

    class Hook(join.JoinHook):
        def __init__(self, calls):
            self.calls = calls

        def main_hook(self):
            self.calls.append("main")

        def post_hook(self, is_last_joiner):
            self.calls.append(("post", is_last_joiner))

    class Counter(join.Joinable):
        def __init__(self):
            super().__init__()
            self.calls = []

        def join_hook(self, **kwargs):
            self.calls.append(("hook", sorted(kwargs)))
            return Hook(self.calls)

        @property
        def join_device(self):
            return lib.device("cpu")

        @property
        def join_process_group(self):
            return lib.distributed.group.WORLD

    return join, Counter


def test_join_runs_the_post_hooks_once_and_notifies_through_the_first_joinable(world_of_one):
    seen = []
    for lib in world_of_one:
        join, counter = _joinable(lib)
        first, second = counter(), counter()
        config_before = tuple(first._join_config)
        with join.Join([first, second], extra=1):
            work = join.Join.notify_join_context(first)
            skipped = join.Join.notify_join_context(second)
        seen.append((config_before, first.calls, second.calls, work is not None, skipped,
                     tuple(first._join_config), tuple(second._join_config)))
    assert seen[0] == seen[1]
    assert seen[0][1] == [("hook", ["extra"]), ("post", True)]


def test_join_disabled_or_after_an_exception_runs_no_hook(world_of_one):
    seen = []
    for lib in world_of_one:
        join, counter = _joinable(lib)
        off, failing = counter(), counter()
        with join.Join([off], enable=False):
            pass
        with pytest.raises(KeyError), join.Join([failing]):
            raise KeyError("x")
        seen.append((off.calls, failing.calls, join.Join.notify_join_context(off)))
    assert seen[0] == seen[1]


def test_join_refuses_no_joinables_and_joinable_is_abstract(torch):
    for lib in (torch, core):
        join = importlib.import_module(f"{lib.__name__}.distributed.algorithms.join")
        with pytest.raises(ValueError, match="at least one joinable"):
            join.Join([])
        with pytest.raises(TypeError):
            join.Joinable()
        assert lib.distributed.algorithms.Join is join.Join
        assert join._JoinConfig.construct_disabled_join_config() == (False, False, False)
