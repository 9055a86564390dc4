"""A pasted snippet that failed comes back in its box; fixed and imported again, it does not ask "Save the changes?"
a second time: the user answered for this import (the box is modal, so the document is as they left it)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui.code_import_dialog import CodeInputDialog
from tests.gui.real_input import click_node, shown


def _boxes(window):
    return [d for d in window.findChildren(CodeInputDialog) if d.isVisible()]


def _click_menu(qtbot, window, name):
    """Open the menu that holds ``window.named_actions[name]`` from the menu bar and click the entry."""
    action = window.named_actions[name]
    menu = next(m for m in window.menus.values() if action in m.actions())
    bar = window.menuBar()
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, menu.actionGeometry(action).center())


def _type_snippet(box, lines):
    box.edit.selectAll()
    QTest.keyClick(box.edit, Qt.Key_Delete)
    for line in lines:
        QTest.keyClicks(box.edit, line)
        QTest.keyClick(box.edit, Qt.Key_Return)
    QTest.keyClick(box.edit, Qt.Key_Return, Qt.ControlModifier)  # Import


def test_a_failed_snippet_fixed_and_imported_again_asks_to_save_once(qtbot, window, dialogs):
    w = shown(qtbot, window)
    click_node(qtbot, w, next(iter(w.graph.nodes)))
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit: the graph is modified
    qtbot.waitUntil(w.is_modified)
    before = w.graph
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    first = _boxes(w)[0]
    _type_snippet(first, ["import torch", "x = torch.ones(2, requires_grad=True)", "y = (x * w).sum()"])
    qtbot.waitUntil(lambda: any(d is not first and d.error_label.isVisible() for d in _boxes(w)), timeout=60_000)
    assert [kind for kind, _ in dialogs] == ["question"]  # asked before the first run (answered Discard)
    again = next(d for d in _boxes(w) if d is not first)
    assert "NameError" in again.error_label.text() and w.graph is before
    _type_snippet(again, ["import torch", "x = torch.ones(2, requires_grad=True)", "w = torch.ones(2) * 3",
                          "y = (x * w).sum()"])
    qtbot.waitUntil(lambda: w.graph is not before and w.code.progress is None, timeout=60_000)
    assert [kind for kind, _ in dialogs] == ["question"]  # the retry was not asked about again
    assert w.status_label.text().startswith("Imported snippet.py: ")


def test_a_new_insert_after_a_failed_one_was_given_up_asks_again(qtbot, window, dialogs):
    """The question is skipped only for the box that came back: Cancel there, then a fresh Insert code asks."""
    w = shown(qtbot, window)
    click_node(qtbot, w, next(iter(w.graph.nodes)))
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)
    qtbot.waitUntil(w.is_modified)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    first = _boxes(w)[0]
    _type_snippet(first, ["import torch", "y = undefined_name + 1"])
    qtbot.waitUntil(lambda: any(d is not first and d.error_label.isVisible() for d in _boxes(w)), timeout=60_000)
    again = next(d for d in _boxes(w) if d is not first)
    QTest.keyClick(again.edit, Qt.Key_Escape)  # gives up: the box closes
    qtbot.waitUntil(lambda: not _boxes(w))
    _click_menu(qtbot, w, "insert_code")
    qtbot.waitUntil(lambda: len(_boxes(w)) == 1)
    QTest.keyClick(_boxes(w)[0].edit, Qt.Key_Return, Qt.ControlModifier)  # the example, imported
    qtbot.waitUntil(lambda: len(dialogs) == 2)
    assert [kind for kind, _ in dialogs] == ["question", "question"]
    qtbot.waitUntil(lambda: w.code.progress is None and not w.is_modified(), timeout=60_000)
