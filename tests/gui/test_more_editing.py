"""Insert expression, collapse/expand subgraphs, port tooltips and run-to-node from the window."""

from core.nodegraph.examples import default_graph


def test_insert_expression_adds_connected_nodes_in_one_undo_step(empty_window):
    new = empty_window.insert_expression("(x * w).sum() + b")
    assert len(new) == 6 and len(empty_window.graph.edges) == 5
    assert len(empty_window.scene.node_items) == 6
    empty_window.undo_stack.undo()
    assert not empty_window.graph.nodes


def test_a_bad_expression_is_refused_with_the_parsers_message(empty_window):
    assert empty_window.insert_expression("x.__class__") == []
    assert empty_window.status_label.text() and not empty_window.graph.nodes


def test_collapse_and_expand_are_undoable(window):
    before = window.graph.to_dict()
    for nid in ("n4", "n5"):
        window.scene.node_items[nid].setSelected(True)
    window.actions["collapse"].trigger()
    blocks = [n for n in window.graph.nodes.values() if n.graph is not None]
    assert len(blocks) == 1 and "n4" not in window.scene.node_items
    window.scene.clearSelection()
    window.scene.node_items[blocks[0].id].setSelected(True)
    window.actions["expand"].trigger()
    assert not any(n.graph is not None for n in window.graph.nodes.values())
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.graph.to_dict() == before


def test_port_tooltip_shows_shape_dtype_and_autograd_facts(window, needs_session):
    port = window.scene.node_items["n4"].port("out", True)
    assert window.scene.port_tooltip(port).startswith("n4.out (output, tensor)")
    window.actions["forward"].trigger()
    tip = window.scene.port_tooltip(port)
    assert "shape (2,)" in tip and "dtype float32" in tip and "grad_fn=MulBackward0" in tip
    assert "is_leaf=False" in tip and "contiguous" in tip


def test_run_to_selected_node_stops_there(window, needs_session):
    window.scene.node_items["n4"].setSelected(True)
    window.actions["run_to_node"].trigger()
    assert window.scene.node_items["n4"].display.value == "[3, -1.5]"
    assert window.scene.node_items["n6"].display.value == ""


def test_default_graph_collapsed_still_steps(window, needs_session):
    for nid in ("n4", "n5"):
        window.scene.node_items[nid].setSelected(True)
    window.actions["collapse"].trigger()
    window.actions["backward"].trigger()
    assert window.scene.node_items["n1"].display.grad == "[1.5, -0.5]"
    assert default_graph().nodes["n1"].params == window.graph.nodes["n1"].params
