"""Lesson 8's "Try this", done by mouse as its text says: side's out dragged onto penalty's x, Forward all and
Backward all, and w2 trains; then, that edit undone, eval_pred (the no_grad node) dragged onto loss's input, and
both g's autograd.grad and the backward from total refuse with "element 0 of tensors does not require grad".

The text said "w2 now trains" after the connection alone: a learner who pressed Backward all then met "Trying to
backward through the graph a second time" (the edit re-ran only penalty and total, and the loss's graph had been
freed by the lesson's backward); and it said backward refuses after the no_grad move, which after the first try
(penalty then requiring grad) it no longer did. The text now says what to press and in which order."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from tests.gui.real_input import click_toolbar, open_lesson_by_mouse, press, shown
from tests.gui.scenarios.driver import canvas_point, drag

LESSON = EXAMPLES_DIR / "08-gradient-flow.md"
W2, SIDE, PENALTY, EVAL_PRED, LOSS, TOTAL, G = "n8", "n9", "n11", "n7", "n6", "n12", "n13"


def _connect(qtbot, w, src: str, dst: str, port: str) -> None:
    """Drag from ``src``'s out port onto ``dst``'s input ``port`` where the canvas draws them."""
    a, b = w.scene.node_items[src], w.scene.node_items[dst]
    start, end = canvas_point(w, a, a.port("out", True).pos()), canvas_point(w, b, b.port(port, False).pos())
    drag(w.view.viewport(), start, end)
    qtbot.waitUntil(lambda: w.graph.edge_into(dst, port) is not None and w.graph.edge_into(dst, port).src == src,
                    timeout=60_000)


def _forward(qtbot, w) -> None:
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete, timeout=60_000)


def _backward(qtbot, w, passes: int) -> None:
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: f"Backward pass #{passes} complete" in w.status_label.text(), timeout=60_000)


def test_lesson_eights_try_this_works_as_its_text_says(qtbot, window):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "8.")
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("08-gradient-flow.json"), timeout=60_000)
    w.activateWindow()  # as the window manager gives the keys back once the Lessons box is gone
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    text = LESSON.read_text()
    assert "then press Forward all and Backward all: w2 now trains" in text
    _forward(qtbot, w)
    _backward(qtbot, w, 1)  # the lesson's own steps: w gets its gradient, w2 none
    session = w.bridge.session
    assert session.grad(W2) is None

    _connect(qtbot, w, SIDE, PENALTY, "x")  # "drag from side's out onto penalty's x"
    _forward(qtbot, w)
    _backward(qtbot, w, 2)
    session = w.bridge.session
    assert not session.errors and tuple(session.grad(W2).shape) == (4, 1)  # w2 now trains

    press(w, Qt.Key_Z, Qt.ControlModifier)  # "Undo that"
    qtbot.waitUntil(lambda: w.graph.edge_into(PENALTY, "x").src != SIDE, timeout=60_000)
    _connect(qtbot, w, EVAL_PRED, LOSS, "input")
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: G in w.bridge.session.errors, timeout=60_000)
    assert "element 0 of tensors does not require grad" in str(w.bridge.session.errors[G])
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: TOTAL in w.bridge.session.errors, timeout=60_000)
    assert "element 0 of tensors does not require grad" in str(w.bridge.session.errors[TOTAL])
