"""A long Forward all / Backward all keeps the window responsive and Esc cancels it; Esc pauses training.

The graph is a chain of nodes that each compute for a few milliseconds, so a whole pass takes far longer
than one slice of the step runner: the test sees the pass partway, with the event loop running between
nodes, and stops it with the real Esc key.
"""

import time

import pytest
from PySide6.QtCore import Qt, QTimer

import core
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from gui import format as fmt
from tests.gui.conftest import make_window
from tests.gui.real_input import press, shown
from tests.nodegraph.graph_helpers import build

CHAIN = 60


def _slow(ctx, inputs, params):
    end = time.process_time() + 0.004  # a few ms of computing, as a heavy op would take
    while time.process_time() < end:
        pass
    x = inputs.get("x")
    return core.ones(1, requires_grad=True) if x is None else x * 1.5


@pytest.fixture
def slow_chain(node_types):
    register(NodeSpec("test.slow", "test", "Slow", "a few ms of work", _slow, inputs=(Port("x", optional=True),)))
    nodes = [(f"s{i}", "test.slow", {}) for i in range(CHAIN)]
    edges = [(f"s{i}", "out", f"s{i + 1}", "x") for i in range(CHAIN - 1)]
    graph = build(nodes, edges)
    graph.training["loss"] = f"s{CHAIN - 1}"
    yield graph
    unregister("test.slow")


@pytest.fixture
def ticks(qtbot):
    """Times at which an unrelated 1 ms timer fired: the event loop ran then."""
    seen: list = []
    timer = QTimer()
    timer.setInterval(1)
    timer.timeout.connect(lambda: seen.append(time.perf_counter()))
    timer.start()
    yield seen
    timer.stop()


def test_esc_cancels_forward_all_partway_and_the_nodes_done_stay_done(qtbot, slow_chain, ticks):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    press(w, Qt.Key_F5)
    assert w.stepper.active  # F5 returned to the event loop with nodes left
    session = w.bridge.session
    qtbot.waitUntil(lambda: len(session.values) >= 12)
    before = len(ticks)
    qtbot.waitUntil(lambda: len(ticks) >= before + 3 and len(session.values) >= 15)
    assert w.status_label.text().endswith(f"of {CHAIN} nodes (Esc cancels)")
    press(w, Qt.Key_Escape)
    done = len(session.values)
    assert not w.stepper.active
    assert 15 <= done < CHAIN
    assert w.status_label.text() == f"Cancelled after {done} of {CHAIN} nodes"
    assert session.next_node == f"s{done}" and not session.forward_complete
    assert session.value(f"s{done - 1}").item() == pytest.approx(1.5 ** (done - 1), rel=1e-5)
    w.undo_stack.setClean()


def test_forward_all_after_a_cancel_finishes_the_pass_with_the_same_values(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    press(w, Qt.Key_F5)
    session = w.bridge.session
    qtbot.waitUntil(lambda: len(session.values) >= 5)
    press(w, Qt.Key_Escape)
    press(w, Qt.Key_F5)
    qtbot.waitUntil(lambda: session.forward_complete and not w.stepper.active, timeout=10_000)
    assert session.value(f"s{CHAIN - 1}").item() == pytest.approx(1.5 ** (CHAIN - 1), rel=1e-5)
    assert w.status_label.text().startswith("Forward: Slow = ")  # the last node's step, no longer the count
    w.undo_stack.setClean()


def test_esc_cancels_backward_all_and_backward_all_continues_it(qtbot, slow_chain):
    w = shown(qtbot, make_window(qtbot, slow_chain))
    press(w, Qt.Key_F5, Qt.ShiftModifier)  # Backward all: the forward to the loss runs first, in slices too
    session = w.bridge.session
    qtbot.waitUntil(lambda: len(session.values) >= 5)
    press(w, Qt.Key_Escape)
    assert not w.stepper.active and session.loss_node() not in session.values
    assert w.status_label.text().startswith("Cancelled after ")
    press(w, Qt.Key_F5, Qt.ShiftModifier)
    qtbot.waitUntil(lambda: session.ledger.backward_calls == 1 and not session.backward_in_progress
                    and not w.stepper.active, timeout=10_000)
    assert session.value("s0").grad.item() == pytest.approx(1.5 ** (CHAIN - 1), rel=1e-5)
    w.undo_stack.setClean()


def test_esc_does_nothing_to_the_window_while_nothing_runs(window, qtbot):
    w = shown(qtbot, window)
    assert not w.named_actions["cancel"].isEnabled()  # the focused widget keeps Esc for itself
    press(w, Qt.Key_F5)
    qtbot.waitUntil(lambda: not w.stepper.active)
    assert not w.named_actions["cancel"].isEnabled()


def test_esc_pauses_training(qtbot, node_types):
    w = shown(qtbot, make_window(qtbot, classifier_graph("moons", steps=100_000)))
    press(w, Qt.Key_T, Qt.ControlModifier)
    trainer = w.training.trainer
    qtbot.waitUntil(lambda: trainer.state == "training" and trainer.done > 0)
    press(w, Qt.Key_Escape)
    qtbot.waitUntil(lambda: trainer.state == "paused")
    # the Pause button's words: the loss and what Train and Step do next (Esc said only where it paused)
    assert w.status_label.text() == f"Training paused after {trainer.done} of 100000 steps, loss " \
        f"{fmt.scalar(trainer.last_loss)}: Train goes on, Step runs one"
    w.undo_stack.setClean()
