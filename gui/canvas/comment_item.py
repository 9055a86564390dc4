"""A comment or group backdrop on the canvas: a translucent rectangle with its text in a title strip.

Behind the nodes (z -10). Dragging it carries its member nodes along (those not also selected, which Qt
moves itself); the drag, resize (bottom-right grip) and text edit become commands in ``CommentLayer``.
``sync`` puts it where the document says without moving any node (the nodes follow their own events).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QPainter, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent, QStyleOptionGraphicsItem, QWidget

if TYPE_CHECKING:
    from core.nodegraph.model.document import Comment
    from gui.canvas.node_item import NodeItem

TITLE_H = 26.0
GRIP = 14.0
MIN_SIZE = (80.0, 50.0)
MEMBER_MARGIN = 12.0  # scene units between a grown member node and the backdrop's edge
FILL = QColor(90, 110, 140, 60)
STRIP = QColor(90, 110, 140, 150)


class CommentItem(QGraphicsItem):
    """``comment_id`` names the document's Comment; ``members`` are the node ids it carries."""

    def __init__(self, comment: Comment, node_item: Callable[[str], NodeItem | None]) -> None:
        super().__init__()
        self.comment_id = comment.id
        self.node_item = node_item  # node id -> the scene's NodeItem (or None), looked up when moving
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setZValue(-10)
        self._syncing = False
        self._resizing = False
        # (item, scene point, on the title strip) -> None, set by CommentLayer
        self.on_double_click: Callable[[CommentItem, QPointF, bool], None] | None = None
        self.sync(comment)

    def sync(self, comment: Comment) -> None:
        """Take the document's text, rectangle and members; moves no node."""
        x, y, w, h = comment.rect
        self.text, self.members = comment.text, list(comment.nodes)
        self.prepareGeometryChange()
        self.size: tuple[float, float] = (float(w), float(h))
        self.shown = self.size  # as drawn: the size, or more where a member node grew past it (fit_members)
        self._syncing = True
        self.setPos(x, y)
        self._syncing = False
        self.setToolTip(comment.text or "comment")
        self.fit_members()
        self.update()

    def fit_members(self) -> None:
        """Draw the backdrop big enough for the member nodes that start inside it: a node grows with its value (lesson
        3's base, a (2, 3) heatmap after Forward all, hung out of its group's bottom edge). Only the drawing grows;
        the document's rectangle stays (a node dragged out of the group does not stretch it)."""
        w, h = self.size
        inside = QRectF(0, 0, *self.size)
        for nid in self.members:
            item = self.node_item(nid)
            if item is None or not item.isVisible():
                continue
            box = item.sceneBoundingRect().translated(-self.pos())
            if inside.contains(box.topLeft()):
                w, h = max(w, box.right() + MEMBER_MARGIN), max(h, box.bottom() + MEMBER_MARGIN)
        if (w, h) != self.shown:
            self.prepareGeometryChange()
            self.shown = (w, h)
            self.update()

    def rect(self) -> tuple[float, float, float, float]:
        """The rectangle the item shows now, as the document stores it: (x, y, w, h)."""
        return (self.pos().x(), self.pos().y(), *self.size)

    def boundingRect(self) -> QRectF:  # Qt override
        return QRectF(-2, -2, self.shown[0] + 4, self.shown[1] + 4)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        w, h = self.shown
        painter.setPen(QPen(QColor("#ffffff"), 2, Qt.PenStyle.DashLine) if self.isSelected() else QPen(STRIP, 1))
        painter.setBrush(QBrush(FILL))
        painter.drawRoundedRect(QRectF(0, 0, w, h), 8, 8)
        painter.fillRect(QRectF(1, 1, w - 2, TITLE_H - 1), STRIP)
        painter.drawLine(QPointF(w - GRIP, h - 3), QPointF(w - 3, h - GRIP))
        if option.levelOfDetailFromTransform(painter.worldTransform()) >= 0.4:
            font = QFont(painter.font())
            font.setBold(True)
            painter.setFont(font)
            painter.setPen(QColor("#ecf0f1"))
            align = Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft
            painter.drawText(QRectF(10, 0, w - 20, TITLE_H), align, self.text)

    def itemChange(self, change: QGraphicsItem.GraphicsItemChange, value: Any) -> Any:
        # Qt override: carry the member nodes
        if change == QGraphicsItem.GraphicsItemChange.ItemPositionChange and not self._syncing:
            delta = value - self.pos()
            for nid in self.members:
                item = self.node_item(nid)
                if item is not None and not item.isSelected():
                    item.setPos(item.pos() + delta)
        return super().itemChange(change, value)

    # ----- resizing with the bottom-right grip -----------------------------------------------------
    def _on_grip(self, pos: QPointF) -> bool:
        return pos.x() >= self.shown[0] - GRIP and pos.y() >= self.shown[1] - GRIP

    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:
        # Qt override: grabbed by the title strip or the grip
        self._resizing = event.button() == Qt.MouseButton.LeftButton and self._on_grip(event.pos())
        if self._resizing:
            event.accept()
            return
        if event.pos().y() > TITLE_H:  # the body lets a rubber band start inside the group
            event.ignore()
            return
        super().mousePressEvent(event)

    def mouseDoubleClickEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self.on_double_click is not None:
            self.on_double_click(self, event.scenePos(), event.pos().y() <= TITLE_H)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self._resizing:
            self.resize_to(event.pos().x(), event.pos().y())
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        self._resizing = False
        super().mouseReleaseEvent(event)

    def resize_to(self, w: float, h: float) -> None:
        self.prepareGeometryChange()
        self.size = self.shown = (max(MIN_SIZE[0], w), max(MIN_SIZE[1], h))
        self.fit_members()
        self.update()
