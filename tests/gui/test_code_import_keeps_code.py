"""Nothing typed or opened is lost on the way into File ▸ New graph from code…: Cancel in "Save the changes?" after
Import leaves the snippet box open with the snippet as typed (the box had closed before the question, and the snippet
was gone), and code from File ▸ Open code… that fails can be fixed in that box and imported from there."""

import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog, QMessageBox

from gui.code_import_dialog import CodeInputDialog
from tests.gui.real_input import click, click_node, shown
from tests.gui.test_code_pane import open_code

REAL_QUESTION = QMessageBox.question  # the conftest answers questions at once; this test clicks the real one
TYPED = ["import torch", "x = torch.ones(3, requires_grad=True)", "y = (x * 4).sum()"]


def _boxes(window):
    return [d for d in window.findChildren(CodeInputDialog) if d.isVisible()]


def _answer_when_asked(answered: list, button) -> None:
    """Click ``button`` in the question box once it is up (the question runs its own event loop, so this polls)."""
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox) or not box.isVisible():
        QTimer.singleShot(10, lambda: _answer_when_asked(answered, button))
        return
    answered.append(box.text())
    click(box.button(button))


def test_cancel_in_the_save_question_after_import_keeps_the_box_with_the_snippet_as_typed(qtbot, window,
                                                                                         monkeypatch):
    w = shown(qtbot, window)
    click_node(qtbot, w, next(iter(w.graph.nodes)))
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit: the graph is modified
    qtbot.waitUntil(w.is_modified)
    before = w.graph
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    box = _boxes(w)[0]
    box.edit.selectAll()
    QTest.keyClick(box.edit, Qt.Key_Delete)
    for line in TYPED:
        QTest.keyClicks(box.edit, line)
        QTest.keyClick(box.edit, Qt.Key_Return)
    typed = box.edit.toPlainText()
    answered: list[str] = []
    QTimer.singleShot(0, lambda: _answer_when_asked(answered, QMessageBox.Cancel))
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    click(box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))  # Import (returns once the question is answered)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)  # as the conftest answers
    qtbot.waitUntil(lambda: bool(answered))
    assert answered == ["Save the changes to this graph first?"]
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is box)
    assert _boxes(w) == [box] and box.edit.toPlainText() == typed  # the box is back, the snippet as typed
    assert w.graph is before and w.is_modified() and w.code.progress is None  # nothing ran
    QTest.keyClick(box.edit, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not _boxes(w))


def test_open_code_that_fails_offers_the_snippet_box_to_fix_it_and_import_from_there(qtbot, window, monkeypatch,
                                                                                     tmp_path, dialogs):
    path = tmp_path / "bad.py"
    code = "import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * q).sum()\n"
    path.write_text(code)
    w = shown(qtbot, window)
    before = w.graph
    open_code(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), timeout=60_000)
    failed = QApplication.activeModalWidget()
    failed_text = failed.text()
    assert failed_text == "bad.py: line 3: NameError: name 'q' is not defined"
    assert w.graph is before
    fix = next(b for b in failed.buttons() if "snippet box" in b.text())
    click(fix)
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    box = _boxes(w)[0]
    assert box.edit.toPlainText() == code
    assert box.error_label.isVisible() and box.error_label.text() == failed_text
    assert box.edit.textCursor().blockNumber() == 2  # at the start of the line the message names
    QTest.keyClicks(box.edit, "q = torch.ones(2) * 5")  # the fix, typed on a line of its own before it
    QTest.keyClick(box.edit, Qt.Key_Return)
    QTest.keyClick(box.edit, Qt.Key_Return, Qt.ControlModifier)  # Import
    qtbot.waitUntil(lambda: w.graph is not before and w.code.progress is None, timeout=60_000)
    # a new untitled graph from a snippet, not bad.py's graph: Save must not suggest bad.py's name for code the
    # file does not hold (it was titled "untitled (from bad.py)" and Save As suggested bad.json)
    assert w.status_label.text().startswith("Imported snippet.py (bad.py's code as edited; bad.py is unchanged): ")
    assert w.windowTitle().startswith("untitled (from snippet.py)")
    assert dialogs == []  # no question, no warning: the file's code came in through the box
    assert path.read_text() == code  # the file is left as it was
    offered = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: offered.append(a[2]) or ("", ""))
    QTest.keyClick(w, Qt.Key_S, Qt.ControlModifier)  # Save of an untitled graph asks where
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert os.path.basename(offered[0]) == "snippet.json"
