"""Drawing a new edge on the canvas: a drag from a port, a dashed wire to the pointer, a drop that connects.

``WireDrag`` is the scene's one gesture in progress. ``start`` picks up a port (an input's edge's source, where
the input has one) and marks every other port that could take the wire ("ok") or not ("refused"); ``follow`` draws
the wire to the pointer; ``finish`` connects to the port under the drop through the scene's ``connect_ports`` (one
undoable edit), says why it can't (the status bar, and a tooltip at the pointer), or, dropped on empty canvas, emits
the scene's ``edge_dropped`` (the window offers the palette to add a node there, wired to that port); ``cancel``
(Esc during the drag) drops the wire and the release that follows does nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QPen
from PySide6.QtWidgets import QGraphicsPathItem, QToolTip

from gui import style
from gui.canvas.edge_item import curve
from gui.canvas.port_item import PortItem

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene

__all__ = ["WireDrag"]


class WireDrag:
    """The wire being drawn on ``scene`` (none while ``active`` is False)."""

    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self._drag: tuple[PortItem, QGraphicsPathItem] | None = None  # (port, temporary path item) while connecting

    @property
    def active(self) -> bool:
        return self._drag is not None

    def start(self, port: PortItem) -> None:
        scene = self.scene
        if not port.is_output:  # dragging from an input picks up its edge's source, if any
            e = scene.graph.edge_into(port.node_id, port.name)
            source = scene.node_items[e.src].port(e.src_port, True) if e is not None else None
            if source is not None:
                port = source
        path = QGraphicsPathItem()
        path.setPen(QPen(style.HIGHLIGHT, 2, Qt.PenStyle.DashLine))
        scene.addItem(path)
        self._drag = (port, path)
        for item in scene.node_items.values():
            for p in item.ports.values():
                if p is port:
                    continue
                ok = p.is_output != port.is_output and not self.refusal(port, p)
                p.set_state("ok" if ok else "refused")

    def refusal(self, a: PortItem, b: PortItem) -> str | None:
        """Why ports ``a`` and ``b`` can't be wired (None when they can)."""
        if a.is_output == b.is_output:
            return "connect an output to an input"
        out, inp = (a, b) if a.is_output else (b, a)
        return self.scene.refusal(out.node_id, out.name, inp.node_id, inp.name)

    def follow(self, scene_pos: QPointF) -> None:
        """Draw the wire from its port to ``scene_pos`` (the pointer)."""
        if self._drag is None:
            return
        port, path = self._drag
        a, b = port.scene_anchor(), scene_pos
        path.setPath(curve(a, b) if port.is_output else curve(b, a))

    def cancel(self) -> bool:
        """Drop the wire being drawn without connecting anything (Esc); False when none was."""
        if self._drag is None:
            return False
        self._end()
        return True

    def _end(self) -> PortItem:
        """The wire's port, once the wire and the ports' marks are gone."""
        assert self._drag is not None
        port, path = self._drag
        self._drag = None
        self.scene.removeItem(path)
        for item in self.scene.node_items.values():
            for p in item.ports.values():
                p.set_state(None)
        return port

    def finish(self, scene_pos: QPointF, screen_pos: QPoint | None) -> None:
        """Drop the wire at ``scene_pos``: connect, refuse with the reason (a tooltip at ``screen_pos``), or offer a
        node there (``edge_dropped``) on empty canvas."""
        if self._drag is None:
            return
        scene = self.scene
        port = self._end()
        under = [i for i in scene.items(scene_pos) if not hasattr(i, "comment_id")]  # a backdrop counts as empty
        target = next((i for i in under if isinstance(i, PortItem)), None)
        if target is None and not under:
            scene.edge_dropped.emit((port.node_id, port.name, port.is_output), scene_pos)
            return
        if target is None or target is port:
            return
        why = self.refusal(port, target)
        if why is None:
            out, inp = (port, target) if port.is_output else (target, port)
            why = scene.connect_ports(out.node_id, out.name, inp.node_id, inp.name)
        if why:
            scene.status.emit(why)
            if screen_pos is not None:  # a test's drop has no screen position; the status bar says it
                QToolTip.showText(screen_pos, why)
