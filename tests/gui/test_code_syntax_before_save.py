"""File ▸ New graph from code… checks the snippet's syntax before it asks "Save the changes?": a snippet that can't
run replaces nothing, yet the question came first and the syntax error only after it. Now the error shows above
the snippet in the same box at once, and the question comes only for a snippet that will run."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialog, QDialogButtonBox

from tests.gui.real_input import click, click_menu_action, click_node, shown

BAD = ["import torch", "x = torch.ones(3,, 4)", "y = (x * 2).sum()"]


def _boxes(w):
    return [d for d in w.findChildren(QDialog, "codeInputDialog") if d.isVisible()]


def _type_lines(edit, lines) -> None:
    QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
    QTest.keyClick(edit, Qt.Key_Delete)
    for line in lines:
        QTest.keyClicks(edit, line)
        QTest.keyClick(edit, Qt.Key_Return)


def test_a_snippet_with_a_syntax_error_is_refused_in_its_box_before_any_save_question(qtbot, window, dialogs):
    w = shown(qtbot, window)
    click_node(qtbot, w, next(iter(w.graph.nodes)))
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit: closing this document would ask to save it
    qtbot.waitUntil(w.is_modified)
    before = w.graph
    dialogs.clear()
    click_menu_action(qtbot, w, "insert_code")
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    box = _boxes(w)[0]
    _type_lines(box.edit, BAD)
    typed = box.edit.toPlainText()
    importer = box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok)
    click(importer)
    qtbot.waitUntil(lambda: box.error_label.isVisible())
    assert box.error_label.text() == "snippet.py: line 2: SyntaxError: invalid syntax"
    assert dialogs == []  # no "Save the changes?" for code that replaces nothing
    assert _boxes(w) == [box] and box.edit.toPlainText() == typed and box.focusWidget() is box.edit
    assert box.edit.textCursor().blockNumber() == 1 and len(box.edit.extraSelections()) == 1  # on line 2
    assert w.graph is before and w.is_modified() and w.code.progress is None  # nothing ran, nothing replaced

    _type_lines(box.edit, ["import torch", "x = torch.ones(3, 4)", "y = (x * 2).sum()"])  # fixed
    click(importer)
    qtbot.waitUntil(lambda: bool(dialogs))  # now the question comes: the import would replace the document
    assert dialogs[0][0] == "question"  # the conftest answers Discard
    qtbot.waitUntil(lambda: w.graph is not before and not _boxes(w), timeout=60_000)
    types = sorted(n.type for n in w.graph.nodes.values())
    assert types == ["math.mul", "reduce.sum", "source.tensor", "source.tensor"]


def test_editing_the_snippet_after_a_syntax_error_marks_the_message_stale(qtbot, window):
    """The error's message stayed, red, above the corrected code until the next import; the first keystroke now
    greys it and says it was about the text before the edit."""
    w = shown(qtbot, window)
    click_menu_action(qtbot, w, "insert_code")
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    box = _boxes(w)[0]
    _type_lines(box.edit, BAD)
    click(box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))
    qtbot.waitUntil(lambda: box.error_label.isVisible())
    error = box.error_label.text()
    assert error == "snippet.py: line 2: SyntaxError: invalid syntax" and "gray" not in box.error_label.styleSheet()
    QTest.keyClicks(box.edit, "z = 1; ")  # typed at the start of line 2, which stays wrong
    assert box.error_label.text() == f"Before your edit: {error}" and "gray" in box.error_label.styleSheet()
    QTest.keyClicks(box.edit, "w = 2; ")  # said once, not once per keystroke
    assert box.error_label.text() == f"Before your edit: {error}"
    click(box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))  # still line 2's error: red and fresh again
    qtbot.waitUntil(lambda: box.error_label.text() == error)
    assert "gray" not in box.error_label.styleSheet()
    QTest.keyClick(box, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not _boxes(w))
