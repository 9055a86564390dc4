"""A node's input or output port: a coloured dot (colour by port kind) that edges attach to."""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QPointF, QRectF
from PySide6.QtGui import QBrush, QColor, QPen
from PySide6.QtWidgets import QGraphicsEllipseItem, QGraphicsItem, QGraphicsSceneHoverEvent

from gui import style

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene

_BRUSHES: dict[str, QBrush] = {}  # per port kind: one brush and one pen shared by every port (Qt copies them)
_PEN: list[QPen] = []


class PortItem(QGraphicsEllipseItem):
    """``node_id``, ``name``, ``is_output`` and ``kind`` identify it; ``set_state`` highlights it while connecting."""

    def __init__(self, parent: QGraphicsItem | None, node_id: str, name: str, kind: str, is_output: bool) -> None:
        r = style.PORT_R
        super().__init__(QRectF(-r, -r, 2 * r, 2 * r), parent)
        self.node_id, self.name, self.kind, self.is_output = node_id, name, kind, is_output
        brush = _BRUSHES.get(kind)
        if brush is None:
            brush = _BRUSHES[kind] = QBrush(style.port_color(kind))
        if not _PEN:
            _PEN.append(QPen(QColor("#111111"), 1.2))
        self.setBrush(brush)
        self.setPen(_PEN[0])
        self.setAcceptHoverEvents(True)
        self.setZValue(2)

    def scene_anchor(self) -> QPointF:
        return self.mapToScene(QPointF(0, 0))

    def hoverEnterEvent(self, event: QGraphicsSceneHoverEvent) -> None:
        # Qt override: the session's facts about this port
        scene = cast("GraphScene | None", self.scene())  # a port lives only in the graph scene
        if scene is not None:
            self.setToolTip(scene.port_tooltip(self))
        super().hoverEnterEvent(event)

    def set_state(self, state: str | None) -> None:
        """None (normal), 'ok' (compatible target: bright ring) or 'refused' (greyed)."""
        if state == "ok":
            self.setPen(QPen(style.HIGHLIGHT, 3))
            self.setOpacity(1.0)
        elif state == "refused":
            self.setPen(QPen(QColor("#111111"), 1.2))
            self.setOpacity(0.3)
        else:
            self.setPen(QPen(QColor("#111111"), 1.2))
            self.setOpacity(1.0)
