"""An edge on the canvas: a bezier curve from an output port to an input port, labelled with the shape.

A broadcast that changes the shape on the way into an elementwise op is marked (orange label).
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsPathItem, QGraphicsSimpleTextItem

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
        self.label = QGraphicsSimpleTextItem("", self)
        self.label.setBrush(QColor("#aab7b8"))
        self.broadcast = False
        self.update_path()

    def update_path(self) -> None:
        a, b = self.src_port.scene_anchor(), self.dst_port.scene_anchor()
        path = curve(a, b)
        self.setPath(path)
        mid = path.pointAtPercent(0.5)
        self.label.setPos(mid.x() - self.label.boundingRect().width() / 2, mid.y() - 16)

    def set_label(self, text: str, broadcast: bool = False) -> None:
        self.broadcast = broadcast
        self.label.setText(text + ("  ⇲ broadcast" if broadcast and text else ""))
        self.label.setBrush(QColor("#f39c12") if broadcast else QColor("#aab7b8"))
        self.update_path()

    def paint(self, painter, option, widget=None):
        if self.isSelected():
            painter.setPen(QPen(QColor("#ffffff"), 3, Qt.DashLine))
            painter.drawPath(self.path())
            return
        super().paint(painter, option, widget)
