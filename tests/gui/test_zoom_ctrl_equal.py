"""Ctrl+= (Ctrl++ without Shift on most keyboards) zooms in from anywhere in the window, as the menu's Ctrl++ does:
it zoomed only while the canvas had the keyboard, and did nothing from the Node library or the Inspector."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import press, shown


def test_ctrl_equal_zooms_in_once_from_the_node_library_and_from_the_canvas(window, qtbot):
    w = shown(qtbot, window)
    w.library_dock.show()
    w.library_dock.raise_()
    w.library.setFocus()
    qtbot.waitUntil(w.library.hasFocus)
    before = w.view.zoom_level()
    QTest.keyClick(w.library, Qt.Key_Equal, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.view.zoom_level() == pytest.approx(before * 1.2))
    assert w.library.hasFocus()  # the keyboard stays where it was
    press(w, Qt.Key_1, Qt.ControlModifier)  # the canvas
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_Equal, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.view.zoom_level() == pytest.approx(before * 1.2 * 1.2))
