"""Right-clicking a port on the canvas offers "Watch this port": it pins the port (an input port: the output
feeding it) in the Watch dock. An event filter on the scene, so the canvas code needs no change; a right
click anywhere else passes through to whatever menu the canvas has.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, QObject, Signal
from PySide6.QtWidgets import QGraphicsSceneContextMenuEvent, QMenu

from core.nodegraph.model.names import key_label
from gui.canvas.port_item import PortItem

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from gui.canvas.scene import GraphScene

__all__ = ["PortWatchMenu", "watch_key"]


def watch_key(graph: Graph, port: PortItem) -> str | None:
    """The ``"node.port"`` a right-clicked port stands for (None: an unconnected input)."""
    if port.is_output:
        return f"{port.node_id}.{port.name}"
    edge = graph.inputs_of(port.node_id).get(port.name) if port.node_id in graph.nodes else None
    return f"{edge.src}.{edge.src_port}" if edge is not None else None


class PortWatchMenu(QObject):
    watch_requested = Signal(str)

    def __init__(self, scene: GraphScene, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("portWatchMenu")
        self.scene = scene
        scene.installEventFilter(self)

    def menu_for(self, port: PortItem) -> QMenu | None:
        key = watch_key(self.scene.graph, port)
        if key is None:
            return None
        menu = QMenu()
        action = menu.addAction(f"Watch this port ({key_label(self.scene.graph, key)})")
        action.setObjectName("action_watch_port")
        action.triggered.connect(lambda: self.watch_requested.emit(key))
        return menu

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() != QEvent.Type.GraphicsSceneContextMenu:
            return False
        event = cast(QGraphicsSceneContextMenuEvent, event)
        port = next((i for i in self.scene.items(event.scenePos()) if isinstance(i, PortItem)), None)
        menu = self.menu_for(port) if port is not None else None
        if menu is None:
            return False
        menu.exec(event.screenPos())
        return True
