"""A whole training step under the profiler records PyTorch's events: the forward's composite ops and their
children (``aten::linear`` over ``aten::t`` and ``aten::addmm``...), the backward pass as PyTorch's engine records
it (``aten::ones_like`` for the seed, ``autograd::engine::evaluate_function: <node>`` around each node's own event
and the ATen calls of its formula, ``torch::autograd::AccumulateGrad`` detaching the first gradient), and the
optimizer's spans (``Optimizer.step#SGD.step``, ``Optimizer.zero_grad#SGD.zero_grad``) with the per-parameter
updates of its CPU (for-loop) implementation. Core's profile held only the forward's primitives, a few of its
backward's ops at the top level and nothing of the optimizer (#19). Times differ; names, counts and nesting
don't."""

from __future__ import annotations

import re

import pytest

import core


def _step_profile(lib, optimizer: str, api: str, steps: int):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(3, 4), lib.nn.ReLU(), lib.nn.Linear(4, 1))
    opt = getattr(lib.optim, optimizer)(model.parameters(), lr=0.1)
    x, y = lib.randn(5, 3), lib.randn(5, 1)
    profile = lib.autograd.profiler.profile if api == "autograd" else lib.profiler.profile
    with profile() as prof:
        for _ in range(steps):
            loss = ((model(x) - y) ** 2).mean()
            loss.backward()
            opt.step()
            opt.zero_grad()
    return prof


def _tree(event) -> list:
    return [event.name, [_tree(c) for c in event.cpu_children]]


@pytest.mark.parametrize("api", ["autograd", "profiler"])
@pytest.mark.parametrize("steps", [1, 2])
@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_training_steps_key_averages_are_torchs(torch, optimizer, steps, api):
    ours, theirs = _step_profile(core, optimizer, api, steps), _step_profile(torch, optimizer, api, steps)
    assert [(e.key, e.count) for e in ours.key_averages()] == [(e.key, e.count) for e in theirs.key_averages()]


@pytest.mark.parametrize("optimizer", ["SGD", "Adam"])
def test_training_step_events_nest_as_torchs(torch, optimizer):
    ours, theirs = _step_profile(core, optimizer, "autograd", 1), _step_profile(torch, optimizer, "autograd", 1)
    tops = [[_tree(e) for e in p.function_events if e.cpu_parent is None] for p in (ours, theirs)]
    assert tops[0] == tops[1]


def _layout(table: str) -> list:
    """The table without its times and percentages: the column widths, names, counts."""
    return [re.sub(r"\S*\d\.\d+(us|ms|s|%)", "T", line).split() + [len(line)] for line in table.splitlines()
            if not line.startswith("Self CPU time total")]


def test_training_step_table_has_torchs_layout(torch):
    ours, theirs = _step_profile(core, "SGD", "profiler", 2), _step_profile(torch, "SGD", "profiler", 2)
    for row_limit in (8, 100):
        a, b = (_layout(p.key_averages().table(row_limit=row_limit)) for p in (ours, theirs))
        assert [r[:-1] for r in a] == [r[:-1] for r in b]
        assert a[0][-1] == b[0][-1]  # the rule's width: the name column sized by every event, as torch's
