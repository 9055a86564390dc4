"""View ▸ Canvas only (Ctrl+Shift+F) hides the docked panels so the canvas takes the window (at 125 % on a 1366x768
laptop the side columns left it half), and the same key brings them back, the Lesson in front of its column again;
opening a dock meanwhile ends the mode and brings the others back with it."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt

from gui.canvas_only import BACK, RETURNED
from tests.gui.real_input import press, shown
from tests.gui.scenarios import driver as d


def _front(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def test_canvas_only_gives_the_canvas_the_window_and_the_same_key_brings_the_docks_back(qtbot, window):
    w = shown(qtbot, window)
    assert w.lessons.first_start()
    qtbot.waitUntil(lambda: _front(w.lessons.dock) and _front(w.inspector_dock))
    before = w.view.width()
    d.click_menu(qtbot, w, "View", "Canvas only")
    qtbot.waitUntil(lambda: not w.lessons.dock.isVisible() and not w.inspector_dock.isVisible())
    qtbot.waitUntil(lambda: w.view.width() >= w.width() - 20)
    assert w.view.width() > before + 400
    assert w.status_label.text() == BACK  # how the panels come back
    press(w, Qt.Key_F, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: _front(w.lessons.dock) and _front(w.inspector_dock))
    assert not _front(w.library_dock)  # the Nodes tab stays behind the Lesson, as it was
    assert w.status_label.text() == RETURNED  # the status bar no longer says how to bring them back
    qtbot.waitUntil(lambda: abs(w.view.width() - before) <= 30)


def test_opening_a_dock_from_the_view_menu_ends_canvas_only(qtbot, window):
    w = shown(qtbot, window)
    press(w, Qt.Key_F, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: not w.inspector_dock.isVisible() and not w.library_dock.isVisible())
    d.click_menu(qtbot, w, "View", "Inspector")
    qtbot.waitUntil(lambda: w.inspector_dock.isVisible() and w.library_dock.isVisible())
    assert not w.canvas_only.action.isChecked()
