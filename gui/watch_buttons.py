"""A row of "Watch" buttons, one per port of the inspected node (its outputs and the tensors it owns, such as
a layer's weight); clicking one emits ``watch_requested("node.port")``. The inspector shows it; the Watch
dock (``gui.watch_panel``) pins what it asks for.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QLabel, QPushButton, QWidget

from gui.flow_layout import FlowLayout

if TYPE_CHECKING:
    from core.nodegraph.model.document import Node
    from core.nodegraph.run.session import Session

__all__ = ["WatchButtons", "watchable_ports"]


def watchable_ports(node: Node | None, session: Session | None) -> list[str]:
    """The node's output port names, then the parameters its session state owns (``Session.parameters``)."""
    if node is None:
        return []
    if node.graph is not None:
        names = [p.get("name") for p in node.graph.get("outputs", ()) if isinstance(p, dict)]
    else:
        names = [p.name for p in node.spec.outputs] if node.spec is not None else []
    if session is not None and session.states.get(node.id):
        prefix = node.id + "."
        names += [k[len(prefix):] for k in session.parameters() if k.startswith(prefix)]
    return list(dict.fromkeys(n for n in names if isinstance(n, str)))


class WatchButtons(QWidget):
    """The buttons wrap to the width they have (``FlowLayout``): a layer's many parameters take more rows, never
    a sideways scroll bar in a narrow Inspector."""

    watch_requested = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watchButtons")
        self.node_id: str | None = None
        self.ports: list[str] = []
        self.name: str | None = None
        self.labels: dict[str, str] = {}
        self.buttons: dict[str, QPushButton] = {}
        self.flow = FlowLayout(self)
        self.flow.addWidget(QLabel("Watch:"))
        self.hide()

    def set_ports(self, node_id: str | None, ports: list[str], name: str | None = None,
                  labels: dict[str, str] | None = None) -> None:
        """One button per port of ``node_id`` (rebuilt only when the node, its ports, its ``name``, the title
        the tooltips say, or the ``labels`` the buttons read changed: a block's inner ``n4.weight`` reads
        ``model.weight``)."""
        labels = labels or {}
        if node_id == self.node_id and ports == self.ports and name == self.name and labels == self.labels:
            return
        self.node_id, self.ports, self.name, self.labels = node_id, list(ports), name, dict(labels)
        for button in self.buttons.values():
            self.flow.removeWidget(button)
            button.hide()
            button.deleteLater()
        self.buttons = {}
        for port in self.ports:
            text = labels.get(port, port)
            button = QPushButton(text)
            button.setObjectName(f"inspectorWatch_{port}")
            shown = name or node_id
            button.setToolTip(f"Watch {shown if port == 'out' else f'{shown}.{text}'}: plot its value and gradient "
                              "over steps (Watch dock)")
            button.clicked.connect(lambda _=False, p=port: self.watch_requested.emit(f"{self.node_id}.{p}"))
            self.flow.addWidget(button)
            self.buttons[port] = button
        self.setVisible(bool(self.ports))
