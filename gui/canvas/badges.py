"""What a node wears besides its preview: the diagnostics badge and the device tag.

The badge is a small circle on the node's top-right corner, coloured by the worst severity of the
session's hints about that node, with their count; its tooltip gives each hint's message and the first
thing to try. It keeps its size on screen at any zoom, so in a zoomed-out overview the nodes with
problems still stand out, and it stays whole on screen while part of its node is (``keep_in_view``: zoomed in on a
node in error with its corner past the canvas's edge, the badge showed as a red sliver). The device tag sits at
the right of the value line: plain grey for the CPU, a filled pill for any other device.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QStyleOptionGraphicsItem, QWidget

from gui import style

if TYPE_CHECKING:
    from core.nodegraph.explain.diagnostics import Hint
    from gui.canvas.node_item import NodeItem  # a node item owns its badge
    from gui.canvas.scene import GraphScene

SEVERITY_COLORS = {"error": "#e74c3c", "warning": "#f39c12", "info": "#3498db"}
SEVERITY_ORDER = ("error", "warning", "info")
RADIUS = 9.0
CPU_TAG = QColor("#7f8c8d")
DEVICE_TAG = QColor("#8e44ad")


def worst_severity(hints: Iterable[Hint]) -> str:
    ranks = [SEVERITY_ORDER.index(h.severity) for h in hints if h.severity in SEVERITY_ORDER]
    return SEVERITY_ORDER[min(ranks)] if ranks else "info"


def hints_tooltip(hints: Iterable[Hint]) -> str:
    return "\n\n".join(f"{h.severity}: {h.message}\nfirst try: {h.fix}" for h in hints)


class DiagnosticBadge(QGraphicsItem):
    """A child of a NodeItem; ``hints`` are the Hint records it stands for."""

    def __init__(self, parent: QGraphicsItem | None) -> None:
        super().__init__(parent)
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemIgnoresTransformations)
        self.setZValue(3)
        self.hints: list[Hint] = []
        self.severity = "info"

    def set_hints(self, hints: Iterable[Hint]) -> None:
        self.hints = list(hints)
        self.severity = worst_severity(self.hints)
        self.setToolTip(hints_tooltip(self.hints))
        self.update()

    def color(self) -> QColor:
        return QColor(SEVERITY_COLORS[self.severity])

    def boundingRect(self) -> QRectF:  # Qt override
        return QRectF(-RADIUS - 1, -RADIUS - 1, 2 * RADIUS + 2, 2 * RADIUS + 2)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        if cast("GraphScene", self.scene()).rendering_small:  # the minimap's picture: no room for badges
            return
        rect = QRectF(-RADIUS, -RADIUS, 2 * RADIUS, 2 * RADIUS)
        painter.setPen(QPen(QColor("#1e2126"), 1.5))
        painter.setBrush(self.color())
        painter.drawEllipse(rect)
        font = QFont(painter.font())
        font.setPointSizeF(7.5)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(QColor("#ffffff"))
        painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, str(len(self.hints)))


def set_badge(node_item: NodeItem, hints: Sequence[Hint]) -> None:
    """Give ``node_item`` a badge for ``hints``, update it, or drop it when there are none."""
    if not hints:
        if node_item.badge is not None:
            # PySide6's stub types the parent as QGraphicsItem; Qt takes None (no parent)
            node_item.badge.setParentItem(None)  # type: ignore[arg-type]
            if node_item.badge.scene() is not None:
                node_item.badge.scene().removeItem(node_item.badge)
            node_item.badge = None
        return
    if node_item.badge is None:
        node_item.badge = DiagnosticBadge(node_item)
        node_item.badge.setPos(style.NODE_WIDTH, 0)
    node_item.badge.set_hints(hints)


def keep_in_view(node_item: NodeItem, shown: QRectF, zoom: float) -> None:
    """Put ``node_item``'s badge on its top-right corner or, where that corner lies out of the view's ``shown``
    scene rectangle while some of the node is in it, at the nearest point inside it along the node's top and right
    sides, whole (``zoom``: the view's scale, the badge's size in scene units is its size on screen over it)."""
    badge = node_item.badge
    if badge is None:
        return
    room = (RADIUS + 2) / zoom
    inner = shown.adjusted(room, room, -room, -room)
    body = node_item.mapRectToScene(node_item.boundingRect().adjusted(4, 4, -4, -4))  # (the bounds' 4-unit margin)
    corner = node_item.mapToScene(style.NODE_WIDTH, 0)
    spot = QPointF(corner)
    if inner.isValid() and body.intersects(inner):
        spot = QPointF(max(min(corner.x(), inner.right()), body.left()),
                       min(max(corner.y(), inner.top()), body.bottom()))
    place = node_item.mapFromScene(spot)
    if place != badge.pos():
        badge.setPos(place)


def paint_device_tag(painter: QPainter, device: str, right: float, y: float, scale: float = 1.0) -> float:
    """Draw ``device`` right-aligned at ``right`` on the 16-pixel line at ``y``; returns the width used. ``scale``
    enlarges it with the node's text a little zoomed out (``node_item.text_scale``), so it stays legible there."""
    font = QFont(painter.font())
    font.setPointSizeF(7 * scale)
    metrics = QFontMetricsF(font)
    width = metrics.horizontalAdvance(device) + 8
    height = min(12 * scale, 16.0)
    rect = QRectF(right - width, y + (16 - height) / 2, width, height)
    old = painter.font()
    painter.setFont(font)
    if device == "cpu":
        painter.setPen(CPU_TAG)
    else:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(DEVICE_TAG)
        painter.drawRoundedRect(rect, 4, 4)
        painter.setPen(QColor("#ffffff"))
    painter.drawText(rect, Qt.AlignmentFlag.AlignCenter, device)
    painter.setFont(old)
    return width
