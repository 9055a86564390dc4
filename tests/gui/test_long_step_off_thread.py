"""A single long step (lesson 1's 32x3x224x224 convolution took seconds) no longer freezes the window.

Forward all's steps run on the step runner's worker; the window keeps answering while one computes, with a busy
cursor and the edits disabled, and the values that arrive are the ones a headless session computes. A gate node
(it computes until the test lets it finish) makes "the window answered before the step was done" exact: the test
zooms with the real keys while the step is held, and only then lets it end.
"""

import threading

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

import core
from core.nodegraph.files import load
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister
from core.nodegraph.run.session import Session
from gui.palette import NodePalette
from tests.gui.conftest import make_window
from tests.gui.real_input import click, click_toolbar, press, shown, toolbar_button
from tests.nodegraph.graph_helpers import build


@pytest.fixture
def gate(node_types):
    """A graph ``a -> held -> b`` whose ``held`` step computes until the test sets the returned event."""
    release = threading.Event()

    def _held(ctx, inputs, params):
        release.wait(timeout=60)  # as a long kernel: the worker is inside the step until then
        return inputs["x"] * 2

    register(NodeSpec("test.held", "test", "Held", "computes until released", _held, inputs=(Port("x"),)))
    graph = build([("a", "source.ones", {"shape": [3]}), ("held", "test.held", {}), ("b", "math.neg", {})],
                  [("a", "out", "held", "x"), ("held", "out", "b", "x")])
    yield graph, release
    release.set()
    unregister("test.held")


def test_the_window_answers_keys_while_a_step_computes_and_the_pass_then_finishes(qtbot, gate):
    graph, release = gate
    w = shown(qtbot, make_window(qtbot, graph))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.stepper.busy)  # the held step computes on the worker; the click has returned
    assert QApplication.overrideCursor() is not None  # busy: the cursor says so, and the status line
    assert w.status_label.text() == "Forward all: 0 of 3 nodes, computing… (Esc cancels)"  # a is in with held
    assert not w.named_actions["delete"].isEnabled() and not w.inspector.isEnabled()  # no edit meanwhile
    scale = w.view.transform().m11()
    press(w.view, Qt.Key_Equal, Qt.ControlModifier)  # Ctrl+= zooms in: handled now, not after the step
    assert w.view.transform().m11() > scale
    press(w.view, Qt.Key_Tab)  # the node palette would add a node to the graph the worker runs: not now
    assert not any(p.isVisible() for p in w.findChildren(NodePalette))
    assert w.stepper.busy and "b" not in w.bridge.session.values
    release.set()
    qtbot.waitUntil(lambda: not w.stepper.active)
    session = w.bridge.session
    assert session.forward_complete and session.value("b").tolist() == [-2.0, -2.0, -2.0]
    assert QApplication.overrideCursor() is None and w.named_actions["delete"].isEnabled() and w.inspector.isEnabled()
    assert w.status_label.text().startswith("Forward: ")  # the last node's step, as after a pass run here


def test_esc_while_a_step_computes_stops_the_pass_after_that_step(qtbot, gate):
    graph, release = gate
    w = shown(qtbot, make_window(qtbot, graph))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.stepper.busy)
    press(w, Qt.Key_Escape)
    assert w.status_label.text() == "Cancelling after the step in progress…"
    release.set()
    qtbot.waitUntil(lambda: not w.stepper.active)
    session = w.bridge.session
    assert "held" in session.values and "b" not in session.values  # the step in flight came in, no more
    assert w.status_label.text() == "Cancelled after 2 of 3 nodes"


def test_closing_the_window_while_a_step_computes_waits_for_it(qtbot, gate):
    graph, release = gate
    w = shown(qtbot, make_window(qtbot, graph))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.stepper.busy)
    threading.Timer(0.2, release.set).start()  # the step ends while close() waits for it
    w.undo_stack.setClean()
    w.close()
    assert not w.isVisible() and not w.stepper.busy and not w.stepper.active


def test_lesson_one_convolution_by_forward_all_keeps_the_event_loop_running_and_matches_a_headless_run(qtbot,
                                                                                                      node_types):
    path = EXAMPLES_DIR / "01-tensors.json"
    w = shown(qtbot, make_window(qtbot, load(path)))
    turns_while_busy = []
    w.stepper.busy_changed.connect(lambda busy: turns_while_busy.append(0) if busy else None)
    ticks = qtbot_ticks(qtbot, lambda: w.stepper.busy and turns_while_busy.append(1))
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: not w.stepper.active, timeout=60_000)
    ticks.stop()
    assert sum(turns_while_busy) >= 3  # the event loop ran while the big steps computed on the worker
    headless = Session(load(path))
    headless.forward()
    for nid in headless.order:
        ours, theirs = w.bridge.session.value(nid), headless.value(nid)
        assert ours.shape == theirs.shape and np.array_equal(ours.numpy(), theirs.numpy())
    assert isinstance(ours, core.Tensor) and tuple(ours.shape) == (32, 64, 112, 112)


def qtbot_ticks(qtbot, on_tick):
    """A 5 ms timer calling ``on_tick``: it fires only while the GUI thread runs its event loop."""
    from PySide6.QtCore import QTimer

    timer = QTimer()
    timer.setInterval(5)
    timer.timeout.connect(on_tick)
    timer.start()
    return timer


def test_no_menu_entry_that_opens_another_document_is_usable_while_a_step_computes(qtbot, gate):
    graph, release = gate
    w = shown(qtbot, make_window(qtbot, graph))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.stepper.busy)
    file_menu = w.menus["File"]
    usable = [a.text() for a in file_menu.actions() if a.isEnabled() and not a.isSeparator()]
    assert usable == ["&Quit"]  # New, Open, Open recent, Examples... wait for the step (closing waits too)
    assert w.menus["Run"].menuAction().isEnabled() and w.named_actions["cancel"].isEnabled()
    release.set()
    qtbot.waitUntil(lambda: not w.stepper.active)
    assert w.named_actions["open"].isEnabled() and w.recent_menu.menuAction().isEnabled()
