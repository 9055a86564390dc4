"""Renaming a node in the Inspector to a name another node has is refused at the name field: framed red, the reason
under it (and the free name to use), the typed text kept, the document unchanged; Escape puts the name back. The
walk of session 26 renamed ``tensor_2`` to ``tensor_3`` beside another ``tensor_3``: two nodes read the same in
every message, lesson check and the Train tab's Loss node list."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click_node, framed_red, show_dock, shown, type_text


def _node(window, title: str) -> str:
    return next(nid for nid, n in window.graph.nodes.items() if n.title == title)


def test_a_name_another_node_has_is_refused_at_the_name_field_and_escape_puts_the_name_back(window, qtbot):
    w = shown(qtbot, window)
    wid = _node(w, "w")
    click_node(qtbot, w, wid)
    show_dock(qtbot, w, w.inspector_dock)
    field, note = w.inspector.name_edit, w.inspector.name_note
    qtbot.waitUntil(lambda: field.isVisible() and field.text() == "w")
    undo_before = w.undo_stack.count()

    type_text(qtbot, field, "x")

    qtbot.waitUntil(lambda: note.isVisible() and "Another node is named x already" in note.text())
    assert "try x_2" in note.text() and framed_red(field) and field.text() == "x"
    assert w.graph.nodes[wid].title == "w" and w.undo_stack.count() == undo_before
    assert "another node is named x already" in w.status_label.text().lower()
    QTest.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: field.text() == "w" and not note.isVisible())
    assert not framed_red(field)

    type_text(qtbot, field, "x_2")  # the free name it offered is taken
    qtbot.waitUntil(lambda: w.graph.nodes[wid].title == "x_2")
    assert not note.isVisible()
    w.undo_stack.setClean()
