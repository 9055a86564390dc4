"""Insert expression, collapse/expand subgraphs, port tooltips and run-to-node from the window."""

from core.nodegraph.files.examples import default_graph


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
    window.named_actions["collapse"].trigger()
    blocks = [n for n in window.graph.nodes.values() if n.graph is not None]
    assert len(blocks) == 1 and "n4" not in window.scene.node_items
    window.scene.clearSelection()
    window.scene.node_items[blocks[0].id].setSelected(True)
    window.named_actions["expand"].trigger()
    assert not any(n.graph is not None for n in window.graph.nodes.values())
    window.undo_stack.undo()
    window.undo_stack.undo()
    assert window.graph.to_dict() == before


def test_port_tooltip_shows_shape_dtype_and_autograd_facts(window):
    port = window.scene.node_items["n4"].port("out", True)
    assert window.scene.port_tooltip(port).startswith("n4.out (output, tensor)")
    window.named_actions["forward"].trigger()
    tip = window.scene.port_tooltip(port)
    assert "shape (2,)" in tip and "dtype float32" in tip and "grad_fn=MulBackward0" in tip
    assert "is_leaf=False" in tip and "contiguous" in tip


def test_run_to_selected_node_stops_there(window, qtbot):
    window.scene.node_items["n4"].setSelected(True)
    window.named_actions["run_to_node"].trigger()
    qtbot.waitUntil(lambda: not window.stepper.active)  # a loaded machine gets its first slice past the click
    assert window.scene.node_items["n4"].display.value == "[ 3.0000, -1.5000]"
    assert window.scene.node_items["n6"].display.value == ""


def test_default_graph_collapsed_still_steps(window, qtbot):
    for nid in ("n4", "n5"):
        window.scene.node_items[nid].setSelected(True)
    window.named_actions["collapse"].trigger()
    window.named_actions["backward"].trigger()
    qtbot.waitUntil(lambda: not window.stepper.active)
    assert window.scene.node_items["n1"].display.grad == "[ 1.5000, -0.5000]"
    assert default_graph().nodes["n1"].params == window.graph.nodes["n1"].params


def test_dropping_an_edge_on_empty_canvas_offers_compatible_nodes_and_connects(window, qtbot):
    from PySide6.QtCore import QPointF, Qt

    scene = window.scene
    scene._start_drag(scene.node_items["n6"].port("out", True))
    scene._finish_drag(QPointF(1500, 900), None)
    palette = window.node_palette
    assert palette.isVisible()
    types = [palette.results.item(i).data(Qt.UserRole) for i in range(palette.results.count())]
    assert "source.tensor" not in types and "math.exp" in types
    qtbot.keyClicks(palette.search_edit, "math.exp")
    qtbot.keyClick(palette.search_edit, Qt.Key_Return)
    new = [n for n in window.graph.nodes.values() if n.type == "math.exp"][0]
    assert window.graph.edge_into(new.id, "x").src == "n6"
    assert window.undo_stack.undoText() == "Add node exp and connect"
    window.undo_stack.undo()
    assert new.id not in window.graph.nodes


def test_auto_layout_orders_by_depth_in_one_move(window):
    window.named_actions["auto_layout"].trigger()
    x = {nid: window.graph.node(nid).position[0] for nid in window.graph.nodes}
    assert x["n1"] < x["n4"] < x["n5"] < x["n6"]
    assert window.undo_stack.undoText().startswith("Move")


def test_backward_step_lights_the_edges_the_gradient_travels(window):
    window.named_actions["forward"].trigger()
    window.named_actions["backward_step"].trigger()
    window.named_actions["backward_step"].trigger()
    lit = [e for e, item in window.scene.edge_items.items() if item.active]
    assert lit and all(e.src == window.highlight for e in lit)


def test_the_gradient_dot_travels_back_along_a_lit_edge(window, qtbot):
    window.named_actions["forward"].trigger()
    window.named_actions["backward_step"].trigger()
    window.named_actions["backward_step"].trigger()
    (item,) = [i for i in window.scene.edge_items.values() if i.active][:1]
    values = []
    item._animation.valueChanged.connect(values.append)
    qtbot.waitUntil(lambda: item.travel is None, timeout=3000)
    assert item._animation.startValue() == 1.0 and item._animation.endValue() == 0.0
    assert all(0.0 <= v <= 1.0 for v in values)


def test_double_clicking_a_block_opens_its_inside_read_only(window, qtbot):
    from PySide6.QtCore import Qt

    for nid in ("n4", "n5"):
        window.scene.node_items[nid].setSelected(True)
    window.named_actions["collapse"].trigger()
    block = next(n for n in window.graph.nodes.values() if n.graph is not None)
    item = window.scene.node_items[block.id]
    window.show()
    window.view.centerOn(item)
    qtbot.waitExposed(window)
    point = window.view.mapFromScene(item.sceneBoundingRect().center())
    with qtbot.waitSignal(window.view.block_opened, timeout=2000) as opened:
        qtbot.mouseDClick(window.view.viewport(), Qt.LeftButton, pos=point)
    assert opened.args == [block.id]
    inside = window._subwindows[-1]
    assert set(inside.graph.nodes) == {"n4", "n5"} and not inside.view.isInteractive()
    assert not inside.named_actions["undo"].isEnabled() and not inside.named_actions["delete"].isEnabled()
    before = window.graph.to_dict()
    inside.close()
    assert window.graph.to_dict() == before
