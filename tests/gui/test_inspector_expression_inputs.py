"""An expression's inputs typed so that an input an edge feeds would disappear (found by fuzzing the parameter
fields: the edge used to dangle and the saved file then refused to open) is refused in the Inspector with the
reason under the field; the document, its edges and its file stay as they were."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from tests.gui.conftest import make_window
from tests.gui.real_input import show_dock, shown
from tests.gui.scenarios.driver import click_node, type_into

pytest.importorskip("pytestqt")


def test_inputs_that_drop_a_connected_input_are_refused_with_the_reason_and_the_document_kept(qtbot, node_types,
                                                                                              tmp_path):
    graph = Graph()
    for node in ({"id": "a", "type": "source.randn", "params": {"shape": [3]}, "position": [0.0, 0.0]},
                 {"id": "e", "type": "expr.expression", "params": {"formula": "(x * w).sum()", "inputs": "x, w"},
                  "position": [300.0, 0.0]}):
        commands.AddNode(node).do(graph)
    commands.Connect("a", "out", "e", "x").do(graph)
    commands.Connect("a", "out", "e", "w").do(graph)
    window = shown(qtbot, make_window(qtbot, graph))
    click_node(qtbot, window, "e")
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == "e" and "inputs" in window.inspector.editors)
    before = files.dumps(window.graph)
    type_into(qtbot, window.inspector.editors["inputs"], "x")
    note = window.inspector.refusal_notes["inputs"]
    qtbot.waitUntil(lambda: "would remove the input 'w', which an edge feeds; disconnect it first" in note.text())
    assert files.dumps(window.graph) == before
    files.save(window.graph, tmp_path / "g.json")
    assert files.load(tmp_path / "g.json") == window.graph
    window.undo_stack.setClean()
