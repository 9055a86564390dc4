"""Esc during a drag on the canvas cancels it. A wire stayed on the canvas after Esc, and the release on empty
canvas then opened the palette to add a node wired to the port, as if the drag had gone on; a dragged node went on
following the mouse and its move was recorded."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QGraphicsPathItem

from tests.gui.real_input import shown


def test_esc_while_drawing_a_wire_drops_it_and_the_release_adds_nothing(window, qtbot):
    from gui.canvas.edge_item import EdgeItem

    w = shown(qtbot, window)
    scene, vp = w.scene, w.view.viewport()
    port = scene.node_items["n1"].port("out", True)
    edges_before = set(w.graph.edges)

    def wires():
        return [i for i in scene.items() if isinstance(i, QGraphicsPathItem) and not isinstance(i, EdgeItem)
                and i.parentItem() is None and i.pen().style() == Qt.PenStyle.DashLine]

    start = w.view.mapFromScene(port.mapToScene(QPointF(0, 0)))
    room = vp.rect()
    end = next(p for p in (start + QPoint(dx, dy) for dy in (-120, -80, 80, 120, 200) for dx in (0, 60, 120))
               if room.contains(p) and not scene.items(w.view.mapToScene(p)))  # a spot of empty canvas near x
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(vp, start + (end - start) * k / 5)
    qtbot.waitUntil(lambda: scene.wire.active and len(wires()) == 1)
    QTest.keyClick(w.view, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not scene.wire.active)
    assert not wires(), "the dashed wire stayed on the canvas"
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, end)
    assert w.node_palette is None or not w.node_palette.isVisible()
    assert set(w.graph.edges) == edges_before
    assert all(p.opacity() == 1.0 for item in scene.node_items.values() for p in item.ports.values())  # none greyed


def test_esc_while_dragging_a_node_puts_it_back_and_the_release_moves_nothing(window, qtbot):
    from gui import style

    w = shown(qtbot, window)
    scene, vp = w.scene, w.view.viewport()
    x = scene.node_items["n1"]
    home = (x.pos().x(), x.pos().y())
    edits = w.undo_stack.count()
    start = w.view.mapFromScene(x.mapToScene(QPointF(30, style.TITLE_H / 2)))  # on its title bar
    QTest.mousePress(vp, Qt.LeftButton, Qt.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(vp, start + QPoint(20 * k, 12 * k))
    qtbot.waitUntil(lambda: (x.pos().x(), x.pos().y()) != home)
    QTest.keyClick(w.view, Qt.Key_Escape)
    qtbot.waitUntil(lambda: (x.pos().x(), x.pos().y()) == home)
    QTest.mouseMove(vp, start + QPoint(140, 80))  # the mouse goes on: the node stays
    QTest.mouseRelease(vp, Qt.LeftButton, Qt.NoModifier, start + QPoint(140, 80))
    assert (x.pos().x(), x.pos().y()) == home and tuple(w.graph.node("n1").position) == home
    assert w.undo_stack.count() == edits  # no move was recorded
