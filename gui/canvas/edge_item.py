"""An edge on the canvas: a bezier curve from an output port to an input port, labelled with the shape.

A broadcast that changes the shape on the way into an elementwise op is marked (orange label). Edges are drawn under
the nodes, except one whose curve runs under a node it does not join (a node added from the library and wired to a
source across the graph): that one is drawn over the nodes' boxes (``OVER_NODES``, under the ports and labels), so a
connection is never hidden (``EdgeItem.restack``, called by the scene as edges and nodes come and move).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import shiboken6
from PySide6.QtCore import QPointF, QRectF, Qt, QVariantAnimation
from PySide6.QtGui import QColor, QFont, QPainter, QPainterPath, QPainterPathStroker, QPen
from PySide6.QtWidgets import (
    QGraphicsItem,
    QGraphicsPathItem,
    QGraphicsSimpleTextItem,
    QStyleOptionGraphicsItem,
    QWidget,
)

from core.nodegraph.model.edge_routes import curve_points, curve_samples
from gui import style
from gui.canvas.node_item import LABELS_BELOW, SMALL_PRINT_BELOW, TEXT_KEPT_FROM, NodeItem, simple_at, text_scale

if TYPE_CHECKING:
    from core.nodegraph.model.document import Edge
    from gui.canvas.port_item import PortItem


UNDER_NODES, OVER_NODES = 0.0, 1.5  # an edge's z: nodes' boxes are at 1, their ports at 2, labels at 3
RESTACK_SAMPLES = 32  # points along a curve checked against the boxes of the nodes it may pass under


def curve(a: QPointF, b: QPointF) -> QPainterPath:
    """A horizontal S-curve from ``a`` to ``b``: the one a layout keeps off nodes (``edge_routes.curve_points``)."""
    _, c1, c2, _ = curve_points(a.toTuple(), b.toTuple())
    path = QPainterPath(a)
    path.cubicTo(QPointF(*c1), QPointF(*c2), b)
    return path


class EdgeLabel(QGraphicsSimpleTextItem):
    """An edge's shape label, a separate item above the nodes so narrow gaps don't hide it. Where it has to sit
    on a node (an edge shorter than its shape), it is drawn on a patch of the canvas's colour (``boxed``).

    A little zoomed out (below ``TEXT_KEPT_FROM``, down to ``SMALL_PRINT_BELOW``) it is drawn bigger, at the size
    it has on screen at ``TEXT_KEPT_FROM``, as a node's text is: a snippet's graph opens at about 0.52 and its shapes
    stay legible. It grows away from its curve (about ``anchor``, its side nearest the curve). Placement keeps to
    the text's own box (``text_box``); while the view is in that band (``grown``, set by ``set_labels_grown``) the
    item's bounds take in the enlarged text."""

    _font: QFont | None = None  # one font for every label (a large graph has tens of thousands)
    GROWN_BY = TEXT_KEPT_FROM / SMALL_PRINT_BELOW  # the most text_scale enlarges a label

    def __init__(self) -> None:
        super().__init__("")
        self.boxed = False
        self.grown = False
        self.anchor = QPointF()  # the point that stays put as the text grows (set where it is placed)
        self.setZValue(3)
        self.setAcceptedMouseButtons(Qt.MouseButton.NoButton)
        if EdgeLabel._font is None:
            EdgeLabel._font = self.font()
            EdgeLabel._font.setPointSizeF(8.5)
        self.setFont(EdgeLabel._font)

    def text_box(self) -> QRectF:
        """The text's rectangle in the scene at its own size: where a placement puts it."""
        return self.mapRectToScene(super().boundingRect())

    def set_anchor(self, anchor: QPointF) -> None:
        """The point of the text (item coordinates) that stays put as it grows: its side nearest the curve."""
        if anchor != self.anchor:
            self.prepareGeometryChange()
            self.anchor = anchor

    def set_grown(self, grown: bool) -> None:
        if grown != self.grown:
            self.prepareGeometryChange()
            self.grown = grown

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        # Qt override: a label made while the view is zoomed into the band grows like the others
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneHasChanged:
            self.set_grown(bool(getattr(value, "labels_grown", False)))
        return super().itemChange(change, value)

    def boundingRect(self) -> QRectF:  # Qt override: room for the text drawn enlarged (see the class)
        rect = super().boundingRect()
        if not self.grown:
            return rect
        a, k = self.anchor, self.GROWN_BY
        return QRectF(a + (rect.topLeft() - a) * k, a + (rect.bottomRight() - a) * k)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if lod < LABELS_BELOW:  # 4 pt and less: unreadable
            return
        text = super().boundingRect()
        scale = text_scale(lod) if self.grown else 1.0
        if scale > 1.0:
            painter.translate(self.anchor)
            painter.scale(scale, scale)
            painter.translate(-self.anchor)
        if self.boxed:
            painter.fillRect(text, style.SCENE_BG)
        super().paint(painter, option, widget)  # type: ignore[arg-type]  # the stub omits None, which Qt takes


def set_labels_grown(scene: Any, edges: Iterable[EdgeItem], grown: bool) -> None:
    """Let ``scene``'s edge labels be drawn enlarged (its view zoomed into the band below ``TEXT_KEPT_FROM``)
    or not; labels made later follow ``scene.labels_grown``."""
    scene.labels_grown = grown
    for edge in edges:
        if edge._label is not None:
            edge._label.set_grown(grown)


Box = tuple[float, float, float, float]  # left, top, right, bottom


def _box(r: QRectF) -> Box:
    return r.left(), r.top(), r.right(), r.bottom()


def _meet(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


class _Obstacles:
    """What a label placement must keep off near one edge, gathered with one scene query (not one per spot tried:
    a 500-node graph's labels took seconds), then narrowed to each point along the curve: the nodes, the other
    edges' visible labels and the curves, this edge's own included (a curve also as its cached stroke)."""

    def __init__(self, nodes: list[Box], labels: list[Box], curves: list[tuple[Box, EdgeItem]]) -> None:
        self.nodes, self.labels, self.curves = nodes, labels, curves

    @classmethod
    def around(cls, edge: EdgeItem, region: QRectF) -> _Obstacles:
        nodes: list[Box] = []
        labels: list[Box] = []
        curves: list[tuple[Box, EdgeItem]] = []
        for item in edge.scene().items(region, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
            if isinstance(item, NodeItem):
                nodes.append(_box(item.sceneBoundingRect()))
            elif isinstance(item, EdgeLabel):
                if item is not edge._label and item.isVisible():
                    labels.append(_box(item.text_box()))
            elif isinstance(item, EdgeItem) and item.isVisible():
                curves.append((_box(item.sceneBoundingRect()), item))
        return cls(nodes, labels, curves)

    def near(self, box: Box) -> _Obstacles:
        """The obstacles that meet ``box`` (the spots tried around one point of the curve)."""
        x1, y1, x2, y2 = box  # _meet written out: this runs for every point of every labelled edge
        return _Obstacles([b for b in self.nodes if b[0] < x2 and x1 < b[2] and b[1] < y2 and y1 < b[3]],
                          [b for b in self.labels if b[0] < x2 and x1 < b[2] and b[1] < y2 and y1 < b[3]],
                          [c for c in self.curves if c[0][0] < x2 and x1 < c[0][2] and c[0][1] < y2 and y1 < c[0][3]])

    def clear(self, rect: QRectF, on_nodes: bool, clean: bool) -> bool:
        """Whether ``rect`` is clear of the other labels and (unless ``on_nodes``) of every node; a ``clean`` spot
        also keeps off every curve's line and a few pixels from the other labels."""
        box = _box(rect)
        spaced = (box[0] - 6.0, box[1] - 2.0, box[2] + 6.0, box[3] + 2.0) if clean else box
        if any(_meet(b, spaced) for b in self.labels):
            return False
        if not on_nodes and any(_meet(b, box) for b in self.nodes):
            return False
        return not clean or not any(_meet(b, box) and edge.line().intersects(rect) for b, edge in self.curves)


class EdgeItem(QGraphicsPathItem):
    """``edge`` is the document's Edge; ``src_port``/``dst_port`` are the PortItems it joins."""

    def __init__(self, edge: Edge, src_port: PortItem, dst_port: PortItem) -> None:
        super().__init__()
        self._label: EdgeLabel | None = None  # made when first asked for: most edges of a large graph show none
        self.edge, self.src_port, self.dst_port = edge, src_port, dst_port
        self.setPen(QPen(style.port_color(src_port.kind), 2.2))
        self._thin = QPen(style.port_color(src_port.kind), 1)  # zoomed out: a one-pixel line
        self._thin.setCosmetic(True)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.label_text = ""
        self.broadcast = False
        self.active = False
        # where the travelling gradient dot is along the curve (1 = input end, 0 = output end)
        self.travel: float | None = None
        self._animation: QVariantAnimation | None = None
        self.update_path()

    @property
    def label(self) -> EdgeLabel:
        """The shape label, a separate item in the edge's scene; hidden while it has no text (an empty one would
        still be painted, at the origin)."""
        if self._label is None:
            self._label = EdgeLabel()
            self._label.setVisible(False)
            if self.scene() is not None:
                self.scene().addItem(self._label)
        return self._label

    def update_path(self) -> None:
        a, b = self.src_port.scene_anchor(), self.dst_port.scene_anchor()
        path = curve(a, b)
        self.prepareGeometryChange()
        self.setPath(path)
        self._line: QPainterPath | None = None  # the stroked line, made when a label asks
        self._samples: list[tuple[float, float]] | None = None  # points along the curve, made when asked
        self._ends = (a, b)
        self._cache_bounds()
        if self.label_text:  # an empty label needs no place (set_label places it when it gets a text)
            self._place_label(path)

    def restack(self) -> set[str]:
        """Draw the edge over the nodes' boxes while its curve passes through a node it does not join, else under
        them as every other edge: what makes it visible where it crosses a node. Returns the ids of the nodes it
        passes through."""
        scene = self.scene()
        if scene is None:
            return set()
        ends = (self.edge.src, self.edge.dst)
        path = self.path()
        # NOTE: a straight edge (ports at one height) has a path rectangle 0 high, in which the scene finds nothing
        near = scene.items(path.boundingRect().adjusted(-1, -1, 1, 1),
                           Qt.ItemSelectionMode.IntersectsItemBoundingRect)  # no edge shapes
        crossed = {i.node_id for i in near if isinstance(i, NodeItem) and i.node_id not in ends and i.isVisible()
                   and self.crosses(i.mapRectToScene(i.body_rect()))}
        self.setZValue(OVER_NODES if crossed else UNDER_NODES)
        return crossed

    def ends(self) -> tuple[QPointF, QPointF]:
        """The curve's two ends on the scene: the output port's anchor, the input port's."""
        return self._ends

    def crosses(self, box: QRectF) -> bool:
        """Whether the curve passes through ``box``, a node's box on the scene (less a pixel on each side: a curve
        leaving a port on the node's side does not count)."""
        left, top, right, bottom = box.left() + 1, box.top() + 1, box.right() - 1, box.bottom() - 1
        if self._samples is None:
            self._samples = curve_samples(curve_points(*(e.toTuple() for e in self._ends)), RESTACK_SAMPLES)
        return any(left < x < right and top < y < bottom for x, y in self._samples)

    # where along the curve the label may sit, nearest the middle first
    _LABEL_AT = tuple(sorted((i / 40 for i in range(2, 39)), key=lambda t: abs(t - 0.5)))

    def _place_label(self, path: QPainterPath) -> None:
        """At the curve's middle, or the spot along it nearest the middle that no node, no curve (its own included)
        and no other edge's label (with a little space around it) covers: just above the curve, else under it, else
        beside a steep stretch, else farther off it (an edge shorter than its label, lesson 6's true_w -> yb, whose
        S-curve crossed ``(4, 1)`` at the usual distance); failing that, a spot clear of nodes only, by the curve or
        up to 80 pixels off it (an edge shorter than its label between two nodes side by side, diff -> sq's
        ``(32, 32)`` in lesson 2: on the nodes it covered their borders, so it goes above or below them); else (an
        edge that runs behind nodes all the way) on a node, drawn on a patch of the canvas's colour, still off the other
        labels. An edge that enters its node below a sibling from the same output (``x`` into both inputs of a
        ``mul``) tries under its curve first, so the two parallel curves' labels sit apart. (Lesson 9's x -> grads
        runs behind critic and score: its label would print over critic -> score's in the one gap between them, and
        goes under its own curve there instead.)"""
        width = self.label.text_box().width()
        if self.scene() is None or not self.label_text:
            p = path.pointAtPercent(0.5)
            self._put_label(p.x() - width / 2, p.y() - 16.0, boxed=False, toward=p)
            return
        near = (2.0, -16.0) if self._below_a_sibling() else (-16.0, 2.0)
        farther = tuple(dy + (8.0 if dy > 0 else -8.0) * k for k in (1, 2) for dy in near)
        centred = [(-width / 2, dy) for dy in near]
        beside = [(6.0, -7.0), (-width - 6.0, -7.0)]  # right, left of a steep stretch
        points = [path.pointAtPercent(t) for t in self._LABEL_AT]
        off = [(-width / 2, dy + (8.0 if dy > 0 else -8.0) * k) for k in range(3, 9) for dy in near]  # past a node
        reach = 24.0 + 8.0 * 8 + 14.0  # the obstacles a spot as far as the farthest of ``off`` can meet
        around = _Obstacles.around(self, path.boundingRect().adjusted(-width - 24.0, -reach, width + 24.0, reach))
        local = [around.near((p.x() - width - 24.0, p.y() - reach, p.x() + width + 24.0, p.y() + reach))
                 for p in points]
        for on_nodes, clean, offsets in ((False, True, centred + beside + [(-width / 2, dy) for dy in farther]),
                                         (False, False, centred), (False, False, off), (True, False, centred)):
            for dx, dy in offsets:
                for p, obstacles in zip(points, local):
                    rect = QRectF(p.x() + dx, p.y() + dy, width, 14)
                    if obstacles.clear(rect, on_nodes, clean):
                        self._put_label(rect.x(), rect.y(), boxed=on_nodes, toward=p)
                        return
        p = path.pointAtPercent(0.5)
        self._put_label(p.x() - width / 2, p.y() + near[0], boxed=True, toward=p)

    def line(self) -> QPainterPath:
        """The drawn line as an area (the curve stroked a little wider than its pen), for labels to keep off."""
        if self._line is None:
            stroker = QPainterPathStroker()
            stroker.setWidth(self.pen().widthF() + 2.0)
            self._line = stroker.createStroke(self.path())
        return self._line

    def _put_label(self, x: float, y: float, boxed: bool, toward: QPointF) -> None:
        """The label at ``x, y``, growing (see EdgeLabel) away from ``toward``, the curve's point it sits by."""
        label = self.label
        if boxed != label.boxed:
            label.boxed = boxed
            label.update()
        label.setPos(x, y)
        text = label.text_box()
        anchor = QPointF(min(max(toward.x(), text.left()), text.right()),
                         min(max(toward.y(), text.top()), text.bottom()))
        label.set_anchor(anchor - text.topLeft())

    def _below_a_sibling(self) -> bool:
        """Whether another edge from the same output enters the same node at a port above this edge's port."""
        edges = getattr(self.scene(), "edge_items", {})
        src, src_port, dst, _ = self.edge
        node = self.dst_port.parentItem()
        mine = self.dst_port.scene_anchor().y()
        return isinstance(node, NodeItem) and any(
            not is_output and port is not self.dst_port and port.scene_anchor().y() < mine
            and type(self.edge)(src, src_port, dst, name) in edges for (name, is_output), port in node.ports.items())

    def set_label(self, text: str, broadcast: bool = False) -> None:
        label_text = text + ("  ⇲ broadcast" if broadcast and text else "")
        if label_text == self.label_text and broadcast == self.broadcast:
            return  # a refresh sets every edge's label, most of them unchanged: no curve or placement to redo
        self.broadcast = broadcast
        self.label_text = label_text
        label = self.label
        label.setText(self.label_text)
        label.setVisible(bool(label_text) and self.isVisible())
        label.setBrush(QColor("#f39c12") if broadcast else QColor("#aab7b8"))
        self.update_path()
        self.update()

    def set_simple(self, on: bool) -> None:
        """The scene's zoomed-out form (see gui.canvas.overview) draws the edge: the item and its label hide."""
        self.setVisible(not on)
        if self._label is not None:
            self._label.setVisible(not on and bool(self.label_text))

    def set_active(self, active: bool) -> None:
        """Highlight the edge a gradient is travelling along (during Backward step)."""
        if active != self.active:
            self.active = active
            self.prepareGeometryChange()
            self.setPen(QPen(style.HIGHLIGHT, 4) if active else QPen(style.port_color(self.src_port.kind), 2.2))
            self._cache_bounds()
            if active:
                self._animate()

    def _animate(self) -> None:
        """A dot runs from the consumer back to the producer: the gradient flows against the edge."""
        self._animation = animation = QVariantAnimation()
        animation.setStartValue(1.0)
        animation.setEndValue(0.0)
        animation.setDuration(450)
        animation.valueChanged.connect(self._set_travel)
        animation.finished.connect(lambda: self._set_travel(None))
        animation.start()

    def _set_travel(self, value: float | None) -> None:
        if not shiboken6.isValid(self):  # the scene deleted the item while its animation ran
            if self._animation is not None:  # always: the animation calls this
                self._animation.stop()
            return
        self.travel = value
        self.update()

    def _cache_bounds(self) -> None:
        self._bounds = super().boundingRect().adjusted(-8, -8, 8, 8)  # room for the travelling dot

    def boundingRect(self) -> QRectF:  # Qt override: cached, asked for several times a frame
        return self._bounds

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        # Qt override: the label joins and leaves with the edge
        label = self._label
        if change == QGraphicsItem.GraphicsItemChange.ItemSceneChange and label is not None:
            if self.scene() is not None and label.scene() is self.scene():
                self.scene().removeItem(label)
            if value is not None:
                value.addItem(label)
        return super().itemChange(change, value)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        lod = option.levelOfDetailFromTransform(painter.worldTransform())
        if not self.active and simple_at(lod):
            painter.setPen(QPen(QColor("#ffffff"), 2, Qt.PenStyle.DashLine) if self.isSelected() else self._thin)
            painter.drawLine(*self._ends)
            return
        if lod < TEXT_KEPT_FROM and not self.active and not self.isSelected():
            painter.setPen(self._thin)  # the 2.2 pen is under 1.3 pixels here; a hairline strokes 10x faster
            painter.drawPath(self.path())
        elif self.isSelected():
            painter.setPen(QPen(QColor("#ffffff"), 3, Qt.PenStyle.DashLine))
            painter.drawPath(self.path())
        else:
            super().paint(painter, option, widget)
        if self.travel is not None:
            painter.setPen(Qt.PenStyle.NoPen)
            painter.setBrush(style.HIGHLIGHT)
            painter.drawEllipse(self.path().pointAtPercent(self.travel), 6, 6)
