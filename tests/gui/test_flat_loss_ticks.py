"""Lesson 10's 'Loss not decreasing' by its links: the loss stays at 1.2858, and the loss plot's axis labels it with
a few digits (pyqtgraph gave a flat line a range of ±4e-15, labelled 1.285831451416018)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from tests.gui.real_input import click_checkbox, click_link, show_dock, shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _tick_labels(plot, axis: str = "left") -> list[str]:
    """The labels the axis draws for the plot's current range (pyqtgraph's own choice of ticks and their text)."""
    ax = plot.getAxis(axis)
    lo, hi = plot.viewRange()[1]
    return [label for spacing, values in ax.tickValues(lo, hi, ax.height())
            for label in ax.tickStrings(values, ax.autoSIPrefixScale, spacing)]


def test_a_flat_loss_gets_readable_tick_labels_on_a_linear_and_a_log_axis(qtbot, window):
    w = shown(qtbot, window)
    open_example(qtbot, w, "10-diagnosing")
    browser, trainer = w.lessons.panel.browser, w.training.trainer
    click_link(qtbot, browser, "action:set_loss?node=loss_flat")
    click_link(qtbot, browser, "action:train?n=12")
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 12, timeout=60_000)
    plot = w.training.plot
    loss = plot.plots["loss"]
    qtbot.waitUntil(lambda: plot.items.get((1, "loss")) is not None and len(plot.items[(1, "loss")].yData) == 12)
    assert len(set(plot.items[(1, "loss")].yData)) == 1, "the lesson's loss is flat"
    labels = _tick_labels(loss)
    assert labels and all(len(label) <= 5 for label in labels), labels
    lo, hi = loss.viewRange()[1]
    assert lo < plot.items[(1, "loss")].yData[0] < hi, "the flat line is in view"
    show_dock(qtbot, w, w.training.docks["plots"])
    qtbot.waitUntil(plot.log_box.isVisible)
    click_checkbox(plot.log_box)
    qtbot.waitUntil(lambda: bool(loss.getAxis("left").logMode))
    labels = _tick_labels(loss)
    assert labels and all(len(label) <= 5 for label in labels), labels
