"""Help ▸ Keyboard shortcuts (F1): every key the menus have, in one table read from the menus themselves (so the
keys other parts of the window add, presentation mode and the focus keys, are there), plus the canvas's own."""

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest

from gui.shortcuts_dialog import CANVAS_KEYS, ShortcutsDialog
from tests.gui.real_input import shown
from tests.gui.test_window_fits import choose_menu


def _open_dialog(qtbot, w) -> ShortcutsDialog:
    qtbot.waitUntil(lambda: any(d.isVisible() for d in w.findChildren(ShortcutsDialog)))
    return next(d for d in w.findChildren(ShortcutsDialog) if d.isVisible())


def _entries(menu):
    """A menu's entries, those of its submenus included."""
    for action in menu.actions():
        if action.menu() is not None:
            yield from _entries(action.menu())
        else:
            yield action


def _rows(dialog) -> list[tuple[str, str, str]]:
    table = dialog.table
    return [tuple(table.item(r, c).text() for c in range(3)) for r in range(table.rowCount())]


def test_f1_lists_every_menu_key_and_the_canvas_keys_and_esc_closes_it(qtbot, window):
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_F1)
    dialog = _open_dialog(qtbot, w)
    rows = _rows(dialog)
    keys = {(command, key) for _menu, command, listed in rows for key in listed.split(", ")}
    for top in w.menuBar().actions():
        for action in _entries(top.menu()):
            for shortcut in action.shortcuts():
                key = shortcut.toString(QKeySequence.SequenceFormat.NativeText)
                assert not key or (action.text().split("\t")[0].replace("&", ""), key) in keys
    assert ("Run", "Forward step", "F10") in rows
    assert ("View", "Presentation mode", "Ctrl+Shift+P") in rows  # added by the lesson controller
    assert ("Edit", "Add node…", "Tab") in rows  # a key the canvas answers, shown in its menu
    assert [r for r in rows if r[0] == "Canvas"] == [("Canvas", what, key) for what, key in CANVAS_KEYS]
    table = dialog.table
    assert all(table.columnWidth(c) >= table.fontMetrics().horizontalAdvance(table.item(r, c).text())
               for r in range(table.rowCount()) for c in (0, 2))  # menu and key read whole
    QTest.keyClick(dialog, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())


def test_f1_lists_every_key_of_an_action_not_only_its_first(qtbot, window):
    """Redo answers Ctrl+Shift+Z and Ctrl+Y, Zoom in Ctrl++ and Ctrl+=: the list names both keys of each."""
    w = shown(qtbot, window)
    QTest.keyClick(w, Qt.Key_F1)
    rows = {command: key for _menu, command, key in _rows(_open_dialog(qtbot, w))}
    native = QKeySequence.SequenceFormat.NativeText
    redo = [k.toString(native) for k in w.named_actions["redo"].shortcuts()]
    assert rows["Redo"] == ", ".join([*redo, "Ctrl+Y"]) and "Ctrl+Shift+Z" in redo
    zoom = [k.toString(native) for k in w.named_actions["zoom_in"].shortcuts()]
    assert rows["Zoom in"] == ", ".join(zoom) and zoom[-1] == "Ctrl+=" and len(zoom) == 2


def test_the_help_menu_opens_the_list_too(qtbot, window):
    w = shown(qtbot, window)
    choose_menu(qtbot, w, ["Help", "Keyboard shortcuts"])
    dialog = _open_dialog(qtbot, w)
    assert dialog.table.rowCount() > 40
    QTest.keyClick(dialog, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
