"""A number field takes the whole number typed or refuses it whole (issue #21): ``1e999`` typed into a float
spin box and applied with Return leaves the document's value as it was and says why, instead of becoming 1999;
an exponent a float can hold (``1e-3``) is taken.
"""

import pytest

from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from tests.gui.conftest import make_window
from tests.gui.real_input import show_dock, shown
from tests.gui.scenarios.driver import click_node, type_into


@pytest.fixture
def slope_field(qtbot, node_types):
    """A window on a leaky_relu fed by a tensor, its Inspector showing the negative_slope spin box."""
    graph = Graph()
    x = commands.AddNode({"type": "source.tensor", "params": {"tensor": [-1.0, 2.0]}, "position": [0.0, 0.0]})
    act = commands.AddNode({"type": "nn.leaky_relu", "params": {}, "position": [260.0, 0.0]})
    x.do(graph)
    act.do(graph)
    commands.Connect(x.node["id"], "out", act.node["id"], "x").do(graph)
    window = shown(qtbot, make_window(qtbot, graph))
    nid = act.node["id"]
    click_node(qtbot, window, nid)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == nid and "negative_slope" in window.inspector.editors)
    yield window, window.graph.nodes[nid], window.inspector.editors["negative_slope"]
    window.undo_stack.setClean()


def _note(window, field):
    from PySide6.QtWidgets import QLabel

    return window.inspector.findChild(QLabel, f"{field.objectName()}Refusal")


def test_typing_1e999_into_a_float_parameter_leaves_its_value_and_says_why(slope_field, qtbot):
    window, node, field = slope_field
    type_into(qtbot, field, "1e999")
    note = _note(window, field)
    qtbot.waitUntil(lambda: note.isVisible() and "too large" in note.text())
    assert "negative_slope" in note.text() and field.lineEdit().text() == "1e999"  # kept where it was typed
    assert window.inspector.error_label.text() == ""  # said once, under the field
    assert node.params["negative_slope"] == 0.01
    assert field.value() == 0.01
    assert window.undo_stack.count() == 0


def test_a_float_parameter_takes_a_number_written_with_an_exponent(slope_field, qtbot):
    window, node, field = slope_field
    type_into(qtbot, field, "2e-1")
    qtbot.waitUntil(lambda: node.params["negative_slope"] == 0.2)
    assert window.inspector.error_label.text() == ""


def test_typing_1e999_as_the_learning_rate_keeps_it_and_says_why(window, qtbot):
    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    lr = w.training.panel.lr
    before = lr.value()
    type_into(qtbot, lr, "1e999")
    qtbot.waitUntil(lambda: w.training.panel.refusals[lr].text() == "1e999 is too large to read")
    assert lr.value() == before
    assert (w.graph.training.get("optimizer_params") or {}).get("lr", before) == before
