"""Backward all (or Forward all) clicked again while a pass still runs: the second click is one more pass, run once
the first has ended, as ``loss.backward()`` written twice runs two backward calls. (It restarted the running pass,
which only continued it: one click was lost and the gradient held one pass where the learner counted two.)

The graph is a chain of nodes that each compute for a few milliseconds, so the first pass still runs in slices when
the second click comes. The expected numbers come from core running the same chain twice.
"""

import time

import pytest
from PySide6.QtCore import Qt

import core
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from tests.gui.conftest import make_window
from tests.gui.real_input import click_toolbar, press, shown
from tests.gui.waiting import event_loop_turns
from tests.nodegraph.graph_helpers import build

CHAIN = 40
FACTOR = 1.5


def _slow(ctx, inputs, params):
    end = time.process_time() + 0.004  # a few ms of computing, as a heavy op would take
    while time.process_time() < end:
        pass
    x = inputs.get("x")
    return core.ones(1, requires_grad=True) if x is None else x * FACTOR


@pytest.fixture
def slow_chain(node_types):
    register(NodeSpec("test.slow", "test", "Slow", "a few ms of work", _slow, inputs=(Port("x", optional=True),)))
    nodes = [(f"s{i}", "test.slow", {}) for i in range(CHAIN)]
    edges = [(f"s{i}", "out", f"s{i + 1}", "x") for i in range(CHAIN - 1)]
    graph = build(nodes, edges)
    graph.training["loss"] = f"s{CHAIN - 1}"
    yield graph
    unregister("test.slow")


def _core_chain():
    """The chain in core: its leaf and its loss."""
    x = core.ones(1, requires_grad=True)
    y = x
    for _ in range(CHAIN - 1):
        y = y * FACTOR
    return x, y


def _two_clicks_on_backward_all(qtbot, w):
    click_toolbar(w, "backward")
    assert w.stepper.active  # the forward to the loss runs on in slices
    click_toolbar(w, "backward")
    assert "then 1 more pass" in w.status_label.text()


def test_backward_all_clicked_twice_during_a_pass_accumulates_two_passes(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.named_actions["retain_graph"].isChecked())
    _two_clicks_on_backward_all(qtbot, w)
    session = w.bridge.session
    qtbot.waitUntil(lambda: not w.stepper.active, timeout=20_000)
    x, y = _core_chain()
    y.backward(retain_graph=True)
    y.backward()
    assert session.ledger.backward_calls == 2
    assert session.value("s0").grad.tolist() == pytest.approx(x.grad.tolist(), rel=1e-6)
    assert "then" not in w.status_label.text()  # the last pass's own message, no count left
    w.undo_stack.setClean()


def test_backward_all_clicked_twice_without_retain_graph_fails_the_second_pass_as_torch_does(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    _two_clicks_on_backward_all(qtbot, w)
    session = w.bridge.session
    loss = f"s{CHAIN - 1}"
    qtbot.waitUntil(lambda: not w.stepper.active and loss in session.errors, timeout=20_000)
    x, y = _core_chain()
    y.backward()
    with pytest.raises(RuntimeError) as second:
        y.backward()
    assert session.errors[loss].message == str(second.value)
    assert session.value("s0").grad.tolist() == pytest.approx(x.grad.tolist(), rel=1e-6)  # the first pass's
    w.undo_stack.setClean()


def test_esc_during_the_first_pass_drops_the_pass_clicked_after_it(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    _two_clicks_on_backward_all(qtbot, w)
    press(w, Qt.Key_Escape)
    status = w.status_label.text()
    assert not w.stepper.active and status.startswith("Cancelled after ")
    assert status.endswith("; the queued pass was dropped")  # the learner is not left waiting for the second pass
    session = w.bridge.session
    done = len(session.values)
    event_loop_turns(qtbot)  # a queued pass would have begun in these
    assert not w.stepper.active and len(session.values) == done and session.ledger.backward_calls == 0
    w.undo_stack.setClean()


def test_forward_all_clicked_twice_runs_the_graph_twice(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    click_toolbar(w, "forward")
    assert w.stepper.active
    click_toolbar(w, "forward")
    session = w.bridge.session
    runs = []
    w.bridge.stepped.connect(lambda event: runs.append(event.node) if event.phase == "forward" else None)
    qtbot.waitUntil(lambda: not w.stepper.active, timeout=20_000)
    assert runs.count("s0") == 1 and runs.count(f"s{CHAIN - 1}") == 2  # the second pass starts from the first node
    assert session.forward_complete
    w.undo_stack.setClean()
