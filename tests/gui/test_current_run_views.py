"""Every view shows the current document and run: the classifier lesson's Train link fills the plots, the
Train dock's progress and the decision boundary; every plot follows training while it runs; Reset starts a
new run (in the legend) and empties the progress and the boundary; File ▸ New empties the lesson, the plots
and the boundary."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from tests.gui.real_input import click, click_link, click_toolbar, press, show_dock, shown

CLASSIFIER = str(EXAMPLES_DIR / "playground-classifier.json")


@pytest.fixture
def lesson(window, qtbot):
    w = shown(qtbot, window)
    assert w.open_path(CLASSIFIER)
    show_dock(qtbot, w, w.lessons.dock)
    yield w
    w.training.trainer.pause()


def _points(plot, series, run=1) -> int:
    item = plot.items.get((run, series))
    x = item.getData()[0] if item is not None else None
    return 0 if x is None else len(x)


def _train_by_link(qtbot, w, n=200):
    click_link(qtbot, w.lessons.panel.browser, f"action:train?n={n}")
    trainer = w.training.trainer
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == n, timeout=60_000)


def test_the_train_link_fills_the_loss_plot_the_progress_and_the_boundary(lesson, qtbot):
    w, t = lesson, lesson.training
    _train_by_link(qtbot, w)
    qtbot.waitUntil(lambda: _points(t.plot, "loss") == 200 and _points(t.plot, "lr") == 200)
    assert t.panel.progress_bar.value() == 200 and t.panel.progress_bar.maximum() == 200
    assert t.panel.progress_label.text().startswith("200 / 200 steps")
    qtbot.waitUntil(lambda: t.data.view is not None and t.data.image.image is not None)
    assert t.data.view["kind"] == "classification"


def test_every_plot_follows_training_while_it_runs(qtbot, window):
    w = shown(qtbot, window)
    assert w.open_path(CLASSIFIER)
    t = w.training
    t.trainer.train(1_000_000)
    show_dock(qtbot, w, t.docks["plots"])
    series = ("loss", "accuracy", "lr", "grad_norm/n2.0.weight", "update_ratio/n2.0.weight")
    qtbot.waitUntil(lambda: all(_points(t.plot, s) for s in series), timeout=30_000)
    assert t.trainer.state == "training"  # drawn by the frames during training, not by Pause
    t.trainer.pause()


def test_the_lr_plot_shows_the_first_steps_at_once_then_keeps_its_period(qtbot, node_types, monkeypatch):
    """The learning-rate plot refreshed every 2 s from the start, so it stayed empty for the first 2 s of a run. With
    a period longer than the test, its point can only come from the run's first frame, and no later one."""
    from core.nodegraph.files.io import load
    from gui.training import controls
    from tests.gui.conftest import make_window

    monkeypatch.setitem(controls.PLOT_PERIODS, "lr", 3600.0)
    graph = load(CLASSIFIER)
    graph.training["steps"] = 1_000_000  # it trains until paused
    w = shown(qtbot, make_window(qtbot, graph))
    t = w.training
    show_dock(qtbot, w, t.docks["train"])
    click(t.panel.buttons["Train"])
    qtbot.waitUntil(lambda: t.docks["plots"].isVisible())  # the Plots dock opens at the first step
    show_dock(qtbot, w, t.docks["plots"])
    qtbot.waitUntil(lambda: _points(t.plot, "lr") > 0, timeout=30_000)
    assert t.trainer.state == "training"  # drawn by a frame during training, not by a pause or the end
    first = _points(t.plot, "lr")
    qtbot.waitUntil(lambda: _points(t.plot, "loss") > first, timeout=30_000)  # the loss plot goes on
    assert _points(t.plot, "lr") == first  # and the lr plot keeps its period
    t.trainer.pause()
    w.undo_stack.setClean()
    w.bridge.mark_saved()


def test_reset_starts_a_new_run_with_its_own_legend_entry_and_empties_progress_and_boundary(lesson, qtbot):
    w, t = lesson, lesson.training
    _train_by_link(qtbot, w)
    qtbot.waitUntil(lambda: t.data.image.image is not None)
    click_toolbar(w, "reset")
    qtbot.waitUntil(lambda: t.panel.progress_bar.value() == -1 and t.panel.progress_label.text() == "")
    qtbot.waitUntil(lambda: t.data.image.image is None)
    _train_by_link(qtbot, w)
    assert [r.number for r in t.trainer.history.runs] == [1, 2]
    qtbot.waitUntil(lambda: _points(t.plot, "loss", run=2) == 200)
    labels = [label.text for _, label in t.plot.legend.items]
    assert any("run 1" in x for x in labels) and any("run 2" in x for x in labels)


def test_file_new_empties_the_lesson_the_plots_and_the_boundary(lesson, qtbot):
    w, t = lesson, lesson.training
    _train_by_link(qtbot, w)
    qtbot.waitUntil(lambda: _points(t.plot, "loss") == 200 and t.data.image.image is not None)
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    assert w.lessons.panel.lesson is None and "File ▸ Examples" in w.lessons.panel.browser.toPlainText()
    assert t.plot.items == {} and t.plot.legend.items == [] and t.trainer.history.runs == []
    assert t.panel.progress_bar.value() == -1
    qtbot.waitUntil(lambda: t.data.image.image is None)
