"""Keyboard only round the window: Shift+Tab leaves the canvas (Tab there opens the palette, and Shift+Tab did
nothing, a trap only Ctrl+2..4 got out of), and every stop of Tab and Shift+Tab is a widget the user can see: the
empty Inspector's scroll area took the focus with no mark of it anywhere."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QScrollArea

from tests.gui.real_input import press, shown


def _key(qtbot, key, modifier=Qt.NoModifier):
    before = QApplication.focusWidget()
    QTest.keyClick(before, key, modifier)
    qtbot.waitUntil(lambda: QApplication.focusWidget() is not before)
    return QApplication.focusWidget()


def _seen(widget) -> bool:
    return widget is not None and widget.isVisible() and not widget.visibleRegion().isEmpty()


def test_shift_tab_leaves_the_canvas_and_goes_round_the_window_back_to_it(qtbot, window):
    w = shown(qtbot, window)
    press(w, Qt.Key_1, Qt.ControlModifier)  # View ▸ Focus canvas
    qtbot.waitUntil(w.view.hasFocus)
    stops = []
    for _ in range(30):
        landed = _key(qtbot, Qt.Key_Backtab, Qt.ShiftModifier)
        if landed is w.view:
            break
        assert _seen(landed), f"Shift+Tab went to {landed}, out of sight"
        assert not isinstance(landed, QScrollArea), "Shift+Tab stopped on a scroll area, its focus unmarked"
        stops.append(landed)
    assert stops, "Shift+Tab did not leave the canvas"
    assert w.view.hasFocus(), "Shift+Tab never came back round to the canvas"
    assert any(w.library_dock.isAncestorOf(s) for s in stops)  # the left column's fields on the way
    assert _key(qtbot, Qt.Key_Backtab, Qt.ShiftModifier) is stops[0]  # the same way out again
    assert _key(qtbot, Qt.Key_Tab) is w.view  # and Tab comes back to the canvas


def test_tab_with_no_node_selected_passes_over_the_empty_inspector(qtbot, window):
    w = shown(qtbot, window)
    assert not w.scene.selected_node_ids()
    press(w, Qt.Key_4, Qt.ControlModifier)  # View ▸ Focus Nodes: the library's filter
    qtbot.waitUntil(lambda: w.library_dock.isAncestorOf(QApplication.focusWidget()))
    for _ in range(12):
        landed = _key(qtbot, Qt.Key_Tab)
        assert not w.inspector_dock.isAncestorOf(landed), f"Tab stopped in the empty Inspector, on {landed}"
        assert _seen(landed)
        if landed is w.view:
            break
    assert w.view.hasFocus()


def test_ctrl_2_with_no_node_selected_shows_the_inspector_and_keeps_the_keyboard_on_the_canvas(qtbot, window):
    w = shown(qtbot, window)
    press(w, Qt.Key_3, Qt.ControlModifier)  # View ▸ Focus Train: the Inspector goes behind it
    qtbot.waitUntil(lambda: w.inspector_dock.visibleRegion().isEmpty())
    press(w, Qt.Key_1, Qt.ControlModifier)
    qtbot.waitUntil(w.view.hasFocus)
    assert not w.scene.selected_node_ids()
    press(w, Qt.Key_2, Qt.ControlModifier)  # View ▸ Focus Inspector, with nothing in it to type into
    qtbot.waitUntil(lambda: not w.inspector_dock.visibleRegion().isEmpty())  # its hint in front
    assert w.view.hasFocus(), f"the keyboard went to {QApplication.focusWidget()}, where nothing shows it"
    QTest.keyClick(w.view, Qt.Key_Right)  # and an arrow key there selects a node, as the hint says
    qtbot.waitUntil(lambda: len(w.scene.selected_node_ids()) == 1)
    press(w, Qt.Key_2, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.inspector_dock.isAncestorOf(QApplication.focusWidget()))
