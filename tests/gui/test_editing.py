"""Editing on the canvas: build the chapter's graph through the palette and the scene's port API,
with every edit undoable and redoable exactly; refusals leave the document untouched."""

import copy

from PySide6.QtCore import QPointF, Qt

from core.nodegraph.files.examples import default_graph


def add_through_palette(window, qtbot, query, pos):
    palette = window.show_palette(QPointF(*pos))
    qtbot.keyClicks(palette.search_edit, query)
    before = set(window.graph.nodes)
    qtbot.keyClick(palette.search_edit, Qt.Key_Return)
    (new,) = set(window.graph.nodes) - before
    return new


def set_param_text(window, qtbot, nid, name, text):
    window.inspector.show_node(nid)
    edit = window.inspector.editors[name]
    edit.clear()
    qtbot.keyClicks(edit, text)
    qtbot.keyClick(edit, Qt.Key_Return)


def build_chapter_graph(window, qtbot):
    """z = (x * w).sum() + b, typed into the palette and wired port to port; returns the snapshots."""
    snaps = [window.graph.to_dict()]
    ids = {}
    for name, query, pos in [("x", "tensor", (0, 0)), ("w", "tensor", (0, 160)), ("b", "tensor", (260, 320)),
                             ("mul", "mul", (260, 60)), ("sum", "sum", (500, 60)), ("z", "add", (740, 180))]:
        ids[name] = add_through_palette(window, qtbot, query, pos)
        snaps.append(window.graph.to_dict())
    for name, text in [("x", "[2.0, 3.0]"), ("w", "[1.5, -0.5]"), ("b", "0.1")]:
        set_param_text(window, qtbot, ids[name], "tensor", text)
        snaps.append(window.graph.to_dict())
        window.inspector.show_node(ids[name])
        window.inspector.editors["requires_grad"].setChecked(True)
        snaps.append(window.graph.to_dict())
    for src, dst, port in [("x", "mul", "a"), ("w", "mul", "b"), ("mul", "sum", "x"), ("sum", "z", "a"),
                           ("b", "z", "b")]:
        assert window.scene.connect_ports(ids[src], "out", ids[dst], port) is None
        snaps.append(window.graph.to_dict())
    return ids, snaps


def strip(d):
    d = copy.deepcopy(d)
    for n in d["nodes"]:
        n.pop("position"), n.pop("title")
    d.pop("training"), d.pop("view")
    return d


def test_palette_filters_by_fuzzy_title_and_id(empty_window, qtbot):
    palette = empty_window.show_palette(QPointF(0, 0))
    qtbot.keyClicks(palette.search_edit, "math.mul")
    assert palette.current_type() == "math.mul"
    palette.search_edit.clear()
    qtbot.keyClicks(palette.search_edit, "rdsum")
    assert palette.current_type() == "reduce.sum"


def test_palette_is_usable_from_the_keyboard_alone(empty_window, qtbot):
    palette = empty_window.show_palette(QPointF(0, 0))
    qtbot.keyClicks(palette.search_edit, "tensor")
    first = palette.current_type()
    qtbot.keyClick(palette.search_edit, Qt.Key_Down)
    assert palette.current_type() != first
    qtbot.keyClick(palette.search_edit, Qt.Key_Return)
    assert [n.type for n in empty_window.graph.nodes.values()] == [palette.results.item(1).data(Qt.UserRole)]


def test_building_the_chapter_graph_through_the_palette_gives_the_default_graph(empty_window, qtbot):
    build_chapter_graph(empty_window, qtbot)
    assert strip(empty_window.graph.to_dict()) == strip(default_graph().to_dict())
    assert len(empty_window.scene.edge_items) == 5


def test_undo_and_redo_of_every_edit_restore_the_document_exactly(empty_window, qtbot):
    _, snaps = build_chapter_graph(empty_window, qtbot)
    stack = empty_window.undo_stack
    assert stack.count() == len(snaps) - 1
    for snap in reversed(snaps[:-1]):
        stack.undo()
        assert empty_window.graph.to_dict() == snap
    assert not empty_window.scene.node_items
    for snap in snaps[1:]:
        stack.redo()
        assert empty_window.graph.to_dict() == snap
    assert len(empty_window.scene.node_items) == 6 and len(empty_window.scene.edge_items) == 5


def test_a_cycle_is_refused_with_a_message_and_nothing_on_the_stack(window):
    count, before = window.undo_stack.count(), window.graph.to_dict()
    why = window.scene.connect_ports("n6", "out", "n4", "a")
    assert "cycle" in why and window.status_label.text() == why
    assert window.undo_stack.count() == count and window.graph.to_dict() == before


def test_replacing_an_input_edge_is_one_undo_step(window):
    before = window.graph.to_dict()
    assert window.scene.connect_ports("n3", "out", "n4", "a") is None
    assert window.graph.edge_into("n4", "a").src == "n3"
    window.undo_stack.undo()
    assert window.graph.to_dict() == before


def test_dragging_ports_highlights_compatible_targets(window):
    scene = window.scene
    src = scene.node_items["n6"].port("out", True)
    scene._start_drag(src)
    target = scene.node_items["n4"].port("a", False)
    assert target.opacity() < 1.0  # n4 feeds n6: a cycle, so refused
    assert scene.node_items["n3"].port("out", True).opacity() < 1.0  # output to output
    scene._finish_drag(QPointF(-9999, -9999), None)
    assert target.opacity() == 1.0


def test_moving_a_selection_is_one_move_command(window):
    for nid in ("n1", "n2"):
        window.scene.node_items[nid].moveBy(40, 10)
    window.scene.commit_moves()
    assert window.graph.node("n1").position == (40.0, 10.0)
    assert window.undo_stack.undoText() == "Move 2 nodes"
    window.undo_stack.undo()
    assert window.graph.node("n1").position == (0.0, 0.0)
    assert window.scene.node_items["n1"].pos() == QPointF(0, 0)


def test_delete_and_duplicate_selected_nodes(window):
    before = window.graph.to_dict()
    window.scene.node_items["n4"].setSelected(True)
    window.named_actions["delete"].trigger()
    assert "n4" not in window.graph.nodes and len(window.scene.edge_items) == 2
    window.undo_stack.undo()
    assert window.graph.to_dict() == before
    window.scene.node_items["n1"].setSelected(True)
    window.scene.node_items["n2"].setSelected(True)
    window.scene.node_items["n4"].setSelected(True)
    new = window.scene.duplicate_selected()
    assert len(new) == 3 and len(window.graph.edges) == 7


def test_copy_paste_between_two_windows_goes_through_the_clipboard(window, qtbot):
    from tests.gui.conftest import make_window

    other = make_window(qtbot)
    for nid in ("n1", "n2", "n4"):
        window.scene.node_items[nid].setSelected(True)
    window.named_actions["copy"].trigger()
    other.named_actions["paste"].trigger()
    assert sorted(n.type for n in other.graph.nodes.values()) == ["math.mul", "source.tensor", "source.tensor"]
    assert len(other.graph.edges) == 2
    assert other.graph.nodes["n1"].params["tensor"] == [2.0, 3.0]
    other.undo_stack.setClean()
