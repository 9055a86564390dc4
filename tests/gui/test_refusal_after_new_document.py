"""A value the Train dock refused for one document is not left standing over the next one's settings.

By hand at 1366x768: -1 typed as the learning rate (refused: framed red, "-1 is outside [0, 10]" under it), then
File > Open of lesson 6, changes discarded: the field showed the lesson's 0.01, still framed red, and the red line
under it still said -1 is outside [0, 10], about a value the field no longer held. Opening or starting another
document now shows its settings with no refusal; the refused text never reaches the new document.
"""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import framed_red, press, show_dock, shown
from tests.gui.scenarios.driver import type_into

pytest.importorskip("pytestqt")


def test_a_refused_learning_rate_goes_with_its_document_on_file_new(qtbot, window):
    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    type_into(qtbot, panel.lr, "-1", enter=False)
    QTest.keyClick(panel.lr, Qt.Key_Return)
    qtbot.waitUntil(lambda: panel.refusals[panel.lr].isVisible() and framed_red(panel.lr))

    w.view.setFocus()
    press(w, Qt.Key_N, Qt.ControlModifier)  # File > New (the unsaved-changes question answers Discard)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    qtbot.waitUntil(lambda: not panel.refusals[panel.lr].isVisible())
    assert not framed_red(panel.lr)
    assert panel.lr.lineEdit().text() == panel.lr.textFromValue(panel.lr.value())
    assert "outside" not in panel.lr.toolTip()
    w.undo_stack.setClean()
