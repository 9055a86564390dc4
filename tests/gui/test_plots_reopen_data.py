"""Plots reopened from the View menu bring the Data dock back beside them: after training a model on a dataset
both were closed with their close buttons, and View ▸ Plots reopened the plots alone (the data's points stayed
closed until found under View separately). A graph without a dataset reopens the plots alone."""

import pytest
from PySide6.QtWidgets import QAbstractButton, QWidget

from core.nodegraph.files import io as files
from core.nodegraph.lessons import EXAMPLES_DIR
from tests.gui.conftest import make_window
from tests.gui.real_input import click, shown, type_text
from tests.gui.test_window_fits import choose_menu

pytest.importorskip("pytestqt")


def _close(qtbot, dock) -> None:
    """Click the dock's own close button (its title bar's ×)."""
    click(dock.findChild(QAbstractButton, "qt_dockwidget_closebutton"))
    qtbot.waitUntil(lambda: not dock.isVisible())


def test_view_plots_reopens_the_data_dock_beside_the_plots(qtbot, node_types):
    w = shown(qtbot, make_window(qtbot, files.load(EXAMPLES_DIR / "playground-regression.json")))
    plots, data = w.training.docks["plots"], w.training.docks["data"]
    type_text(qtbot, w.training.panel.findChild(QWidget, "trainSteps"), "3")
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and plots.isVisible() and data.isVisible(),
                    timeout=60_000)
    _close(qtbot, data)
    _close(qtbot, plots)
    choose_menu(qtbot, w, ["View", "Plots"])
    qtbot.waitUntil(lambda: plots.isVisible() and data.isVisible())
    assert not plots.visibleRegion().isEmpty() and not data.visibleRegion().isEmpty()  # both on screen, not behind
    assert data.geometry().left() >= plots.geometry().right()  # beside them, as training placed it
    w.undo_stack.setClean()
    w.bridge.mark_saved()


def test_view_plots_without_a_dataset_reopens_the_plots_alone(qtbot, window):
    w = shown(qtbot, window)
    plots, data = w.training.docks["plots"], w.training.docks["data"]
    choose_menu(qtbot, w, ["View", "Plots"])
    qtbot.waitUntil(plots.isVisible)
    assert not data.isVisible()
