"""The zoomed-out canvas: one item draws every node as a box in its category colour and every edge as a
straight line, in a few batched calls.

Zoomed out far enough to show a 500-node graph, drawing item by item (a Python paint and bounding box
for each node, edge and label, an antialiased dot for each port) took 25-45 ms a frame. So when the main
view's zoom drops below ``SIMPLE_BELOW`` it switches its scene to the simple form (``set_simple``): node
items keep hit-testing, selection and moving but draw nothing, ports, edges and edge labels hide, and a
``GraphOverview`` paints the picture from lists rebuilt only after something changed (``changed``), kept by
cell of the scene so that a view draws only what is in and around it. In a view, what it draws is kept as a
picture: pans reuse it, a zoom step shows it scaled and the zoom's rest draws it sharp. Nodes with diagnostics
keep their badge. Views that draw the scene small by themselves (the minimap, at normal
zoom) get each item's own simple paint.
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QLineF, QRectF, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPainter, QPainterPath, QPen, QPixmap, QTransform
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gui import style
from gui.canvas.badges import keep_in_view
from gui.canvas.edge_item import EdgeItem
from gui.canvas.node_item import NodeItem, simple_at, simple_pen

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene  # the scene imports this module

SPENT_ALPHA = 115  # a node whose saved tensors a backward freed is drawn faded, as at normal zoom
CELL = 2048.0  # scene units: boxes and lines are kept by cell, and a picture draws only the cells it takes in
MARGIN = 0.5  # a picture takes in half a view more on each side, so pans and zooming out reuse it
MAX_PICTURE_PIXELS = 8_000_000  # beyond this (a large screen at a high pixel ratio) it takes in the view alone
MAX_STRETCH = 3.0  # a picture is shown scaled while the zoom stays within this factor of the zoom it was drawn at
SETTLE_MS = 150  # and drawn sharp at the new zoom once the zoom has rested this long,
SLICE_S = 0.004  # in slices of about this long between frames


@dataclass
class _Cell:
    """What the overview draws in one square of the scene: lines, boxes and frames by colour, and their bounds."""

    bounds: QRectF = field(default_factory=QRectF)
    lines: dict[int, list[QLineF]] = field(default_factory=dict)
    boxes: dict[int, list[QRectF]] = field(default_factory=dict)
    frames: dict[int, list[QRectF]] = field(default_factory=dict)

    def add(self, kind: dict[int, list[Any]], key: int, shape: QRectF | QLineF, bounds: QRectF) -> None:
        """Add ``shape`` to the batch of ``kind`` (lines, boxes or frames) drawn with pen or brush ``key``."""
        kind.setdefault(key, []).append(shape)
        self.bounds = self.bounds.united(bounds)


@dataclass
class _Picture:
    """The overview drawn for one view: ``scene`` is the area it shows, ``scale`` the zoom it was drawn at."""

    widget: QWidget
    pixmap: QPixmap
    scene: QRectF
    scale: float


Batch = tuple[str, int, list[Any]]  # ("line" | "box" | "frame", pen or brush key, the shapes): one batched call


@dataclass
class _Drawing:
    """A picture being drawn in slices between frames (after a zoom rests): ``batches`` from ``done`` on are left."""

    widget: QWidget
    image: QImage
    transform: QTransform  # scene to the image's pixels
    hints: QPainter.RenderHint
    area: QRectF
    scale: float
    batches: list[Batch]
    done: int = 0
    slices: list[float] = field(default_factory=list)  # the seconds each slice took


class GraphOverview(QGraphicsItem):
    """Draws the scene's nodes and edges (``scene.node_items``, ``scene.edge_items``) in the simple form.

    In a view it paints a picture of the part in view and around it, drawn once and reused while the view pans.
    During a zoom the picture is shown scaled (the way map viewers do); ``SETTLE_MS`` after the last zoom step
    a sharp one is drawn in slices of about ``SLICE_S`` between frames and then shown. It is drawn at once when
    it no longer covers the view, would be stretched past ``MAX_STRETCH``, or the graph changed. Drawing 20,000
    boxes and 36,000 lines takes about 14 ms, most of a frame's budget on its own.
    """

    def __init__(self, scene: GraphScene) -> None:
        super().__init__()
        self.graph_scene = scene
        self.setZValue(0.5)  # above comment backdrops, under the node items and their badges
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        self.cells: list[_Cell] = []
        self._pens: dict[int, QPen] = {}  # by colour: 1-pixel lines, 2-pixel frames
        self._brushes: dict[int, QColor] = {}
        self._bounds = QRectF()
        self._dirty = True
        self.picture: _Picture | None = None
        self.drawing: _Drawing | None = None  # the sharp picture under way after a zoom rests
        self._shown: tuple[QWidget, QTransform, QRectF, QPainter.RenderHint] | None = None  # the last paint's
        self.settle = QTimer()
        self.settle.setSingleShot(True)
        self.settle.setInterval(SETTLE_MS)
        self.settle.timeout.connect(self.sharpen)

    def changed(self) -> None:
        self.prepareGeometryChange()
        self._dirty = True
        self.picture = self.drawing = None
        self.update()

    def sharpen(self) -> None:
        """The zoom has rested (the settle timer): draw a sharp picture of what is shown, in slices."""
        if self._shown is None or self.picture is None:
            return
        widget, transform, view, hints = self._shown
        if transform.m11() == self.picture.scale:
            return
        image, to_image, area = self._canvas(widget, transform, view)
        self.drawing = _Drawing(widget, image, to_image, hints, area, transform.m11(), self._batches(area))
        self._draw_slice(self.drawing)

    def _draw_slice(self, drawing: _Drawing) -> None:
        if drawing is not self.drawing:
            return  # given up: the graph changed or the zoom moved on
        start = time.perf_counter()
        painter = self._image_painter(drawing.image, drawing.transform, drawing.hints)
        while drawing.done < len(drawing.batches):  # at least one batch a slice
            self._draw_batch(painter, drawing.batches[drawing.done])
            drawing.done += 1
            if time.perf_counter() - start >= SLICE_S:
                break
        painter.end()
        drawing.slices.append(time.perf_counter() - start)
        if drawing.done < len(drawing.batches):
            QTimer.singleShot(0, lambda: self._draw_slice(drawing))
            return
        self.picture = _Picture(drawing.widget, QPixmap.fromImage(drawing.image), drawing.area, drawing.scale)
        self.drawing = None
        self.update()

    def _rebuild(self) -> None:
        cells: dict[tuple[int, int], _Cell] = {}

        def cell(rect: QRectF) -> _Cell:
            key = (int(rect.left() // CELL), int(rect.top() // CELL))
            return cells.setdefault(key, _Cell())

        self._pens, self._brushes = {}, {}
        for item in self.graph_scene.node_items.values():
            rect = item.mapRectToScene(item._body)
            fill = QColor(item._color)
            if item.display.spent:
                fill.setAlpha(SPENT_ALPHA)
            home = cell(rect)
            home.add(home.boxes, self._brush(fill), rect, rect)
            frame = item.simple_frame_color()
            if frame is not None:
                home.add(home.frames, self._pen(frame, 2), rect, rect)
        for edge in self.graph_scene.edge_items.values():
            color = style.HIGHLIGHT if edge.active else style.port_color(edge.src_port.kind)
            line = QLineF(*edge._ends)
            bounds = QRectF(line.p1(), line.p2()).normalized()
            home = cell(bounds)
            home.add(home.lines, self._pen(color, 1), line, bounds)
        self.cells = list(cells.values())
        bounds = QRectF()
        for c in self.cells:
            bounds = bounds.united(c.bounds)
        self._bounds = bounds.adjusted(-4, -4, 4, 4)
        self._dirty = False

    def _brush(self, color: QColor) -> int:
        self._brushes.setdefault(color.rgba(), color)
        return color.rgba()

    def _pen(self, color: QColor, width: int) -> int:
        key = color.rgba() * 4 + width  # lines and frames of one colour get pens of their own
        if key not in self._pens:
            self._pens[key] = simple_pen(color) if width == 2 else QPen(color, 1)
            self._pens[key].setCosmetic(True)
        return key

    def boundingRect(self) -> QRectF:  # Qt override
        if self._dirty:
            self._rebuild()
        return self._bounds

    def shape(self) -> QPainterPath:  # never hit by clicks or the rubber band: the node items are
        return QPainterPath()

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if self._dirty:
            self._rebuild()
        transform = painter.worldTransform()
        if widget is None or transform.type().value > QTransform.TransformationType.TxScale.value:
            self.draw(painter)  # the minimap and exports draw once, directly
            return
        view = transform.inverted()[0].mapRect(QRectF(widget.rect()))
        shown = view & self._bounds
        if shown.isEmpty():
            return
        scale = transform.m11()
        if self._shown is not None and scale != self._shown[1].m11():  # a zoom step
            self.drawing = None
            self.settle.start()  # shown scaled, drawn sharp once the zoom rests
        self._shown = (widget, QTransform(transform), view, painter.renderHints())
        picture = self.picture
        if picture is None or picture.widget is not widget or not picture.scene.contains(shown) \
                or not 1 / MAX_STRETCH <= scale / picture.scale <= MAX_STRETCH:
            picture = self.picture = self._draw_picture(widget, transform, view, painter.renderHints())
        painter.save()
        painter.resetTransform()  # in device pixels: at the zoom it was drawn at, a plain copy
        target = transform.mapRect(picture.scene)
        if scale == picture.scale:
            painter.drawPixmap(target.topLeft().toPoint(), picture.pixmap)
        else:
            painter.drawPixmap(target, picture.pixmap, QRectF(picture.pixmap.rect()))
        painter.restore()

    def _canvas(self, widget: QWidget, transform: QTransform, view: QRectF) -> tuple[QImage, QTransform, QRectF]:
        """An empty image for a picture of ``view`` (scene coordinates) and around it at ``transform``'s zoom,
        the transform from the scene to its pixels, and the scene area it takes in."""
        ratio = widget.devicePixelRatioF()
        for margin in (MARGIN, 0.0):
            dx, dy = view.width() * margin, view.height() * margin
            device = transform.mapRect(view.adjusted(-dx, -dy, dx, dy) & self._bounds).toAlignedRect()
            if device.width() * device.height() * ratio * ratio <= MAX_PICTURE_PIXELS:
                break
        image = QImage(device.size() * ratio, QImage.Format.Format_ARGB32_Premultiplied)
        image.setDevicePixelRatio(ratio)
        image.fill(Qt.GlobalColor.transparent)
        area = transform.inverted()[0].mapRect(QRectF(device))
        return image, transform * QTransform.fromTranslate(-device.left(), -device.top()), area

    @staticmethod
    def _image_painter(image: QImage, transform: QTransform, hints: QPainter.RenderHint) -> QPainter:
        painter = QPainter(image)
        painter.setRenderHints(hints)
        painter.setTransform(transform)
        return painter

    def _draw_picture(self, widget: QWidget, transform: QTransform, view: QRectF,
                      hints: QPainter.RenderHint) -> _Picture:
        """Draw the part of the graph in ``view`` and around it at once, at ``transform``'s zoom."""
        self.drawing = None
        image, to_image, area = self._canvas(widget, transform, view)
        painter = self._image_painter(image, to_image, hints)
        self.draw(painter, area)
        painter.end()
        return _Picture(widget, QPixmap.fromImage(image), area, transform.m11())

    def _batches(self, area: QRectF | None) -> list[Batch]:
        """The batched calls that draw the cells meeting ``area`` (all without one): lines, then the boxes over
        them, then the frames of the nodes that have one."""
        cells = self.cells if area is None else [c for c in self.cells if c.bounds.intersects(area)]
        batches: list[Batch] = [("line", key, lines) for c in cells for key, lines in c.lines.items()]
        batches += [("box", key, rects) for c in cells for key, rects in c.boxes.items()]
        batches += [("frame", key, rects) for c in cells for key, rects in c.frames.items()]
        return batches

    def _draw_batch(self, painter: QPainter, batch: Batch) -> None:
        kind, key, shapes = batch
        if kind == "box":
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(self._brushes[key])
            painter.drawRects(shapes)
            return
        painter.setPen(self._pens[key])
        painter.setBrush(Qt.BrushStyle.NoBrush)
        if kind == "line":
            painter.drawLines(shapes)
        else:
            painter.drawRects(shapes)

    def draw(self, painter: QPainter, area: QRectF | None = None) -> None:
        """Draw the cells that meet ``area`` (all of them without one) in a few batched calls a cell."""
        if self._dirty:
            self._rebuild()
        for batch in self._batches(area):
            self._draw_batch(painter, batch)


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
    drawing.draw(painter)


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
    if not scene.rendering_small:  # an exported picture: each badge on its node's corner, not where a view keeps it
        for item in scene.node_items.values():
            keep_in_view(item, QRectF(), 1.0)
    try:
        yield
    finally:
        scene.rendering_small = False
        set_simple(scene, was)
