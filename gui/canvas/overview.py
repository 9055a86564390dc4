"""The zoomed-out canvas: one item draws every node as a box in its category colour and every edge as a
straight line, in a few batched calls.

Zoomed out far enough to show a 500-node graph, drawing item by item (a Python paint and bounding box
for each node, edge and label, an antialiased dot for each port) took 25-45 ms a frame. So when the main
view's zoom drops below ``SIMPLE_BELOW`` it switches its scene to the simple form (``set_simple``): node
items keep hit-testing, selection and moving but draw nothing, ports, edges and edge labels hide, and a
``GraphOverview`` paints the picture from lists rebuilt only after something changed (``changed``). Nodes
with diagnostics keep their badge. Views that draw the scene small by themselves (the minimap, at normal
zoom) get each item's own simple paint.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QRectF, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gui import style
from gui.canvas.edge_item import EdgeItem
from gui.canvas.node_item import NodeItem, simple_at, simple_pen

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene  # the scene imports this module

SPENT_ALPHA = 115  # a node whose saved tensors a backward freed is drawn faded, as at normal zoom


class GraphOverview(QGraphicsItem):
    """Draws the scene's nodes and edges (``scene.node_items``, ``scene.edge_items``) in the simple form."""

    def __init__(self, scene: GraphScene) -> None:
        super().__init__()
        self.graph_scene = scene
        self.setZValue(0.5)  # above comment backdrops, under the node items and their badges
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        # (fill colour, [QRectF]): square corners (2 pixels at most here), 20x faster to fill
        self.boxes: list[tuple[QColor, list[QRectF]]] = []
        self.frames: list[tuple[QPen, list[QRectF]]] = []
        self.lines: list[tuple[QPen, list[QLineF]]] = []
        self._bounds = QRectF()
        self._dirty = True
        # a pan repaints from a picture of the visible part (Qt keeps it per view, redrawn on zoom or change):
        # drawing 20,000 boxes and 36,000 lines took half of a 16 ms frame
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)

    def changed(self) -> None:
        self.prepareGeometryChange()
        self._dirty = True
        self.update()  # the cached picture is stale

    def _rebuild(self) -> None:
        boxes: dict[int, list[QRectF]] = {}
        frames: dict[int, list[QRectF]] = {}
        lines: dict[int, list[QLineF]] = {}
        bounds = QRectF()
        for item in self.graph_scene.node_items.values():
            rect = item.mapRectToScene(item._body)
            bounds = bounds.united(rect)
            fill = QColor(item._color)
            if item.display.spent:
                fill.setAlpha(SPENT_ALPHA)
            boxes.setdefault(fill.rgba(), []).append(rect)
            frame = item.simple_frame_color()
            if frame is not None:
                frames.setdefault(frame.rgba(), []).append(rect)
        for edge in self.graph_scene.edge_items.values():
            color = style.HIGHLIGHT if edge.active else style.port_color(edge.src_port.kind)
            lines.setdefault(color.rgba(), []).append(QLineF(*edge._ends))
        self.boxes = [(QColor.fromRgba(c), rects) for c, rects in boxes.items()]
        self.frames = [(simple_pen(QColor.fromRgba(c)), rects) for c, rects in frames.items()]
        self.lines = []
        for c, segments in lines.items():
            pen = QPen(QColor.fromRgba(c), 1)
            pen.setCosmetic(True)
            self.lines.append((pen, segments))
            for line in segments:
                bounds = bounds.united(QRectF(line.p1(), line.p2()).normalized())
        self._bounds = bounds.adjusted(-4, -4, 4, 4)
        self._dirty = False

    def boundingRect(self) -> QRectF:  # Qt override
        if self._dirty:
            self._rebuild()
        return self._bounds

    def shape(self) -> QPainterPath:  # never hit by clicks or the rubber band: the node items are
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._dirty:
            self._rebuild()
        for pen, segments in self.lines:
            painter.setPen(pen)
            painter.drawLines(segments)
        painter.setPen(Qt.PenStyle.NoPen)
        for color, rects in self.boxes:
            painter.setBrush(color)
            painter.drawRects(rects)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for pen, rects in self.frames:
            painter.setPen(pen)
            painter.drawRects(rects)


def paint_small(scene: GraphScene, painter: QPainter, backdrops: Iterable[QGraphicsItem]) -> None:
    """Draw ``scene`` in the simple form onto ``painter`` (set to map scene coordinates) for a view that shows
    it small, the minimap: the comment ``backdrops`` by their own paint, then every node and edge in the
    overview's batched calls. Item by item, a 20,000-node scene took 0.6 s to draw there."""
    option = QStyleOptionGraphicsItem()
    for item in backdrops:
        painter.save()
        painter.setTransform(item.sceneTransform(), True)
        item.paint(painter, option, None)
        painter.restore()
    drawing = scene.overview if scene.overview is not None else GraphOverview(scene)
    drawing.paint(painter, option, None)


def set_simple(scene: GraphScene, on: bool) -> None:
    """Switch ``scene`` to (or back from) the simple form; its views ask for it as their zoom crosses over."""
    if on == scene.simple:
        return
    scene.simple = on
    items: list[NodeItem | EdgeItem] = [*scene.node_items.values(), *scene.edge_items.values()]
    for item in items:
        item.set_simple(on)
    if on:
        scene.overview = GraphOverview(scene)
        scene.addItem(scene.overview)
    elif scene.overview is not None:  # always there while the scene was simple
        scene.removeItem(scene.overview)
        scene.overview = None


def item_added(scene: GraphScene, item: NodeItem | EdgeItem) -> None:
    """A node or edge item joined ``scene``: in the simple form the overview draws it instead."""
    if scene.simple:
        item.set_simple(True)
        changed(scene)


def changed(scene: GraphScene) -> None:
    """Something the overview draws moved or changed (positions, displays, selection, items)."""
    if scene.overview is not None:
        scene.overview.changed()


@contextmanager
def detailed(scene: GraphScene, target: QRectF, source: QRectF) -> Iterator[None]:
    """While rendering at a readable scale (an image export), the scene draws every item in full; rendered
    small (the minimap) it leaves out the badges, which keep their size on screen and would cover it."""
    scale = target.width() / source.width() if target.isValid() and source.isValid() else 1.0
    was = scene.simple
    if was and not simple_at(scale):
        set_simple(scene, False)
    scene.rendering_small = simple_at(scale)
    try:
        yield
    finally:
        scene.rendering_small = False
        set_simple(scene, was)
