"""A file from a newer version: a node of an unknown type opens as a placeholder drawn with the ports its edges
name, so its edges show, come back with an undone delete, and are saved back. Driven by real keys and clicks
(the OS file dialog is the one thing answered by the test)."""

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from tests.gui.real_input import click_node, shown

NEW_EDGES = [{"from": ["n1", "out"], "to": ["n99", "x"]}, {"from": ["n5", "out"], "to": ["n99", "w"]},
             {"from": ["n99", "y"], "to": ["n98", "in"]}]


def newer_file(tmp_path):
    from core.nodegraph import files
    from core.nodegraph.files.examples import default_graph

    data = files.to_file_dict(default_graph())
    data["node_types"].update({"future.widget": 7, "future.gadget": 2})
    data["nodes"] += [{"id": "n99", "type": "future.widget", "params": {"mode": "x"}, "position": [900.0, 300.0]},
                      {"id": "n98", "type": "future.gadget", "params": {}, "position": [1200.0, 300.0]}]
    data["edges"] += NEW_EDGES
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(data))
    return path


def drawn_to_their_ports(window) -> bool:
    """Every edge of the document is drawn, from its output port's anchor to its input port's."""
    items = window.scene.edge_items
    if set(items) != set(window.graph.edges):
        return False
    for edge, item in items.items():
        src, dst = window.scene.node_items[edge.src], window.scene.node_items[edge.dst]
        if (item.src_port, item.dst_port) != (src.port(edge.src_port, True), dst.port(edge.dst_port, False)):
            return False
        if item.path().pointAtPercent(0) != src.port(edge.src_port, True).scene_anchor():
            return False
    return True


def test_a_placeholder_keeps_its_edges_drawn_through_undo_and_saved_back(qtbot, empty_window, monkeypatch,
                                                                         tmp_path):
    window = empty_window
    path = newer_file(tmp_path)
    shown(qtbot, window)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Nodegrad graphs (*.json)"))
    QTest.keyClick(window, Qt.Key_O, Qt.ControlModifier)  # File ▸ Open
    qtbot.waitUntil(lambda: "n99" in window.scene.node_items)
    placeholder = window.scene.node_items["n99"]
    assert sorted(placeholder.ports) == [("w", False), ("x", False), ("y", True)]
    assert len(window.scene.edge_items) == len(window.graph.edges) and drawn_to_their_ports(window)

    click_node(qtbot, window, "n99")
    QTest.keyClick(window.view.viewport(), Qt.Key_Delete)
    qtbot.waitUntil(lambda: "n99" not in window.scene.node_items)
    QTest.keyClick(window, Qt.Key_Z, Qt.ControlModifier)  # undo: the node, then its edges, come back
    qtbot.waitUntil(lambda: "n99" in window.scene.node_items and drawn_to_their_ports(window))
    assert sum(1 for e in window.scene.edge_items if "n99" in (e.src, e.dst)) == 3

    copy = tmp_path / "copy.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(copy), "Nodegrad graphs (*.json)"))
    QTest.keyClick(window, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)  # File ▸ Save as
    qtbot.waitUntil(copy.exists)
    saved = json.loads(copy.read_text())
    assert all(edge in saved["edges"] for edge in NEW_EDGES)
    assert saved["node_types"]["future.widget"] == 7
