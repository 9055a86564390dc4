"""core.multiprocessing.spawn runs fn(i, *args) in new processes and reports a child's exception as PyTorch's
ProcessRaisedException does (message starting with the failing process and its traceback). The processes are
forked here to keep the test fast; spawn's default start method is PyTorch's, "spawn"."""

from __future__ import annotations

import inspect

import pytest

import core
from core import multiprocessing as mp


def _record(rank, queue, offset):
    queue.put(rank + offset)


def _fail(rank):
    raise ValueError(f"bad rank {rank}")


def test_spawn_takes_torchs_parameters_and_defaults(torch):
    def params(fn):
        return [(p.name, p.default) for p in inspect.signature(fn).parameters.values()]

    assert params(mp.spawn) == params(torch.multiprocessing.spawn)


def test_spawn_runs_fn_once_per_process_with_its_index():
    ctx = mp.get_context("fork")
    queue = ctx.SimpleQueue()
    assert mp.spawn(_record, args=(queue, 10), nprocs=2, start_method="fork") is None
    assert sorted([queue.get(), queue.get()]) == [10, 11]


def test_a_failing_process_raises_process_raised_exception_with_its_traceback():
    with pytest.raises(mp.ProcessRaisedException) as info:
        mp.spawn(_fail, nprocs=1, start_method="fork")
    assert str(info.value).startswith("\n\n-- Process 0 terminated with the following error:\nTraceback")
    assert "ValueError: bad rank 0" in str(info.value) and info.value.error_index == 0


def test_spawn_without_join_returns_a_context_to_join():
    context = mp.spawn(_record, args=(mp.get_context("fork").SimpleQueue(), 0), nprocs=1, join=False,
                       start_method="fork")
    assert type(context).__name__ == "ProcessContext" and context.join() is True


def test_torch_multiprocessing_is_reachable_as_an_attribute(torch):
    assert core.multiprocessing is mp and hasattr(torch, "multiprocessing")
