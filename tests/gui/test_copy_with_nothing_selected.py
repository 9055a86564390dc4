"""Ctrl+C and Ctrl+X with no node selected said nothing, as if they had worked (a learner then pasted the old
clipboard); now the status bar says nothing was copied and how to select, and a copy says how many nodes it took."""

from PySide6.QtCore import Qt

from tests.gui.real_input import click_node, press, shown


def test_ctrl_c_and_ctrl_x_with_nothing_selected_say_how_to_select(window, qtbot):
    w = shown(qtbot, window)
    press(w, Qt.Key_1, Qt.ControlModifier)  # the canvas
    qtbot.waitUntil(w.view.hasFocus)
    assert w.scene.selected_node_ids() == []
    before = w.graph.to_dict()
    press(w, Qt.Key_C, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Nothing copied: select nodes first"))
    press(w, Qt.Key_X, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Nothing cut: select nodes first"))
    assert w.graph.to_dict() == before and w.undo_stack.count() == 0


def test_ctrl_c_on_a_selected_node_says_it_was_copied(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")
    press(w, Qt.Key_C, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Copied 1 node: Ctrl+V pastes them")
    press(w, Qt.Key_V, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 7)
    w.undo_stack.setClean()
