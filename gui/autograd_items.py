"""The items of the autograd graph view: one box per autograd node, one arrow per gradient edge.

A box shows the node's name (``MulBackward0``) in bold and, under it, the graph node that created it and
how many tensors it saved for backward. Its colour says what it is (an ``AccumulateGrad`` leaf, the loss's
``grad_fn`` at the top, an op) and where backward is: ``set_state`` with ``"selected"`` (its graph node is
selected on the canvas), ``"running"`` (the Backward step being processed), ``"done"`` (already ran) or
``"normal"``. Arrows point the way gradients flow and turn gradient-red once their sender ran; each carries a
small label with the shape of the gradient it sends.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QPainter, QPainterPath, QPen
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPathItem, QStyleOptionGraphicsItem, QWidget

from gui import style

__all__ = ["AutogradBox", "GradientEdge", "EdgeLabel", "box_width", "FILLS"]

BOX_H = 40.0
PAD = 10.0
KIND_FILLS = {"leaf": QColor("#5b4214"), "root": QColor("#5a2a27"), "op": QColor("#243b53")}
KIND_BORDERS = {"leaf": style.LEAF, "root": style.ERROR, "op": QColor("#5dade2")}
FILLS = {"selected": QColor(255, 236, 160), "running": QColor(255, 170, 120), "done": QColor("#3b3f45")}
DARK_TEXT = QColor("#1c1c1c")
DIM_TEXT = QColor("#8e959c")
SUB_TEXT = QColor("#b8c4cf")
SAVED_TEXT = QColor("#f5b041")
EDGE = QColor("#7f8c8d")
LABEL_TEXT = QColor("#a9b4bf")
FLOWED = QColor(style.PORT_COLORS["gradient"])

Row = dict[str, Any]  # one autograd node as core.nodegraph.explain.autograd_rows describes it


def _fonts() -> tuple[QFont, QFont]:
    name = QFont()
    name.setPointSizeF(9)
    name.setBold(True)
    sub = QFont()
    sub.setPointSizeF(7.5)
    return name, sub


def _saved_badge(row: Row) -> str:
    return f"saved {len(row['saved'])}" if row["saved"] else ""


def box_width(row: Row, owner_title: str) -> float:
    """The width a box needs for its two lines of text."""
    name_font, sub_font = _fonts()
    sub = owner_title + ("   " + _saved_badge(row) if row["saved"] else "")
    return max(QFontMetricsF(name_font).horizontalAdvance(row["name"]),
               QFontMetricsF(sub_font).horizontalAdvance(sub), 70.0) + 2 * PAD


class AutogradBox(QGraphicsItem):
    """One autograd node; ``index`` is its row in the view's ``rows``."""

    def __init__(self, index: int, row: Row, owner_title: str, kind: str, rect: Sequence[float]) -> None:
        super().__init__()
        self.index, self.row, self.owner_title, self.kind = index, row, owner_title, kind
        self.name = row["name"]
        self.state = "normal"
        self.w, self.h = rect[2], rect[3]
        self.setPos(rect[0], rect[1])
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setZValue(1)

    def fill(self) -> QColor:
        """The colour the box is drawn with now."""
        return FILLS.get(self.state, KIND_FILLS[self.kind])

    def set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.update()

    def boundingRect(self) -> QRectF:  # Qt override
        return QRectF(-2, -2, self.w + 4, self.h + 4)

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        body = QPainterPath()
        body.addRoundedRect(QRectF(0, 0, self.w, self.h), 6, 6)
        painter.fillPath(body, QBrush(self.fill()))
        strong = self.state in ("selected", "running")
        painter.setPen(QPen(KIND_BORDERS[self.kind], 2.5 if strong or self.kind != "op" else 1.2))
        painter.drawPath(body)
        name_font, sub_font = _fonts()
        light = self.state in ("normal",)
        text = DARK_TEXT if strong else style.NODE_TEXT if light else DIM_TEXT
        painter.setFont(name_font)
        painter.setPen(text)
        left = Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(PAD, 2, self.w - 2 * PAD, self.h / 2), left, self.name)
        painter.setFont(sub_font)
        painter.setPen(DARK_TEXT if strong else SUB_TEXT if light else DIM_TEXT)
        lower = QRectF(PAD, self.h / 2, self.w - 2 * PAD, self.h / 2 - 3)
        painter.drawText(lower, left, self.owner_title)
        if self.row["saved"]:
            painter.setPen(DARK_TEXT if strong else SAVED_TEXT if light else DIM_TEXT)
            painter.drawText(lower, Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, _saved_badge(self.row))


class GradientEdge(QGraphicsPathItem):
    """An arrow from ``src`` to ``dst`` along the layout's points; ``label`` (the shape of the gradient it
    carries, ``(n gradients)`` when it sends several to one node) is a separate ``EdgeLabel`` the view adds to the
    scene."""

    def __init__(self, edge: dict[str, Any], label: str = "") -> None:
        super().__init__()
        self.src, self.dst, self.count = edge["src"], edge["dst"], edge["count"]
        points = [QPointF(x, y) for x, y in edge["points"]]
        path = QPainterPath(points[0])
        for p in points[1:]:
            path.lineTo(p)
        end, before = points[-1], points[-2]
        angle = math.atan2(end.y() - before.y(), end.x() - before.x())
        for side in (-1, 1):
            tip = QPointF(end.x() - 8 * math.cos(angle + side * 0.45), end.y() - 8 * math.sin(angle + side * 0.45))
            path.moveTo(end)
            path.lineTo(tip)
        self.setPath(path)
        self.label = EdgeLabel(label, (before + end) / 2) if label else None
        self.flowed: bool | None = None  # None until the first set_flowed
        self.set_flowed(False)

    def set_flowed(self, flowed: bool) -> None:
        """Red once a gradient went along it (its sender ran during this backward)."""
        if flowed != self.flowed:
            self.flowed = flowed
            self.setPen(QPen(FLOWED if flowed else EDGE, 2.0 if flowed else 1.4))
            if self.label is not None:
                self.label.set_flowed(flowed)


class EdgeLabel(QGraphicsItem):
    """A small text centred on an edge's last segment, on a patch of background so the line stays out of it."""

    def __init__(self, text: str, centre: QPointF) -> None:
        super().__init__()
        self.text, self.flowed = text, False
        font = self.font()
        size = QFontMetricsF(font).size(0, text)
        self.rect = QRectF(-size.width() / 2 - 3, -size.height() / 2, size.width() + 6, size.height())
        self.setPos(centre)
        self.setZValue(0.5)  # above the arrows, below the boxes

    @staticmethod
    def font() -> QFont:
        font = QFont()
        font.setPointSizeF(7.5)
        return font

    def set_flowed(self, flowed: bool) -> None:
        if flowed != self.flowed:
            self.flowed = flowed
            self.update()

    def boundingRect(self) -> QRectF:  # Qt override
        return self.rect

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(QBrush(style.SCENE_BG))
        painter.drawRoundedRect(self.rect, 3, 3)
        painter.setFont(self.font())
        painter.setPen(FLOWED.lighter(135) if self.flowed else LABEL_TEXT)
        painter.drawText(self.rect, Qt.AlignmentFlag.AlignCenter, self.text)
