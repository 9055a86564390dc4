"""A tensor of a dtype NumPy holds only through ml_dtypes (bfloat16), chosen in the Inspector's dtype box,
shows its values, its colour table and its gradient like a float32 one, with the numbers core computed."""

import numpy as np

import core
from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from gui import file_ops
from tests.gui.real_input import choose_in_combo, click_node, click_toolbar, show_dock, shown


def _matrix_sum_file(tmp_path) -> tuple[str, str]:
    graph = Graph()
    source = commands.AddNode({"type": "source.tensor", "position": [0.0, 0.0],
                               "params": {"tensor": [[1.5, -2.25], [3.0, 4.0]], "requires_grad": True}})
    source.do(graph)
    total = commands.AddNode({"type": "reduce.sum", "position": [260.0, 0.0], "params": {}})
    total.do(graph)
    commands.Connect(source.node["id"], "out", total.node["id"], "x").do(graph)
    graph.training["loss"] = total.node["id"]
    path = str(tmp_path / "bf16.json")
    assert file_ops.save_graph(graph, path) is None
    return path, source.node["id"]


def test_a_bfloat16_matrix_chosen_in_the_inspector_shows_its_colour_table_and_gradient(window, qtbot, tmp_path):
    path, nid = _matrix_sum_file(tmp_path)
    assert window.open_path(path)
    shown(qtbot, window)
    click_node(qtbot, window, nid)
    show_dock(qtbot, window, window.inspector_dock)
    qtbot.waitUntil(lambda: window.inspector.node_id == nid and "dtype" in window.inspector.editors
                    and window.inspector.editors["dtype"].isVisible())
    choose_in_combo(qtbot, window.inspector.editors["dtype"], "bfloat16")
    qtbot.waitUntil(lambda: window.graph.node(nid).params["dtype"] == "bfloat16")
    click_toolbar(window, "forward")
    click_toolbar(window, "backward")
    session = window.bridge.session
    qtbot.waitUntil(lambda: session.value(nid) is not None and session.value(nid).grad is not None)
    value = session.value(nid)
    assert value.dtype == core.bfloat16
    assert window.scene.node_items[nid].display.value == "(2, 2) bfloat16 cpu"
    lo, hi = -2.25, 4.0  # the node's small table scales the values between their extremes
    expected = ((np.array([[1.5, -2.25], [3.0, 4.0]]) - lo) / (hi - lo)).tolist()
    assert np.allclose(window.scene.node_items[nid].display.heat, expected)
    click_node(qtbot, window, nid)
    qtbot.waitUntil(lambda: window.inspector.heatmap is not None
                    and window.inspector.heatmap.isVisibleTo(window.inspector))
    assert np.array_equal(window.inspector.heatmap.data, value.grad.float().numpy())  # the gradient's table
