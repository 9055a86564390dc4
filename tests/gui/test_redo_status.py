"""The status bar names a redone edit as "Redone: <edit>", as it names an undone one "Undone: <edit>" (after a redo it
showed the plain edit name, which reads as a new edit); a new edit made after an undo still shows its plain name."""

from tests.gui.real_input import click_toolbar, double_click_library, shown


def test_redo_says_redone_and_the_edit_an_undo_makes_room_for_says_its_plain_name(window, qtbot):
    w = shown(qtbot, window)
    nid = double_click_library(qtbot, w, "source.randn")
    said = w.undo_stack.undoText()  # Edit ▸ History's line for the edit
    qtbot.waitUntil(lambda: w.status_label.text() == said)
    click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Undone: {said}" and nid not in w.graph.nodes)
    click_toolbar(w, "redo")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Redone: {said}" and nid in w.graph.nodes)
    click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: nid not in w.graph.nodes)
    again = double_click_library(qtbot, w, "source.randn")  # a new edit in place of the undone one
    assert again in w.graph.nodes and not w.undo_stack.canRedo()
    qtbot.waitUntil(lambda: w.status_label.text() == w.undo_stack.undoText())
    assert not w.status_label.text().startswith("Redone")


def test_redo_from_the_edit_menu_says_redone(window, qtbot):
    from PySide6.QtCore import Qt
    from PySide6.QtTest import QTest

    w = shown(qtbot, window)
    double_click_library(qtbot, w, "source.randn")
    said = w.undo_stack.undoText()
    click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Undone: {said}")
    bar, menu = w.menuBar(), w.menus["Edit"]
    QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.actionGeometry(menu.menuAction()).center())
    qtbot.waitUntil(menu.isVisible)
    QTest.mouseClick(menu, Qt.LeftButton, Qt.NoModifier, menu.actionGeometry(w.named_actions["redo"]).center())
    qtbot.waitUntil(lambda: w.status_label.text() == f"Redone: {said}")
