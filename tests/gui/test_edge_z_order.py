"""A connection is never hidden: edges are drawn under the nodes, except one whose curve runs through a node it does
not join (a node added from the Node library and wired across the graph), which is drawn over the nodes' boxes until
a move takes the node off it."""

import pytest
from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from core.nodegraph.model import edge_routes
from tests.gui.real_input import double_click_library, shown

pytest.importorskip("pytestqt")


def _drag(view, start: QPointF, end: QPointF) -> None:
    a, b = (view.mapFromScene(p) for p in (start, end))
    vp = view.viewport()
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, a)
    for k in range(1, 6):
        QTest.mouseMove(vp, a + (b - a) * k / 5)
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, b)


def _nodes_crossed(w, edge) -> list[str]:
    sizes = w.scene.item_sizes()
    return [nid for e, nid in edge_routes.crossings(w.graph, lambda n: sizes[n], edges=[edge])]


def test_an_edge_from_a_library_node_across_the_graph_is_drawn_over_the_nodes_it_crosses(window, qtbot):
    w = shown(qtbot, window)
    scene = w.scene
    new = double_click_library(qtbot, w, "math.mul")
    x_out, new_a = scene.node_items["n1"].port("out", True), scene.node_items[new].port("a", False)
    _drag(w.view, x_out.mapToScene(QPointF(0, 0)), new_a.mapToScene(QPointF(0, 0)))
    qtbot.waitUntil(lambda: any(e.dst == new for e in w.graph.edges))
    edge = next(e for e in w.graph.edges if e.dst == new)
    crossed = _nodes_crossed(w, edge)
    assert crossed, "the new node's place makes x's edge run through other nodes"
    item = scene.edge_items[edge]
    assert all(item.zValue() > scene.node_items[n].zValue() for n in crossed)
    assert all(item.zValue() < p.zValue() for p in scene.node_items[new].ports.values())  # its ports stay on top
    assert all(i.zValue() < scene.node_items["n1"].zValue() for e, i in scene.edge_items.items() if e != edge)

    moved = scene.node_items[new]  # drag the new node by its title up, clear above the graph
    title = moved.mapToScene(QPointF(40, 8))
    target = title + QPointF(300 - moved.x(), -160 - moved.y())
    w.view.centerOn((title + target) / 2)
    assert all(w.view.viewport().rect().contains(w.view.mapFromScene(p)) for p in (title, target))
    _drag(w.view, title, target)
    qtbot.waitUntil(lambda: not _nodes_crossed(w, edge))
    assert item.zValue() < scene.node_items["n1"].zValue()
