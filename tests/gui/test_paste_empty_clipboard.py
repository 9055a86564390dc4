"""Edit ▸ Paste (Ctrl+V) with nothing ever copied says so: the clipboard's mime data is None then, and the paste
raised AttributeError ('NoneType' object has no attribute 'hasFormat') in the event loop, a traceback."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import press, shown


def test_ctrl_v_with_nothing_ever_copied_says_so_instead_of_a_traceback(qtbot, window):
    w = shown(qtbot, window)
    QApplication.clipboard().clear()
    press(w, Qt.Key_1, Qt.ControlModifier)
    qtbot.waitUntil(w.view.hasFocus)
    before = set(w.graph.nodes)
    QTest.keyClick(w.view, Qt.Key_V, Qt.ControlModifier)  # Edit ▸ Paste
    qtbot.waitUntil(lambda: w.status_label.text() == "The clipboard holds no Nodegrad nodes")
    assert set(w.graph.nodes) == before

