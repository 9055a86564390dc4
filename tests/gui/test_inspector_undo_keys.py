"""Ctrl+Z in the Inspector undoes the document: after a value typed into a field and applied with Return, the
field keeps the focus, yet Ctrl+Z takes the edit back (the document and the field show the old value) and
Ctrl+Shift+Z or Ctrl+Y bring it back. A typed but not yet applied text is still undone as text first.
"""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from tests.gui.conftest import make_window
from tests.gui.real_input import show_dock, shown
from tests.gui.scenarios.driver import click_node, press, type_into


def _line_edit_case(_graph):
    """The chapter's x, whose tensor is typed into a line edit."""
    return "n1", "tensor", [2.0, 3.0], "[4.0, 5.0]", [4.0, 5.0]


def _spin_box_case(graph):
    """A leaky_relu fed by a tensor; its negative_slope is typed into a spin box."""
    x = commands.AddNode({"type": "source.tensor", "params": {"tensor": [-1.0, 2.0]}, "position": [0.0, 0.0]})
    act = commands.AddNode({"type": "nn.leaky_relu", "params": {}, "position": [260.0, 0.0]})
    x.do(graph)
    act.do(graph)
    commands.Connect(x.node["id"], "out", act.node["id"], "x").do(graph)
    return act.node["id"], "negative_slope", 0.01, "0.2", 0.2


CASES = {"line edit": _line_edit_case, "spin box": _spin_box_case}


@pytest.fixture(params=list(CASES))
def edited(request, qtbot, node_types):
    """A window with a value typed into an Inspector field and applied with Return; the field has the focus."""
    from core.nodegraph.files.examples import default_graph

    graph = default_graph() if request.param == "line edit" else Graph()
    node_id, name, old, typed, new = CASES[request.param](graph)
    window = shown(qtbot, make_window(qtbot, graph))
    click_node(qtbot, window, node_id)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == node_id and name in window.inspector.editors)
    field = window.inspector.editors[name]
    shown_before = field.text()
    type_into(qtbot, field, typed)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params[name] == new)
    assert _has_focus(field)
    yield window, node_id, name, old, new, shown_before
    window.undo_stack.setClean()


def _has_focus(field) -> bool:
    return QApplication.focusWidget() in (field, getattr(field, "lineEdit", lambda: None)())


def _field_text(window, name):
    return window.inspector.editors[name].text()


def test_ctrl_z_in_the_applied_field_undoes_the_document_and_the_field_shows_the_old_value(edited, qtbot):
    window, node_id, name, old, new, shown_before = edited
    press(qtbot, window, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params[name] == old)
    qtbot.waitUntil(lambda: _field_text(window, name) == shown_before)
    assert _has_focus(window.inspector.editors[name])  # the field keeps its place and the focus
    press(qtbot, window, Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params[name] == new)
    assert _field_text(window, name) != shown_before


def test_ctrl_y_in_the_field_redoes_the_undone_edit(edited, qtbot):
    window, node_id, name, old, new, _shown = edited
    press(qtbot, window, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params[name] == old)
    press(qtbot, window, Qt.Key_Y, Qt.ControlModifier)
    qtbot.waitUntil(lambda: window.graph.nodes[node_id].params[name] == new)


def test_ctrl_z_first_takes_back_text_typed_but_not_applied(edited, qtbot):
    window, node_id, name, _old, new, _shown = edited
    field = window.inspector.editors[name]
    applied_text = field.text()
    type_into(qtbot, field, "7", enter=False)
    press(qtbot, window, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: field.text() == applied_text)
    assert window.graph.nodes[node_id].params[name] == new
    assert window.undo_stack.canUndo()
