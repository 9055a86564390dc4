"""The zoomed-out canvas of a large graph (issue #21): the whole graph can be framed and scrolled to, and a zoom step
shows the overview's picture scaled until the zoom settles, when it is drawn sharp at the new zoom."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

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


def _wheel(view, steps=1):
    """Turn the mouse wheel over the middle of the canvas, one notch per step (a notch zooms in by 15%)."""
    viewport = view.viewport()
    centre = QPointF(viewport.rect().center())
    for _ in range(steps):
        QApplication.sendEvent(viewport, QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(), QPoint(0, 120),
                                                     Qt.NoButton, Qt.NoModifier, Qt.NoScrollPhase, False))


def _zoomed_out_window(qtbot):
    window = shown(qtbot, make_window(qtbot, _column_graph(150, 150.0)))
    click_toolbar(window, "fit_all")
    overview = None

    def drawn():
        nonlocal overview
        overview = window.scene.overview
        return overview is not None and overview.picture is not None
    qtbot.waitUntil(drawn)
    return window, overview


def _record(monkeypatch):
    """Record the zooms the overview draws its pictures at in one go, during a paint."""
    from gui.canvas.overview import GraphOverview

    drawn = []
    draw = GraphOverview._draw_picture

    def draw_picture(self, widget, transform, view, hints):
        drawn.append(transform.m11())
        return draw(self, widget, transform, view, hints)
    monkeypatch.setattr(GraphOverview, "_draw_picture", draw_picture)
    return drawn


def test_a_wheel_zoom_shows_the_overview_scaled_then_draws_it_sharp_when_the_zoom_rests(qtbot, node_types,
                                                                                         monkeypatch):
    from gui.canvas import overview as module
    from gui.canvas.overview import SETTLE_MS

    window, overview = _zoomed_out_window(qtbot)
    view, first = window.view, overview.picture
    before = view.zoom_level()
    drawn = _record(monkeypatch)
    monkeypatch.setattr(module, "SLICE_S", 0.0)  # a slice for each batched call
    slices = []
    draw_slice = module.GraphOverview._draw_slice
    monkeypatch.setattr(module.GraphOverview, "_draw_slice", lambda self, d: (slices.append(d), draw_slice(self, d)))
    overview.settle.setInterval(3_600_000)  # the zoom keeps going (until the test lets it rest)
    _wheel(view)
    after = view.zoom_level()
    assert after == before * 1.15 and window.scene.simple
    qtbot.waitUntil(overview.settle.isActive)  # painted: the picture drawn before the step, scaled
    assert overview.picture is first and first.scale == before and overview.drawing is None and drawn == []
    overview.settle.start(SETTLE_MS)  # the zoom rests
    qtbot.waitUntil(lambda: overview.picture is not first)  # drawn sharp at the new zoom, in slices between frames
    assert overview.picture.scale == after and overview.drawing is None and drawn == []
    assert len(slices) > 3  # one per batch: the lines, boxes and frames of each cell
    sharp = view.viewport().grab().toImage()
    overview.changed()  # drawn afresh in one go, as after an edit
    qtbot.waitUntil(lambda: overview.picture is not None)
    assert drawn == [after] and view.viewport().grab().toImage() == sharp
    window.undo_stack.setClean()


def test_wheel_zooming_further_than_the_picture_stretches_draws_it_again_at_once(qtbot, node_types, monkeypatch):
    from gui.canvas.overview import MAX_STRETCH

    window, overview = _zoomed_out_window(qtbot)
    view = window.view
    before = view.zoom_level()
    notches = 1
    while 1.15 ** notches <= MAX_STRETCH:
        notches += 1
    drawn = _record(monkeypatch)
    _wheel(view, notches)
    assert window.scene.simple and view.zoom_level() > before * MAX_STRETCH
    view.viewport().repaint()  # the frame after the last notch
    assert drawn and drawn[-1] == view.zoom_level() and overview.picture.scale == view.zoom_level()
    window.undo_stack.setClean()
