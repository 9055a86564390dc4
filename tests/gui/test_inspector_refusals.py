"""The Inspector's number fields keep text they refuse, as the Train dock's do: framed in red, the parameter's reason
on a red line right under the field, until a number fixes it or Escape puts the value back; the document is never
changed by refused text (they used to put the old value back silently, the reason far below the form)."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QLabel

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from tests.gui.conftest import make_window
from tests.gui.real_input import click, framed_red, show_dock, shown
from tests.gui.scenarios.driver import click_node, type_into

pytest.importorskip("pytestqt")


@pytest.fixture
def eye_fields(qtbot, node_types):
    """A window on an eye source selected, its Inspector showing the n and m whole-number fields."""
    graph = Graph()
    add = commands.AddNode({"type": "source.eye", "params": {"n": 3}, "position": [0.0, 0.0]})
    add.do(graph)
    window = shown(qtbot, make_window(qtbot, graph))
    nid = add.node["id"]
    click_node(qtbot, window, nid)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == nid and "n" in window.inspector.editors)
    yield window, window.graph.nodes[nid], window.inspector.editors["n"]
    window.undo_stack.setClean()


def _note(window, field) -> QLabel:
    return window.inspector.findChild(QLabel, f"{field.objectName()}Refusal")


def _says_under(window, field, words: str) -> bool:
    """The field is framed red with ``words`` as its tooltip, and the red line right under it says them."""
    note, inspector = _note(window, field), window.inspector
    below = note.mapTo(inspector, note.rect().topLeft()).y() - field.mapTo(inspector, field.rect().bottomLeft()).y()
    return (note.isVisible() and words in note.text() and words in field.toolTip() and framed_red(field)
            and 0 <= below < 2 * field.height())


@pytest.mark.parametrize("typed, words", [("abc", "can't read 'abc' (type a whole number)"),
                                          ("-2", "must be >= 0, got -2"), ("", "can't read ''")])
def test_a_refused_number_stays_in_the_field_with_its_reason_under_it(eye_fields, qtbot, typed, words):
    window, node, field = eye_fields
    type_into(qtbot, field, typed, enter=False)
    if not typed:
        QTest.keyClick(field, Qt.Key_Delete)  # what was selected goes: the field is empty
    QTest.keyClick(field, Qt.Key_Return)
    qtbot.waitUntil(lambda: _says_under(window, field, words))
    assert field.lineEdit().text() == typed
    assert node.params["n"] == 3 and window.undo_stack.count() == 0
    assert window.inspector.error_label.text() == ""


def test_escape_puts_the_value_back_and_the_marks_go(eye_fields, qtbot):
    window, node, field = eye_fields
    type_into(qtbot, field, "abc")
    qtbot.waitUntil(lambda: _says_under(window, field, "can't read"))
    QTest.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not _note(window, field).isVisible())
    assert field.lineEdit().text() == "3" and not framed_red(field)
    assert node.params["n"] == 3


def test_a_number_typed_over_the_refused_text_is_taken_and_the_marks_go(eye_fields, qtbot):
    window, node, field = eye_fields
    type_into(qtbot, field, "abc")
    qtbot.waitUntil(lambda: _says_under(window, field, "can't read"))
    type_into(qtbot, field, "4")
    qtbot.waitUntil(lambda: node.params["n"] == 4)
    qtbot.waitUntil(lambda: not _note(window, field).isVisible() and not framed_red(field))


def test_refused_text_left_by_clicking_elsewhere_stays_marked_until_undo_shows_the_value(eye_fields, qtbot):
    """Leaving the field refuses too (the text stays, marked); an edit undone elsewhere shows the document's values
    again, and the marks go with the refused text."""
    window, node, field = eye_fields
    m = window.inspector.editors["m"]
    type_into(qtbot, m, "2")
    qtbot.waitUntil(lambda: node.params["m"] == 2)
    type_into(qtbot, field, "x1", enter=False)
    click(m)  # focus leaves the n field
    qtbot.waitUntil(lambda: _says_under(window, field, "can't read"))
    assert field.lineEdit().text() == "x1"
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)  # m's edit undone: both fields show the document
    qtbot.waitUntil(lambda: node.params["m"] == -1)
    qtbot.waitUntil(lambda: not _note(window, field).isVisible() and field.lineEdit().text() == "3")


def test_a_ragged_literal_typed_into_a_tensor_field_is_refused_as_torch_says_it(qtbot, window):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")  # x
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: w.inspector.node_id == "n1" and "tensor" in w.inspector.editors)
    type_into(qtbot, w.inspector.editors["tensor"], "[[1, 2], [3]]")
    note = w.inspector.refusal_notes["tensor"]  # under the field
    qtbot.waitUntil(lambda: "expected sequence of length 2 at dim 1 (got 1)" in note.text())
    assert "inhomogeneous" not in note.text()
    assert w.graph.nodes["n1"].params["tensor"] == [2.0, 3.0]


@pytest.fixture
def randn_fields(qtbot, node_types):
    """A window on a randn source selected, its Inspector showing the shape and seed text fields."""
    graph = Graph()
    add = commands.AddNode({"type": "source.randn", "params": {"shape": [2, 3]}, "position": [0.0, 0.0]})
    add.do(graph)
    window = shown(qtbot, make_window(qtbot, graph))
    nid = add.node["id"]
    click_node(qtbot, window, nid)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == nid and "seed" in window.inspector.editors)
    yield window, window.graph.nodes[nid]
    window.undo_stack.setClean()


@pytest.mark.parametrize("name, typed, shown_again", [("seed", "abc", ""), ("shape", "2,,3", "[2, 3]")])
def test_escape_in_a_refusing_text_field_puts_the_value_back_and_the_marks_go(randn_fields, qtbot, name, typed,
                                                                              shown_again):
    """A newcomer typed text into a seed (or a broken shape), read the red reason and pressed Escape, as in a number
    field: the text and the reason stayed until they typed a valid value."""
    window, node = randn_fields
    field = window.inspector.editors[name]
    type_into(qtbot, field, typed)
    qtbot.waitUntil(lambda: _says_under(window, field, "can't read"))
    QTest.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not _note(window, field).isVisible())
    assert field.text() == shown_again and not framed_red(field)
    assert node.params["shape"] == (2, 3) and node.params.get("seed") is None and window.undo_stack.count() == 0


def test_escape_in_a_text_field_with_an_unapplied_edit_puts_the_value_back(randn_fields, qtbot):
    window, node = randn_fields
    field = window.inspector.editors["shape"]
    type_into(qtbot, field, "4, 5", enter=False)
    QTest.keyClick(field, Qt.Key_Escape)
    qtbot.waitUntil(lambda: field.text() == "[2, 3]")
    assert node.params["shape"] == (2, 3) and window.undo_stack.count() == 0


def test_ctrl_z_taking_the_typing_back_takes_the_refusal_away(randn_fields, qtbot):
    """Ctrl+Z in the field first takes back what was typed: the field shows the value again, and no reason for
    text that is gone stays under it."""
    window, node = randn_fields
    field = window.inspector.editors["seed"]
    type_into(qtbot, field, "abc")
    qtbot.waitUntil(lambda: _says_under(window, field, "can't read"))
    QTest.keyClick(field, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: field.text() == "")
    qtbot.waitUntil(lambda: not _note(window, field).isVisible() and not framed_red(field))
