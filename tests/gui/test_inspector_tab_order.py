"""Tab goes down the Inspector in the order it reads: name, the Watch buttons, the parameters, the value. The Watch
buttons, remade for each node shown, came last in Qt's order (after the parameters, or after the Train dock's
fields), so Tab from the name skipped them (session 26's keyboard walk)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import click_node, press, shown


def _node(window, title: str) -> str:
    return next(nid for nid, n in window.graph.nodes.items() if n.title == title)


def _tabbing(qtbot, start, count: int) -> list:
    """The widgets Tab gives the focus to, ``count`` presses from ``start``."""
    seen = [start]
    for _ in range(count):
        QTest.keyClick(QApplication.focusWidget(), Qt.Key_Tab)
        qtbot.waitUntil(lambda: QApplication.focusWidget() is not seen[-1])
        seen.append(QApplication.focusWidget())
    return seen


def test_tab_from_the_name_visits_the_watch_button_then_each_parameter_then_the_value(window, qtbot):
    w = shown(qtbot, window)
    x = _node(w, "x")
    click_node(qtbot, w, x)
    press(w, Qt.Key_2, Qt.ControlModifier)  # View ▸ Focus Inspector: the first parameter
    inspector = w.inspector
    qtbot.waitUntil(lambda: inspector.editors["tensor"].hasFocus())
    QTest.keyClick(inspector.editors["tensor"], Qt.Key_Tab, Qt.ShiftModifier)  # up: the Watch button
    qtbot.waitUntil(lambda: QApplication.focusWidget() is inspector.watch_buttons.buttons["out"])
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Tab, Qt.ShiftModifier)  # up again: the name
    qtbot.waitUntil(inspector.name_edit.hasFocus)

    seen = _tabbing(qtbot, inspector.name_edit, 7)

    editors = inspector.editors
    assert seen == [inspector.name_edit, inspector.watch_buttons.buttons["out"], editors["tensor"], editors["dtype"],
                    editors["device"], editors["requires_grad"], editors["retain_grad"], inspector.value_view]
