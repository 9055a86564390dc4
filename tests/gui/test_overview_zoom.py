"""The zoomed-out canvas of a large graph (issue #21): the whole graph can be framed and scrolled to, and a zoom step
shows the overview's picture scaled until the zoom settles, when it is drawn sharp at the new zoom."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.conftest import make_window
from tests.gui.real_input import click_toolbar, shown


def _column_graph(n, step):
    """``n`` tensor sources in a column ``step`` scene units apart, each feeding an exp below it."""
    from core.nodegraph.model.document import Edge, Graph, Node

    g = Graph()
    for i in range(n):
        g.add_node(Node(f"s{i}", "source.tensor", {"tensor": [1.0]}, (0.0, i * step)))
        g.add_node(Node(f"e{i}", "math.exp", {}, (240.0, i * step + 60.0)))
        g.connect(Edge(f"s{i}", "out", f"e{i}", "x"))
    return g


def _visible(view):
    return view.mapToScene(view.viewport().rect()).boundingRect()


def test_fit_all_shows_every_node_of_a_graph_taller_than_the_old_scroll_area(qtbot, node_types):
    window = shown(qtbot, make_window(qtbot, _column_graph(40, 2000.0)))  # 80,000 scene units tall
    click_toolbar(window, "fit_all")
    view = window.view
    qtbot.waitUntil(lambda: all(_visible(view).contains(i.sceneBoundingRect())
                                for i in window.scene.node_items.values()))
    window.undo_stack.setClean()


def test_at_normal_zoom_the_canvas_scrolls_down_to_the_last_node(qtbot, node_types):
    window = shown(qtbot, make_window(qtbot, _column_graph(40, 2000.0)))
    view = window.view
    view.resetTransform()
    bar = view.verticalScrollBar()
    qtbot.waitUntil(lambda: bar.maximum() > 0)
    QTest.keyClick(bar, Qt.Key_End)  # the scroll bar as far as it goes
    qtbot.waitUntil(lambda: bar.value() == bar.maximum())
    last = window.scene.node_items["e39"].sceneBoundingRect()
    assert _visible(view).bottom() > last.bottom()
    window.undo_stack.setClean()
