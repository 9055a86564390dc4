"""Tab with the pointer on an edge adds the palette's node beside the edge, not on its line: the node goes to the
nearest place clear of the edges' curves and the nodes (it sat on top of the b -> z edge where the pointer was)."""

import pytest
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtTest import QTest

from core.nodegraph.model import layout
from core.nodegraph.model.document import Node
from tests.gui.real_input import add_by_tab, press, shown

pytest.importorskip("pytestqt")


def _on_edge_clear_of_nodes(w) -> QPointF:
    """A scene point where a new node, its corner there, would have an edge of the chapter's graph through its middle
    and room from every node (the rule for nodes alone keeps it there): only the edge is in its way."""
    width, height = layout.node_size(Node.from_dict({"id": "new", "type": "source.randn"}))
    taken = layout.occupied(w.graph, w.scene.item_sizes())
    viewport = QRectF(w.view.mapToScene(w.view.viewport().rect()).boundingRect())
    for edge_item in w.scene.edge_items.values():
        for t in (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9):
            middle = edge_item.path().pointAtPercent(t)
            corner = (middle.x() - width / 2, middle.y() - height / 2)
            if viewport.contains(QPointF(*corner)) and layout.free_spot(taken, (width, height), corner) == corner:
                return QPointF(*corner)
    raise AssertionError("no edge point with room around it")


def _crosses(edge_item, rect: QRectF) -> bool:
    """Whether the drawn edge's line passes through ``rect`` (points along it, a pixel or so apart)."""
    path = edge_item.path()
    steps = max(2, int(path.length()))
    return any(rect.contains(path.pointAtPercent(path.percentAtLength(path.length() * i / steps)))
               for i in range(steps + 1))


@pytest.mark.parametrize("size", [(1366, 768), (1920, 1080)])
def test_tab_over_an_edge_puts_the_new_node_off_every_edge_and_node(window, qtbot, size):
    w = shown(qtbot, window, size)
    view = w.view
    qtbot.waitUntil(view.all_nodes_shown)
    on_edge = view.mapFromScene(_on_edge_clear_of_nodes(w))  # the node put there would cover the edge
    QTest.mouseMove(view.viewport(), on_edge)
    qtbot.waitUntil(lambda: view.new_node_point() == view.mapToScene(on_edge))
    press(w, Qt.Key_1, Qt.ControlModifier)  # View > Focus canvas (the pointer stays on the edge)
    qtbot.waitUntil(view.hasFocus)
    new = add_by_tab(qtbot, w, "randn")
    item = w.scene.node_items[new]
    qtbot.waitUntil(lambda: item.isVisible())
    rect = item.mapRectToScene(item.body_rect())
    for e, edge_item in w.scene.edge_items.items():
        assert not _crosses(edge_item, rect), f"the new node sits on the edge {e}"
    for nid, other in w.scene.node_items.items():
        if nid != new:
            assert not other.mapRectToScene(other.body_rect()).intersects(rect), f"the new node sits on {nid}"
    wanted = view.mapToScene(on_edge)
    x, y = w.graph.nodes[new].position
    assert abs(x - wanted.x()) + abs(y - wanted.y()) < 400  # beside where it was wanted, not far off
    w.undo_stack.setClean()
