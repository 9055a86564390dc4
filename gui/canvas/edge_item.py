"""An edge on the canvas: a bezier curve from an output port to an input port, labelled with the shape.

A broadcast that changes the shape on the way into an elementwise op is marked (orange label).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem

from gui import style


def curve(a: QPointF, b: QPointF) -> QPainterPath:
    """A horizontal S-curve from ``a`` to ``b``."""
    path = QPainterPath(a)
    dx = max(abs(b.x() - a.x()) * 0.5, 40.0)
    path.cubicTo(QPointF(a.x() + dx, a.y()), QPointF(b.x() - dx, b.y()), b)
    return path


class EdgeItem(QGraphicsPathItem):
    """``edge`` is the document's Edge; ``src_port``/``dst_port`` are the PortItems it joins."""

    def __init__(self, edge, src_port, dst_port):
        super().__init__()
        self.edge, self.src_port, self.dst_port = edge, src_port, dst_port
        self.setPen(QPen(style.port_color(src_port.kind), 2.2))
        self.setZValue(0)
        self.setFlag(QGraphicsPathItem.ItemIsSelectable)
        self.label_text = ""
        self._label_rect = QRectF()
        self.broadcast = False
        self.active = False
        self.update_path()

    def update_path(self) -> None:
        a, b = self.src_port.scene_anchor(), self.dst_port.scene_anchor()
        path = curve(a, b)
        self.prepareGeometryChange()
        self.setPath(path)
        mid = path.pointAtPercent(0.5)
        width = 7.0 * len(self.label_text) + 8
        self._label_rect = QRectF(mid.x() - width / 2, mid.y() - 18, width, 14)

    def set_label(self, text: str, broadcast: bool = False) -> None:
        self.broadcast = broadcast
        self.label_text = text + ("  ⇲ broadcast" if broadcast and text else "")
        self.update_path()
        self.update()

    def set_active(self, active: bool) -> None:
        """Highlight the edge a gradient is travelling along (during Backward step)."""
        if active != self.active:
            self.active = active
            self.setPen(QPen(style.HIGHLIGHT, 4) if active else QPen(style.port_color(self.src_port.kind), 2.2))

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override: the label is drawn by the edge
        return super().boundingRect().united(self._label_rect)

    def paint(self, painter, option, widget=None):
        if self.isSelected():
            painter.setPen(QPen(QColor("#ffffff"), 3, Qt.DashLine))
            painter.drawPath(self.path())
        else:
            super().paint(painter, option, widget)
        if self.label_text and option.levelOfDetailFromTransform(painter.worldTransform()) >= 0.4:
            painter.setPen(QColor("#f39c12") if self.broadcast else QColor("#aab7b8"))
            painter.drawText(self._label_rect, Qt.AlignCenter, self.label_text)
