"""The first hour, by hand, a tenth time: rough spots a newcomer met under a real virtual screen (1366x768 and
1920x1080), each driven here through the real widgets (the menu, the wheel over the canvas, the toolbar, the
dialog's button)."""

import numpy as np
import pytest
from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QPushButton

from tests.gui.import_progress import open_endless_import, title_room
from tests.gui.real_input import click, click_toolbar, shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _bars(view) -> tuple[bool, bool]:
    return view.horizontalScrollBar().isVisible(), view.verticalScrollBar().isVisible()


def _wheel(view, notches: int) -> None:
    """Turn the mouse wheel over the middle of the canvas (a notch up zooms in by 15 %, down zooms out)."""
    viewport = view.viewport()
    centre = QPointF(viewport.rect().center())
    for _ in range(abs(notches)):
        QApplication.sendEvent(viewport, QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(),
                                                     QPoint(0, 120 if notches > 0 else -120), Qt.NoButton,
                                                     Qt.NoModifier, Qt.NoScrollPhase, False))


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_a_lesson_that_fits_whole_shows_no_scroll_bars_until_the_wheel_zooms_past_it(window, qtbot, size):
    """File ▸ Examples ▸ lesson 6 opens whole: nothing to scroll to, and no scroll bars (both showed over every
    graph, the canvas scrolling far around it). Three notches of the wheel put nodes out of view: the bars come,
    with the 'more' buttons; Fit all on the toolbar shows it whole again and they go."""
    w = shown(qtbot, window, size)
    view = w.view
    open_example(qtbot, w, "06-training-step")
    qtbot.waitUntil(lambda: view.all_nodes_shown() and _bars(view) == (False, False))
    assert view.framed_whole and not any(b.isVisible() for b in view.more.buttons.values())
    _wheel(view, 3)
    qtbot.waitUntil(lambda: not view.all_nodes_shown() and _bars(view) == (True, True))
    assert any(b.isVisible() for b in view.more.buttons.values())  # the edge buttons say the same
    click_toolbar(w, "fit_all")
    qtbot.waitUntil(lambda: view.all_nodes_shown() and _bars(view) == (False, False))
    w.undo_stack.setClean()


def test_a_lesson_too_big_to_read_whole_opens_with_scroll_bars(window, qtbot):
    """Lesson 10 at 1366x768 opens readable at its start, the rest out of view: the bars show (and stay while
    the view settles: shown, they shrink the canvas, so nothing more comes into view to hide them)."""
    w = shown(qtbot, window)
    view = w.view
    open_example(qtbot, w, "10-diagnosing")
    qtbot.waitUntil(lambda: not view.all_nodes_shown() and _bars(view) == (True, True))
    view.more.refresh()
    assert view.more.hidden_sides() and _bars(view) == (True, True)
    w.undo_stack.setClean()


def test_the_import_progress_dialog_has_a_fixed_size_and_no_resize_handle(window, qtbot, monkeypatch, tmp_path):
    """File ▸ Open code on a slow snippet: the progress dialog keeps one size, so the window manager draws no
    resize handle along its bottom (under the label and the bar it read as a stray line); Cancel stops the run."""
    progress = open_endless_import(qtbot, window, monkeypatch, tmp_path)
    assert progress.minimumSize() == progress.maximumSize() == progress.size()
    assert progress.width() >= title_room(progress)  # still wide enough for its title
    button = next(b for b in progress.findChildren(QPushButton) if b.text() == "Cancel")
    click(button)
    qtbot.waitUntil(lambda: window.code.progress is None, timeout=10_000)
    assert "cancelled" in window.status_label.text()


def test_a_saved_training_session_reopens_with_its_loss_plot(qtbot, node_types, monkeypatch, tmp_path):
    """The moons classifier, its loss pinned to the Watch list (the Inspector's Watch button), trained 12 steps from
    the Train dock, File ▸ Save As (Ctrl+Shift+S), File ▸ New, File ▸ Open (Ctrl+O): the Plots dock draws the 12
    losses again and the Watch dock its 12 points (both came back empty while the step count and the optimizer's
    state came back), and Train goes on with the same run from step 12."""
    from PySide6.QtWidgets import QFileDialog, QWidget

    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.conftest import make_window
    from tests.gui.real_input import click_node, show_dock, type_text

    w = shown(qtbot, make_window(qtbot, classifier_graph("moons")))
    panel, trainer, plot = w.training.panel, w.training.trainer, w.training.plot
    loss_id = w.graph.training["loss"]
    click_node(qtbot, w, loss_id)
    show_dock(qtbot, w, w.inspector_dock)
    watch_buttons = w.inspector.watch_buttons
    qtbot.waitUntil(lambda: "out" in watch_buttons.buttons and watch_buttons.buttons["out"].isVisible())
    click(watch_buttons.buttons["out"])
    key = f"{loss_id}.out"
    qtbot.waitUntil(lambda: w.training.watch.watch.keys == [key])
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "12")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.history.current is not None
                    and len(trainer.history.current) == 12, timeout=60_000)
    qtbot.waitUntil(lambda: (1, "loss") in plot.items and len(plot.items[(1, "loss")].getData()[0]) == 12)
    steps, losses = (a.copy() for a in plot.items[(1, "loss")].getData())
    watched = w.training.watch.watch.series(key)
    assert len(watched[0]) == 12
    label = trainer.history.current.label
    saved = tmp_path / "moons.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(saved), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(saved.exists)
    QTest.keyClick(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes and not plot.items and not trainer.history.runs)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(saved), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == len(classifier_graph("moons").nodes))
    show_dock(qtbot, w, w.training.docks["plots"])
    qtbot.waitUntil(lambda: (1, "loss") in plot.items and len(plot.items[(1, "loss")].getData()[0]) == 12)
    x, y = plot.items[(1, "loss")].getData()
    np.testing.assert_array_equal(x, steps)
    np.testing.assert_array_equal(y, losses)
    assert [run.label for run in trainer.history.runs] == [label]
    show_dock(qtbot, w, w.training.docks["watch"])
    watch_plot = w.training.watch.plot
    qtbot.waitUntil(lambda: key in watch_plot.items and len(watch_plot.curves(key)[0][0]) == 12)
    for drawn, saved in zip(watch_plot.curves(key)[0], watched[:2]):
        np.testing.assert_array_equal(drawn, saved)
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "5")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.runs[0]) == 17, timeout=60_000)
    assert len(trainer.history.runs) == 1 and trainer.history.runs[0].steps()[12] == steps[-1] + 1
    w.undo_stack.setClean()


def _drawn_curve(item, samples: int = 80) -> list[tuple[float, float]]:
    """Points along an edge as the canvas draws it, in scene coordinates."""
    path = item.path()
    points = [item.mapToScene(path.pointAtPercent(i / samples)) for i in range(samples + 1)]
    return [(p.x(), p.y()) for p in points]


def _segments_cross(p, q, r, s) -> bool:
    def side(a, b, c):
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    return side(p, q, r) * side(p, q, s) < 0 and side(r, s, p) * side(r, s, q) < 0


def _crossing_edges(w) -> list[tuple[str, str]]:
    """Pairs of drawn edges whose curves cross (two leaving one port, or entering one node, meet at its side)."""
    title = {nid: node.title for nid, node in w.graph.nodes.items()}
    items = list(w.scene.edge_items.values())
    curves = [_drawn_curve(item) for item in items]
    found = []
    for i, a in enumerate(items):
        for j in range(i + 1, len(items)):
            b = items[j]
            if (a.edge.src, a.edge.src_port) == (b.edge.src, b.edge.src_port) or a.edge.dst == b.edge.dst:
                continue
            ca, cb = curves[i], curves[j]
            if any(_segments_cross(ca[k], ca[k + 1], cb[m], cb[m + 1])
                   for k in range(len(ca) - 1) for m in range(len(cb) - 1)):
                found.append((f"{title[a.edge.src]}->{title[a.edge.dst]}", f"{title[b.edge.src]}->{title[b.edge.dst]}"))
    return found


def test_lesson_8_opens_whole_with_no_crossing_edges_before_and_after_forward_and_backward(window, qtbot):
    """File ▸ Examples ▸ lesson 8 at 1366x768: three pairs of its edges crossed (x -> pred over w2 -> side, w -> g
    over target -> loss, loss and penalty into total). Its total is now penalty + loss, as the lesson says: the
    graph opens whole, without scroll bars, and no two drawn edges cross, nor after Forward all and Backward all."""
    from tests.gui import real_input as d

    w = shown(qtbot, window)
    open_example(qtbot, w, "08-gradient-flow")
    view = w.view
    qtbot.waitUntil(lambda: view.all_nodes_shown() and _bars(view) == (False, False))
    assert _crossing_edges(w) == []
    assert "from total = penalty + loss" in w.lessons.panel.browser.toPlainText()  # what the lesson says of it
    for action in ("forward", "backward"):
        with qtbot.waitSignal(w.stepper.finished, timeout=60_000):
            d.click_toolbar(w, action)
        assert _crossing_edges(w) == [], f"after {action}"
    w.undo_stack.setClean()
