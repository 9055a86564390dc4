"""Lesson 6 trained at 1366x768: the Plots dock (no Data beside it) opens low, its plots in one row, and the graph
above it stays whole and readable (it took half the window and cut the graph); the height the learner drags the
dock to is kept for the next document's plots and the next start."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui import window_placement
from gui.canvas.view import READABLE_ZOOM
from gui.main_window import MainWindow
from tests.gui.real_input import click, show_dock, shown
from tests.gui.test_plot_ticks import drawn_labels, overlapping

LESSON_6 = EXAMPLES_DIR / "06-training-step.json"


def _window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(files.load(LESSON_6))
    qtbot.addWidget(w)
    return shown(qtbot, w)


def _train_once(qtbot, w) -> None:
    show_dock(qtbot, w, w.training.docks["train"])
    trainer = w.training.trainer
    done = len(trainer.history.current) if trainer.current_run is not None else 0
    click(w.training.panel.buttons["Step"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.history.current is not None
                    and len(trainer.history.current) > done, timeout=60_000)
    qtbot.waitUntil(lambda: w.training.docks["plots"].isVisible())


def _drag_separator_above(qtbot, w, dock, dy: int) -> None:
    """Drag the splitter between the canvas and ``dock`` by ``dy`` pixels, as a learner does with the mouse (Qt
    moves the splitter on a zero timer after each move: the drag waits for it to follow the pointer)."""
    canvas = w.centralWidget().geometry()
    y = (canvas.bottom() + dock.geometry().top()) // 2
    start = QPoint(canvas.center().x(), y)
    QTest.mousePress(w, Qt.LeftButton, Qt.NoModifier, start)
    for step in range(1, 5):
        at = start + QPoint(0, dy * step // 4)
        QTest.mouseMove(w, at)
        qtbot.waitUntil(lambda at=at: abs(dock.geometry().top() - at.y()) <= 6)
    QTest.mouseRelease(w, Qt.LeftButton, Qt.NoModifier, start + QPoint(0, dy))


def test_lesson_6s_plots_open_low_in_one_row_under_a_readable_whole_graph(qtbot, node_types, monkeypatch):
    w = _window(qtbot, monkeypatch)
    _train_once(qtbot, w)
    plots, plot, view = w.training.docks["plots"], w.training.plot, w.view
    qtbot.waitUntil(lambda: plot.rows == 1 and plots.height() <= 0.3 * w.height())  # it took 0.45 of the window
    tops = {round(p.sceneBoundingRect().top()) for name, p in plot.plots.items() if p.isVisible()}
    assert len(tops) == 1  # one row
    assert plot.plots["loss"].vb.height() >= 80  # the loss curve readable (two rows left it ~65 px)
    assert drawn_labels(plot.plots["loss"].getAxis("left"))  # its values' scale drawn...
    for name, p in plot.plots.items():  # ...and no plot's labels over each other in the low row
        assert overlapping(drawn_labels(p.getAxis("left"))) == [], name
    qtbot.waitUntil(view.all_nodes_shown)  # the whole graph...
    assert view.transform().m11() >= READABLE_ZOOM  # ...at a zoom its values read at
    w.undo_stack.clear()


def test_the_height_the_learner_drags_the_plots_to_is_kept_for_the_next_document_and_start(qtbot, node_types,
                                                                                              monkeypatch):
    w = _window(qtbot, monkeypatch)
    _train_once(qtbot, w)
    plots = w.training.docks["plots"]
    qtbot.waitUntil(lambda: w.training.plot.rows == 1 and plots.height() <= 0.3 * w.height())
    before = plots.height()
    _drag_separator_above(qtbot, w, plots, -120)
    qtbot.waitUntil(lambda: plots.height() >= before + 100)
    dragged = plots.height()
    assert w.training.plot.rows == 2  # taller: two rows again

    assert w.open_path(str(LESSON_6))  # another document: the plots close...
    qtbot.waitUntil(lambda: not plots.isVisible())
    _train_once(qtbot, w)  # ...and open again at the learner's height
    qtbot.waitUntil(lambda: abs(plots.height() - dragged) <= 4)

    window_placement.save_geometry(w)  # as closing the window does
    w.undo_stack.clear()
    other = _window(qtbot, monkeypatch)
    _train_once(qtbot, other)
    qtbot.waitUntil(lambda: abs(other.training.docks["plots"].height() - dragged) <= 4)  # the same window size
    other.undo_stack.clear()
