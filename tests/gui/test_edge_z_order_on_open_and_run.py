"""An edge through a node it does not join is drawn over that node's box also when the node grows after Forward (its
value preview appears under its ports; back under it after Reset) and when a file opens with such an edge: the
stacking followed only edits and moves, so a file's layout, or a preview grown onto a line, hid the connection."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.nodegraph.files import io as files
from core.nodegraph.model.document import Edge, Graph, Node
from tests.gui.real_input import click_toolbar, press, shown

pytest.importorskip("pytestqt")


def _graph(c_y: float) -> Graph:
    """a -> b along a straight line (both ports in their nodes' first row, at the same height), and c, a source
    joined to neither, between them with its top at ``c_y``."""
    g = Graph()
    g.add_node(Node("a", "source.tensor", {"tensor": [1.0, 2.0]}, (0.0, 0.0)))
    g.add_node(Node("b", "math.exp", {}, (700.0, 0.0)))
    g.add_node(Node("c", "source.tensor", {"tensor": [[1.0, 2.0], [3.0, 4.0]]}, (300.0, c_y)))
    g.connect(Edge("a", "out", "b", "x"))
    return g


def _open_by_ctrl_o(qtbot, w, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Nodegrad graphs (*.json)"))
    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.path == str(path))


def _line_and_c(w):
    """The line's height on the canvas, c's box, and the edge's item."""
    scene = w.scene
    line_y = scene.node_items["a"].port("out", True).scene_anchor().y()
    assert line_y == scene.node_items["b"].port("x", False).scene_anchor().y()  # a straight line
    c = scene.node_items["c"]
    return line_y, c.mapRectToScene(c.body_rect()), scene.edge_items[next(iter(w.graph.edges))]


def test_an_edge_a_node_grows_onto_after_forward_is_drawn_over_it(qtbot, empty_window, monkeypatch, tmp_path):
    w = shown(qtbot, empty_window)
    probe = tmp_path / "probe.json"
    files.save(_graph(-400.0), str(probe))  # c far above: its size and the line's height before a run
    _open_by_ctrl_o(qtbot, w, monkeypatch, probe)
    line_y, box, _edge = _line_and_c(w)
    path = tmp_path / "grows.json"
    files.save(_graph(line_y - box.height() - 4), str(path))  # c's bottom just above the line
    _open_by_ctrl_o(qtbot, w, monkeypatch, path)
    line_y, box, edge = _line_and_c(w)
    c = w.scene.node_items["c"]
    assert box.bottom() < line_y and edge.zValue() < c.zValue()  # the line passes under c, clear of its box
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: c.mapRectToScene(c.body_rect()).bottom() > line_y + 4)  # c's value preview grew onto it
    qtbot.waitUntil(lambda: edge.zValue() > c.zValue())
    assert all(edge.zValue() < p.zValue() for p in c.ports.values())  # c's ports stay on top
    click_toolbar(w, "reset")  # the preview goes, c's box is clear of the line again: the edge back under the nodes
    qtbot.waitUntil(lambda: c.mapRectToScene(c.body_rect()).bottom() < line_y)
    qtbot.waitUntil(lambda: edge.zValue() < c.zValue())


def test_an_edge_through_a_node_in_an_opened_file_is_drawn_over_it(qtbot, empty_window, monkeypatch, tmp_path):
    w = shown(qtbot, empty_window)
    probe = tmp_path / "probe.json"
    files.save(_graph(-400.0), str(probe))
    _open_by_ctrl_o(qtbot, w, monkeypatch, probe)
    line_y, box, edge = _line_and_c(w)
    assert edge.zValue() < w.scene.node_items["a"].zValue()  # nothing in its way: under the nodes
    path = tmp_path / "through.json"
    files.save(_graph(line_y - box.height() / 2), str(path))  # the line through c's middle
    _open_by_ctrl_o(qtbot, w, monkeypatch, path)
    line_y, box, edge = _line_and_c(w)
    assert box.top() < line_y < box.bottom()
    assert edge.zValue() > w.scene.node_items["c"].zValue()


def test_a_port_under_an_edge_drawn_over_its_node_still_starts_a_wire(qtbot, empty_window, monkeypatch, tmp_path):
    """A press on a port that an over-drawn edge covers (the edge passes through the port's node, so it is stacked
    over it) starts a wire from that port: the press went to the edge and the wire never started."""
    from tests.gui.scenarios import driver as d

    w = shown(qtbot, empty_window, (1920, 1080))
    g = _graph(0.0)  # c's output port in its first row, at the line's height: the line a -> b runs over it
    g.add_node(Node("d", "math.neg", {}, (700.0, 300.0)))
    path = tmp_path / "covered.json"
    files.save(g, str(path))
    _open_by_ctrl_o(qtbot, w, monkeypatch, path)
    click_toolbar(w, "fit_all")
    c, target = w.scene.node_items["c"], w.scene.node_items["d"]
    a = d.canvas_point(w, c, c.port("out", True).pos())
    edge = w.scene.edge_items[next(iter(w.graph.edges))]
    qtbot.waitUntil(lambda: edge.zValue() > c.zValue())  # drawn over c ...
    assert edge in w.view.items(a)  # ... and over its output port's dot
    d.drag(w.view.viewport(), a, d.canvas_point(w, target, target.port("x", False).pos()))
    qtbot.waitUntil(lambda: Edge("c", "out", "d", "x") in w.graph.edges)
