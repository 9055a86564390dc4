"""One node on the canvas: title bar in its category colour, typed ports, and an inline preview.

The preview shows what the session computed (value, then the gradient with its accumulation counter)
and the tensor's autograd role: requires_grad leaves get a gold frame, retain_grad a dashed one,
detached outputs and views a badge. A node in error gets a red frame and the message; a node whose
saved tensors a backward freed is greyed out. The item draws a ``NodeDisplay``; it never computes.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem

from gui import style
from gui.canvas.port_item import PortItem


@dataclass
class NodeDisplay:
    """What the node shows besides its ports; filled from the session by the scene."""

    value: str = ""
    grad: str = ""
    grad_label: str = "grad"
    badges: list = field(default_factory=list)
    error: str = ""
    leaf: bool = False
    retain: bool = False
    highlight: bool = False
    spent: bool = False


class NodeItem(QGraphicsItem):
    """A movable, selectable node; ``ports`` maps ``(name, is_output)`` to its PortItem."""

    def __init__(self, node, spec):
        super().__init__()
        self.node_id = node.id
        self.type_id = node.type
        self.category = spec.category if spec is not None else node.type.split(".")[0]
        self.title = node.title or (spec.title if spec is not None else f"? {node.type}")
        self.display = NodeDisplay()
        self.ports: dict = {}
        self._make_ports(node, spec)
        self.setFlags(QGraphicsItem.ItemIsMovable | QGraphicsItem.ItemIsSelectable
                      | QGraphicsItem.ItemSendsGeometryChanges)
        self.setPos(*node.position)
        self.setZValue(1)
        self.setToolTip(f"{self.title} ({node.type}, {node.id})")

    def _make_ports(self, node, spec) -> None:
        kinds = {}
        if spec is not None:
            for p in tuple(getattr(spec, "input_ports", lambda _p: spec.inputs)(node.params)) + tuple(spec.outputs):
                kinds[p.name] = p.kind
        ins, outs = node.input_names(), node.output_names()
        for i, name in enumerate(ins):
            item = PortItem(self, node.id, name, kinds.get(name, "tensor"), False)
            item.setPos(0, style.TITLE_H + style.PORT_ROW * (i + 0.5))
            self.ports[(name, False)] = item
        for i, name in enumerate(outs):
            item = PortItem(self, node.id, name, kinds.get(name, "tensor"), True)
            item.setPos(style.NODE_WIDTH, style.TITLE_H + style.PORT_ROW * (i + 0.5))
            self.ports[(name, True)] = item
        self._rows = max(len(ins), len(outs), 1)

    def port(self, name: str, is_output: bool) -> PortItem | None:
        return self.ports.get((name, is_output))

    # ----- geometry and painting ----------------------------------------------------------------
    def _preview_lines(self) -> list:
        d = self.display
        lines = []
        if d.value:
            lines.append(("value", d.value))
        if d.grad:
            lines.append(("grad", f"{d.grad_label} {d.grad}"))
        if d.badges:
            lines.append(("badge", " · ".join(d.badges)))
        if d.error:
            lines.append(("error", d.error))
        return lines

    def _height(self) -> float:
        extra = sum(34.0 if kind == "error" else 16.0 for kind, _ in self._preview_lines())
        return style.TITLE_H + style.PORT_ROW * self._rows + extra + 8.0

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt override
        return QRectF(-4, -4, style.NODE_WIDTH + 8, self._height() + 8)

    def set_display(self, display: NodeDisplay) -> None:
        self.prepareGeometryChange()
        self.display = display
        self.setOpacity(0.45 if display.spent else 1.0)
        self.update()

    def set_title(self, title: str) -> None:
        self.title = title
        self.update()

    def _frame_pen(self) -> QPen:
        d = self.display
        if d.error:
            return QPen(style.ERROR, 3)
        if d.highlight:
            return QPen(style.HIGHLIGHT, 3)
        if self.isSelected():
            return QPen(QColor("#ffffff"), 2)
        if d.leaf:
            return QPen(style.LEAF, 2.5)
        if d.retain:
            return QPen(style.LEAF, 2, Qt.DashLine)
        return QPen(QColor("#111111"), 1)

    def paint(self, painter, option, widget=None):
        w, h = style.NODE_WIDTH, self._height()
        body = QPainterPath()
        body.addRoundedRect(QRectF(0, 0, w, h), 6, 6)
        painter.fillPath(body, QBrush(style.NODE_BG))
        title = QPainterPath()
        title.addRoundedRect(QRectF(0, 0, w, style.TITLE_H), 6, 6)
        painter.fillPath(title, QBrush(style.category_color(self.category)))
        if option.levelOfDetailFromTransform(painter.worldTransform()) < 0.4:  # zoomed out: shapes only
            painter.setPen(self._frame_pen())
            painter.drawPath(body)
            return
        painter.setPen(style.NODE_TEXT)
        bold = QFont(painter.font())
        bold.setBold(True)
        painter.setFont(bold)
        painter.drawText(QRectF(8, 0, w - 16, style.TITLE_H), Qt.AlignVCenter | Qt.AlignLeft, self.title)
        painter.setFont(QFont(painter.font().family(), 8))
        self._paint_port_names(painter, w)
        self._paint_preview(painter, w)
        painter.setPen(self._frame_pen())
        painter.setBrush(Qt.NoBrush)
        painter.drawPath(body)

    def _paint_port_names(self, painter, w) -> None:
        painter.setPen(QColor("#bdc3c7"))
        for (name, is_output), item in self.ports.items():
            y = item.pos().y()
            rect = QRectF(10, y - 8, w / 2 - 10, 16) if not is_output else QRectF(w / 2, y - 8, w / 2 - 10, 16)
            painter.drawText(rect, Qt.AlignVCenter | (Qt.AlignRight if is_output else Qt.AlignLeft), name)

    def _paint_preview(self, painter, w) -> None:
        y = style.TITLE_H + style.PORT_ROW * self._rows + 2
        colors = {"value": style.NODE_TEXT, "grad": style.GRAD_TEXT, "badge": QColor("#85c1e9"), "error": style.ERROR}
        metrics = QFontMetricsF(painter.font())
        for kind, text in self._preview_lines():
            painter.setPen(colors[kind])
            if kind == "error":
                painter.drawText(QRectF(8, y, w - 16, 32), Qt.TextWordWrap | Qt.AlignLeft, text)
                y += 34
            else:
                painter.drawText(QRectF(8, y, w - 16, 16), Qt.AlignVCenter | Qt.AlignLeft,
                                 metrics.elidedText(text, Qt.ElideRight, w - 16))
                y += 16

    def itemChange(self, change, value):  # noqa: N802 - Qt override
        if change == QGraphicsItem.ItemPositionHasChanged and self.scene() is not None:
            self.scene().node_item_moved(self.node_id)
        return super().itemChange(change, value)
