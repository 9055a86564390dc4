"""File ▸ New graph from code… (Ctrl+Shift+I): a pasted snippet opens as a new document beside its code. It was
Edit ▸ Insert code…, beside Insert expression…, though unlike that entry it replaces the open graph (after the Save
question) instead of adding nodes to it; it now sits under File with Open code…, named for what it does."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QDialogButtonBox

from gui.about import about_text
from gui.code_import_dialog import CodeInputDialog
from gui.shortcuts_dialog import shortcut_rows
from tests.gui.real_input import click, shown


def _entries(menu):
    return [a.text().split("\t")[0].replace("&", "") for a in menu.actions() if not a.isSeparator()]


def test_new_graph_from_code_sits_under_file_after_open_code_and_opens_the_snippet_as_a_new_graph(qtbot, window):
    w = shown(qtbot, window)
    assert not any("code" in text.lower() for text in _entries(w.menus["Edit"]))  # Edit's entries edit the graph
    files = _entries(w.menus["File"])
    assert files[files.index("Open code…") + 1] == "New graph from code…"
    bar, menu = w.menuBar(), w.menus["File"]
    click(bar, bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    click(menu, menu.actionGeometry(w.named_actions["insert_code"]).center())
    qtbot.waitUntil(lambda: any(d.isVisible() for d in w.findChildren(CodeInputDialog)))
    box = next(d for d in w.findChildren(CodeInputDialog) if d.isVisible())
    assert box.windowTitle() == "New graph from code"
    before = w.graph
    click(box.findChild(QDialogButtonBox).button(QDialogButtonBox.Ok))  # the chapter's example, as offered
    qtbot.waitUntil(lambda: w.graph is not before and w.graph.code is not None, timeout=60_000)
    assert w.windowTitle().startswith("untitled (from snippet.py)")


def test_the_shortcut_list_and_about_name_it_with_its_key(qtbot, window):
    w = shown(qtbot, window)
    rows = shortcut_rows(w)
    assert ("File", "New graph from code…", "Ctrl+Shift+I") in rows
    assert not any("Insert code" in command for _menu, command, _key in rows)
    assert "File ▸ New graph from code (Ctrl+Shift+I)" in about_text(w.named_actions)
    QTest.keyClick(w, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: any(d.isVisible() for d in w.findChildren(CodeInputDialog)))
