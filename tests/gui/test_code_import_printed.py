"""What a snippet prints shows under its code after File ▸ New graph from code…: the box says it runs the snippet
"like a terminal", and the chapter's snippet ends with ``print(x.grad, w.grad, b.grad)``, but its output was dropped
(session 26's walk: the newcomer saw nothing printed anywhere). A document opened after it clears it."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from gui.code_import_dialog import CodeInputDialog
from tests.gui.real_input import click, shown

CHAPTER = ["import torch",
           "x = torch.tensor([2.0, 3.0], requires_grad=True)",
           "w = torch.tensor([1.5, -0.5], requires_grad=True)",
           "b = torch.tensor(0.1, requires_grad=True)",
           "z = (x * w).sum() + b",
           "z.backward()",
           "print(x.grad, w.grad, b.grad)"]


def _box(window):
    return next((d for d in window.findChildren(CodeInputDialog) if d.isVisible()), None)


def test_the_chapters_snippet_shows_what_it_printed_under_its_code(qtbot, window):
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ New graph from code…
    qtbot.waitUntil(lambda: _box(w) is not None)
    box = _box(w)
    box.edit.selectAll()
    QTest.keyClick(box.edit, Qt.Key_Delete)
    for line in CHAPTER:
        QTest.keyClicks(box.edit, line)
        QTest.keyClick(box.edit, Qt.Key_Return)
    click(box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))  # Import

    printed = w.code.pane.printed
    qtbot.waitUntil(lambda: printed.isVisible(), timeout=60_000)
    assert printed.text() == "Printed:\ntensor([ 1.5000, -0.5000]) tensor([2., 3.]) tensor(1.)"
    assert "what it printed is under the code" in w.status_label.text()

    QTest.keyClick(w, Qt.Key_N, Qt.ControlModifier)  # File ▸ New: that output belonged to the snippet's run
    qtbot.waitUntil(lambda: not w.graph.nodes)
    assert printed.text() == "" and not printed.isVisible()
