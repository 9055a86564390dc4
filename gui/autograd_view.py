"""The autograd view: the ``grad_fn`` graph behind the last forward, in the order backward runs it.

One row per autograd node (``AddBackward0``, ``SumBackward0``, ``MulBackward0``, ``AccumulateGrad``...)
with the graph node that created it, the nodes it sends gradients to and what it saved for backward.
Linked both ways with the canvas: ``highlight_owner(node_id)`` marks the rows a selected graph node
created, and clicking a row emits ``node_selected(node_id)``. During Backward step the row being
processed is highlighted. Rows come from ``core.nodegraph.trainview.autograd_graph``.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

from core.nodegraph.trainview import autograd_graph

__all__ = ["AutogradView"]

SELECTED = QColor(255, 236, 160)
RUNNING = QColor(255, 170, 120)
DONE = QColor(225, 225, 225)


class AutogradView(QWidget):
    node_selected = Signal(str)

    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.setObjectName("autogradView")
        self.bridge = bridge
        self.rows: list = []
        self.selected = None
        self.running = None
        self.done: set = set()
        self.tree = QTreeWidget(objectName="autogradTree")
        self.tree.setHeaderLabels(["autograd node", "graph node", "sends grad to", "saved for backward"])
        self.tree.setRootIsDecorated(False)
        self.tree.itemClicked.connect(self._clicked)
        self.caption = QLabel("Run Forward to see the autograd graph", objectName="autogradCaption")
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.caption)

    def names(self) -> list:
        """The listed autograd node names, in backward order."""
        return [r["name"] for r in self.rows]

    def refresh(self) -> None:
        """Rebuild the rows from the session's last forward."""
        s = self.bridge.session
        rows = autograd_graph(s) if s is not None else []
        if [r["node"] for r in rows] != [r["node"] for r in self.rows]:
            self.done = set()
            self.running = None
        self.rows = rows
        self.tree.clear()
        graph = self.bridge.graph
        for r in rows:
            owner = r["owner"]
            title = f"{graph.nodes[owner].title or graph.nodes[owner].type} ({owner})" if owner in graph.nodes else ""
            targets = ", ".join(rows[i]["name"] for i in r["next"])
            QTreeWidgetItem(self.tree, [r["name"], title, targets, "; ".join(r["saved"])])
        self.caption.setText(f"{len(rows)} autograd nodes behind the loss" if rows
                             else "Run Forward to see the autograd graph")
        self._paint()

    def on_event(self, event) -> None:
        """Follow the session: rebuild after forward/reset, highlight the node a backward step ran."""
        if event.phase in ("forward", "reset", "history", "train"):
            self.refresh()
        elif event.phase == "backward":
            name = event.detail.get("autograd_node")
            hit = next((i for i, r in enumerate(self.rows)
                        if r["name"] == name and r["owner"] == event.node and i not in self.done), None)
            if hit is not None:
                if self.running is not None:
                    self.done.add(self.running)
                self.running = hit
            if event.detail.get("done"):
                self.done, self.running = set(range(len(self.rows))), None
            self._paint()

    def highlight_owner(self, node_id) -> None:
        """Mark the autograd nodes graph node ``node_id`` created (None clears)."""
        self.selected = node_id
        self._paint()

    def _paint(self) -> None:
        for i, r in enumerate(self.rows):
            item = self.tree.topLevelItem(i)
            if item is None:
                continue
            color = (RUNNING if i == self.running else SELECTED if self.selected and r["owner"] == self.selected
                     else DONE if i in self.done else None)
            for c in range(4):
                item.setBackground(c, QBrush(color) if color is not None else QBrush())

    def _clicked(self, item, _column) -> None:
        i = self.tree.indexOfTopLevelItem(item)
        owner = self.rows[i]["owner"] if 0 <= i < len(self.rows) else None
        if owner:
            self.node_selected.emit(owner)
