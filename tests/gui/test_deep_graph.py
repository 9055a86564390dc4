"""A deep snippet (a 3-layer MLP with its loss and optimizer step, twelve columns) opened as code at 1366x768:
it opens readable on its inputs, its chain along one row, and a 'more ▶' button at the canvas's right edge says
it goes on; clicks on it walk the canvas to the loss, and a '◀ more' button leads back."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui.canvas.view import READABLE_ZOOM
from tests.gui.real_input import click, click_toolbar
from tests.gui.test_imported_layout import opened
from tests.nodegraph.test_edge_crossings import MLP3


def in_view(view, item) -> bool:
    return view.mapToScene(view.viewport().rect()).boundingRect().contains(item.sceneBoundingRect())


def test_a_twelve_column_mlp_opens_readable_on_its_inputs_and_more_buttons_walk_it(qtbot, window, monkeypatch,
                                                                                   tmp_path):
    opened(qtbot, window, monkeypatch, tmp_path, MLP3)
    view, items = window.view, window.scene.node_items
    qtbot.waitUntil(lambda: len(items) == len(window.graph.nodes) == 20)
    titles = {n.title: nid for nid, n in window.graph.nodes.items()}
    right, left = view.more.buttons["right"], view.more.buttons["left"]
    qtbot.waitUntil(right.isVisible)
    assert view.zoom_level() >= READABLE_ZOOM and in_view(view, items[titles["x"]])
    assert not left.isVisible() and not in_view(view, items[titles["loss"]])
    shown = view.viewport().rect()
    assert shown.contains(right.geometry()) and right.geometry().right() > shown.width() * 0.8  # at the right edge
    on_screen = lambda: [view.mapFromScene(i.sceneBoundingRect()).boundingRect() for i in items.values()]  # noqa: E731
    assert not any(right.geometry().intersects(r) for r in on_screen())  # beside h1 and w2, not over them
    for _ in range(12):  # each click scrolls three quarters of the canvas right, while there is more
        if not right.isVisible():
            break
        before = view.horizontalScrollBar().value()
        click(right)
        qtbot.waitUntil(lambda: view.horizontalScrollBar().value() > before)  # noqa: B023 - waited on at once
    qtbot.waitUntil(lambda: not right.isVisible() and left.isVisible())
    assert in_view(view, items[titles["loss"]]) and view.zoom_level() >= READABLE_ZOOM
    click(left)
    qtbot.waitUntil(right.isVisible)
    QTest.keyClick(view, Qt.Key_F)  # Fit all: the whole graph, no more buttons
    qtbot.waitUntil(lambda: all(in_view(view, i) for i in items.values()))
    qtbot.waitUntil(lambda: not any(b.isVisible() for b in view.more.buttons.values()))


def test_a_graph_shown_whole_has_no_more_buttons(qtbot, window):
    from tests.gui.real_input import shown

    shown(qtbot, window)  # the chapter's graph, whole in the canvas
    view = window.view
    qtbot.waitUntil(lambda: all(in_view(view, i) for i in window.scene.node_items.values()))
    view.more.refresh()
    assert not any(b.isVisible() for b in view.more.buttons.values())


def test_the_straight_chains_shape_labels_sit_in_the_gaps_between_its_nodes(qtbot, window, monkeypatch, tmp_path):
    """With the chain along one row its edges are straight and as short as the gap between columns: the gap has
    room for a shape label ('(64, 16)', '() scalar'), which sat on the nodes' title bars, drawn on a patch."""
    opened(qtbot, window, monkeypatch, tmp_path, MLP3)
    scene = window.scene
    qtbot.waitUntil(lambda: len(scene.edge_items) == len(window.graph.edges))
    click_toolbar(window, "forward")  # Forward all: every edge gets its shape
    qtbot.waitUntil(lambda: all(i.display.value for i in scene.node_items.values()), timeout=30_000)
    nodes = [i.sceneBoundingRect() for i in scene.node_items.values()]
    straight = [e for e in scene.edge_items.values()
                if abs(e.src_port.scene_anchor().y() - e.dst_port.scene_anchor().y()) < 1]
    qtbot.waitUntil(lambda: sum(bool(e.label_text) for e in straight) >= 8)
    straight = [e for e in straight if e.label_text]
    for edge in straight:
        box = edge.label.text_box()
        assert not edge.label.boxed and not any(box.intersects(n) for n in nodes), edge.label_text
