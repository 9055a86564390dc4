"""A double-click on a node brings the Inspector to the front with the keyboard in the node's first parameter, as
Ctrl+2 does: a newcomer who had the Train tab in front (it shares the Inspector's place) clicked a node and saw the
training settings, not the node (session 26's walk)."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import double_click, show_dock, show_node_on_canvas, shown


def _node(window, title: str) -> str:
    return next(nid for nid, n in window.graph.nodes.items() if n.title == title)


def _title_bar(window, node_id: str) -> QPoint:
    item = show_node_on_canvas(window, node_id)
    return window.view.mapFromScene(item.mapToScene(item.boundingRect().topLeft() + QPoint(30, 8)))


def test_double_clicking_a_node_behind_the_train_tab_shows_it_in_the_inspector_ready_to_type(window, qtbot):
    shown(qtbot, window)
    train = window.training.docks["train"]
    show_dock(qtbot, window, train)
    assert window.inspector_dock.visibleRegion().isEmpty()  # the Train tab covers the Inspector
    x = _node(window, "x")

    double_click(window.view.viewport(), _title_bar(window, x))

    qtbot.waitUntil(lambda: not window.inspector_dock.visibleRegion().isEmpty())
    qtbot.waitUntil(lambda: window.inspector.node_id == x)
    field = window.inspector.editors["tensor"]
    qtbot.waitUntil(field.hasFocus)
    QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    QTest.keyClicks(field, "[4, 5]")
    QTest.keyClick(field, Qt.Key_Return)
    qtbot.waitUntil(lambda: window.graph.nodes[x].params["tensor"] == [4.0, 5.0])


def test_double_clicking_empty_canvas_still_opens_the_palette_not_the_inspector(window, qtbot):
    shown(qtbot, window)
    show_dock(qtbot, window, window.training.docks["train"])
    view = window.view
    empty = next(QPoint(px, py) for px in range(10, view.viewport().width(), 20)
                 for py in range(10, view.viewport().height(), 20) if not view.items(QPoint(px, py)))

    double_click(view.viewport(), empty)

    qtbot.waitUntil(lambda: window.node_palette is not None and window.node_palette.search_edit.isVisible())
    assert window.inspector_dock.visibleRegion().isEmpty()
    QTest.keyClick(window.node_palette.search_edit, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not window.node_palette.isVisible())
