"""Training without zero_grad (lesson 6's bug) through a session: the loop that forgets ``optimizer.zero_grad()``,
step for step the same as that loop in plain core, recorded as a run like any training."""

import numpy as np
import pytest

import core
from core.nodegraph.explain.diagnostics import Diagnostics
from core.nodegraph.lessons.runner import LessonRun
from core.nodegraph.lessons.texts import Action, list_lessons
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import RunHistory
from tests.nodegraph.session_graphs import linear_mse_graph, node_types, plain_linear  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _plain_losses_without_zero_grad(steps, lr=0.01, seed=0):
    """The chapter's loop in plain core with ``opt.zero_grad()`` left out: each backward adds to the gradients."""
    model = plain_linear()
    opt = core.optim.SGD(model.parameters(), lr=lr)
    g = core.Generator().manual_seed(seed)
    losses = []
    for _ in range(steps):
        x = core.randn(32, 4, generator=g)
        y = core.randn(32, 1, generator=g)
        loss = core.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model


def test_train_without_zero_grad_matches_the_same_loop_in_plain_core_step_for_step():
    s = Session(linear_mse_graph(), seed=0)
    metrics = list(s.train(20, zero_grad=False))
    expected, model = _plain_losses_without_zero_grad(20)
    assert [m["loss"] for m in metrics] == expected
    np.testing.assert_array_equal(s.parameters()["lin.weight"]._data, model.weight._data)
    np.testing.assert_array_equal(s.parameters()["lin.bias"]._data, model.bias._data)
    np.testing.assert_array_equal(s.parameters()["lin.weight"].grad._data, model.weight.grad._data)


def test_train_without_zero_grad_equals_the_run_menus_forward_backward_and_step_by_hand():
    """Lesson 6's buggy loop run as training gives the losses that pressing Forward all, Backward all and Optimizer
    step twenty times gives."""
    lesson = next(x for x in list_lessons() if x.key == "06-training-step")
    by_hand = LessonRun(lesson)
    losses = []
    for _ in range(20):
        by_hand.session.forward()
        losses.append(by_hand.session.value(by_hand.session.loss_node()).item())
        by_hand.session.backward()
        by_hand.session.optimizer_step()
    trained = LessonRun(lesson)
    trained.perform(Action("train", {"n": 20, "zero_grad": False}))
    assert [m["loss"] for m in trained.metrics] == losses
    assert losses[-1] > 2 * losses[0], "the loss swings up, as the lesson says"


def test_train_without_zero_grad_accumulates_one_backward_call_per_step_and_is_flagged():
    s = Session(linear_mse_graph(), seed=0)
    diagnostics = Diagnostics(s)
    metrics = list(s.train(20, zero_grad=False))
    assert len(s.ledger.contributions("lin.weight")) == 20
    rules = {h.rule for h in diagnostics.hints}
    assert "grad_accumulation" in rules
    assert diagnostics.losses == [m["loss"] for m in metrics], "the trend rules see every step's loss"


def test_train_without_zero_grad_is_recorded_as_a_run_the_plots_draw():
    s = Session(linear_mse_graph(), seed=0)
    history = RunHistory()
    run = history.new_run(s.graph.training)
    for metrics in s.train(20, zero_grad=False):
        run.add(metrics)
    expected, _ = _plain_losses_without_zero_grad(20)
    assert run.series("loss").tolist() == expected
    assert run.steps().tolist() == list(range(20))
