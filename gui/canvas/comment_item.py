"""A comment or group backdrop: a rounded rectangle behind its nodes with a text; dragging it carries them."""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsRectItem


class CommentItem(QGraphicsRectItem):
    """``comment_id`` names the document's Comment; the item's position is the rect's top-left corner."""

    def __init__(self, comment):
        x, y, w, h = comment.rect
        super().__init__(QRectF(0, 0, w, h))
        self.comment_id = comment.id
        self.text = comment.text
        self.members = list(comment.nodes)
        self.setPos(x, y)
        self.setBrush(QBrush(QColor(90, 110, 140, 60)))
        self.setPen(QPen(QColor("#7f8c8d"), 1.5, Qt.DashLine))
        self.setZValue(-1)
        self.setFlags(QGraphicsItem.ItemIsMovable | QGraphicsItem.ItemIsSelectable
                      | QGraphicsItem.ItemSendsGeometryChanges)
        self._last = QPointF(x, y)

    def document_rect(self) -> tuple:
        r = self.rect()
        return (self.pos().x(), self.pos().y(), r.width(), r.height())

    def paint(self, painter, option, widget=None):
        painter.setBrush(self.brush())
        painter.setPen(QPen(QColor("#ffffff"), 2) if self.isSelected() else self.pen())
        painter.drawRoundedRect(self.rect(), 8, 8)
        painter.setPen(QColor("#d5dbdb"))
        painter.drawText(self.rect().adjusted(10, 4, -10, -4), Qt.AlignTop | Qt.AlignLeft, self.text)

    def itemChange(self, change, value):  # noqa: N802 - Qt override: members follow a drag
        if change == QGraphicsItem.ItemPositionHasChanged and self.scene() is not None:
            delta = self.pos() - self._last
            self._last = QPointF(self.pos())
            scene = self.scene()
            if not getattr(scene, "_syncing", False):
                for nid in self.members:
                    item = scene.node_items.get(nid)
                    if item is not None and not item.isSelected():
                        item.moveBy(delta.x(), delta.y())
        return super().itemChange(change, value)
