"""The minimap keeps off the nodes of a narrow canvas. With both dock columns dragged wider at 1366x768 (a canvas
about 450 px wide) most of a lesson's graph is out of view, and where every corner of the canvas had a node the map
sat bottom right over them, a third of the canvas wide: over lesson 3's group, lessons 8 and 9's nodes. On a canvas
narrower than three map widths it now hides there instead (``more ▶`` and Fit all lead to the rest)."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from gui.canvas.minimap import COVER_WIDTH
from gui.canvas.node_item import NodeItem
from tests.gui.real_input import shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example

pytest.importorskip("pytestqt")


def _drag_separator(qtbot, w, x: int, dx: int) -> None:
    """Press on the dock separator at ``x`` (window coordinates, the canvas's mid-height), move by ``dx``, release."""
    y = w.centralWidget().geometry().center().y()
    left = w.centralWidget().geometry().left()
    right = w.centralWidget().geometry().right()
    QTest.mousePress(w, Qt.LeftButton, Qt.NoModifier, QPoint(x, y))
    for k in range(1, 11):
        QTest.mouseMove(w, QPoint(x + dx * k // 10, y))
    moved = (lambda: w.centralWidget().geometry().left() >= left + dx - 5) if dx > 0 else \
        (lambda: w.centralWidget().geometry().right() <= right + dx + 5)
    qtbot.waitUntil(moved)  # the window moves its separators as it handles the moves
    QTest.mouseRelease(w, Qt.LeftButton, Qt.NoModifier, QPoint(x + dx, y))


def _nodes_under_minimap(w) -> list[str]:
    mini = w.view.minimap
    if not mini.isVisible():
        return []
    box = mini.geometry().translated(-w.view.viewport().geometry().topLeft())  # in the canvas's viewport
    return sorted(i.node_id for i in w.scene.items(w.view.mapToScene(box).boundingRect()) if isinstance(i, NodeItem))


def _graph_rect(w):
    """The nodes' extent in the scene."""
    rect = None
    for item in w.scene.node_items.values():
        box = item.sceneBoundingRect()
        rect = box if rect is None else rect.united(box)
    return rect


@pytest.mark.parametrize("key", ["03-views", "08-gradient-flow", "09-higher-order"])
def test_the_minimap_covers_no_node_of_a_narrow_canvas_wherever_it_is_scrolled(qtbot, window, key):
    w = shown(qtbot, window)
    open_example(qtbot, w, key)  # opened at the window's usual layout, read at its zoom
    _drag_separator(qtbot, w, w.centralWidget().geometry().left() - 3, 180)  # then the left column wider
    _drag_separator(qtbot, w, w.centralWidget().geometry().right() + 3, -180)  # and the right one
    view, mini = w.view, w.view.minimap
    assert 350 <= view.viewport().width() < COVER_WIDTH * mini.width()
    qtbot.waitUntil(lambda: not mini._timer.isActive())
    covered, showed = {}, 0
    for zoom_in in range(3):  # as opened, then one and two Ctrl+Plus (lesson 3 read at 100 % in the walk)
        if zoom_in:
            QTest.keyClick(view.viewport(), Qt.Key_Plus, Qt.ControlModifier)
        graph = _graph_rect(w)
        for i in range(5):  # the canvas centred over a grid of places across the graph, as the user scrolls it
            for j in range(5):
                view.centerOn(graph.left() + graph.width() * i / 4, graph.top() + graph.height() * j / 4)
                showed += mini.isVisible()
                if nodes := _nodes_under_minimap(w):
                    covered[(zoom_in, i, j)] = nodes
    assert covered == {} and showed  # off the nodes, and still there where a corner is free
