"""Scenario: a change typed in, saved through the Save dialog, undone and redone, the window closed, the file
reopened from File ▸ Open recent in a new window, and a broken file refused with a message.

Keys (Ctrl+S, Ctrl+Z, Ctrl+Shift+Z), the toolbar's Undo and Redo, menus clicked in the menu bar, the file
dialog's name typed and Enter pressed, the warning box answered with Enter.
"""

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QMessageBox

from tests.gui.real_input import show_dock
from tests.gui.scenarios import driver as d


def type_value(qtbot, window, title: str, text: str) -> str:
    node_id = next(nid for nid, n in window.graph.nodes.items() if n.title == title)
    d.click_node(qtbot, window, node_id)
    show_dock(qtbot, window, window.inspector_dock)
    d.type_into(qtbot, window.inspector.editors["tensor"], text)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params["tensor"] == json.loads(text))
    return node_id


def x_value(window):
    return next(n.params["tensor"] for n in window.graph.nodes.values() if n.title == "x")


def press_enter(dialog) -> None:
    QTest.keyClick(dialog, Qt.Key_Return)


def test_save_undo_redo_close_reopen_from_recent_and_refuse_a_broken_file(qtbot, app_window, tmp_path, screen):
    w = app_window
    saved = tmp_path / "chapter.json"
    type_value(qtbot, w, "x", "[4.0, 5.0]")
    assert w.windowTitle().startswith("untitled*")

    answered = d.answer_dialog(qtbot, QFileDialog, d.type_in_dialog(str(saved), "fileNameEdit"))
    d.press(qtbot, w, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: answered == ["QFileDialog"] and saved.is_file())
    qtbot.waitUntil(lambda: w.windowTitle().startswith("chapter.json —"))
    assert json.loads(saved.read_text())["nodes"][0]["params"]["tensor"] == [4.0, 5.0]

    d.click_canvas(qtbot, w)  # back on the canvas (in a text field Ctrl+Z undoes the typing)
    d.press(qtbot, w, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: x_value(w) == [2.0, 3.0])
    assert w.windowTitle().startswith("chapter.json*")
    d.press(qtbot, w, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: x_value(w) == [4.0, 5.0])
    d.click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: x_value(w) == [2.0, 3.0])
    d.click_toolbar(w, "redo")
    qtbot.waitUntil(lambda: x_value(w) == [4.0, 5.0] and w.windowTitle().startswith("chapter.json —"))

    d.click_menu(qtbot, w, "File", "Quit")  # saved: it closes without a question
    qtbot.waitUntil(lambda: not w.isVisible())

    again = d.start(qtbot, screen)  # the app started again
    try:
        assert x_value(again) == [2.0, 3.0]
        d.click_menu(qtbot, again, "File", "Open recent", "1 chapter.json")
        qtbot.waitUntil(lambda: again.windowTitle().startswith("chapter.json —"))
        assert x_value(again) == [4.0, 5.0]

        broken = tmp_path / "broken.json"
        broken.write_text('{"format": "nodegrad-graph", "version": 1, "nodes": [')
        opened = d.answer_dialog(qtbot, QFileDialog, d.type_in_dialog(str(broken), "fileNameEdit"))
        warned = []
        warning = d.answer_dialog(qtbot, QMessageBox, lambda box: (warned.append(box.text()), press_enter(box)))
        d.click_menu(qtbot, again, "File", "Open")
        qtbot.waitUntil(lambda: opened == ["QFileDialog"] and warning == ["QMessageBox"])
        assert "not valid JSON" in warned[0] and "line 1" in warned[0]  # the loader's message, where it broke
        assert again.windowTitle().startswith("chapter.json —") and x_value(again) == [4.0, 5.0]
    finally:
        again.undo_stack.setClean()
        again.close()
        again.deleteLater()
