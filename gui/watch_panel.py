"""The Watch dock: the pinned ports with their value and gradient now, a remove button each, and the watch
plot of their history. ``gui.training.controls`` docks it beside the Plots dock and pins what the inspector's
Watch buttons and the canvas's port menu (``gui.watch_menu``) ask for.

The recording is ``core.nodegraph.training.watch.WatchList`` (headless, fed by the session's events); this panel
keeps one per document, attaches it to the bridge's session as soon as the bridge makes one (so no step
goes unrecorded) and redraws the table on a throttled timer. ``pin`` emits a refusal (bad key, unknown
node) on ``message``.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtWidgets import (
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from core.nodegraph.model.names import key_label
from core.nodegraph.training.watch import WatchList
from gui.plots.watch_plot import WatchPlot

if TYPE_CHECKING:
    from gui.session_bridge import SessionBridge

__all__ = ["WatchPanel"]


def _number(x: float) -> str:
    return "—" if math.isnan(x) else f"{x:.4g}"


class WatchPanel(QWidget):
    REFRESH_MS = 250
    message = Signal(str)

    def __init__(self, bridge: SessionBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watchPanel")
        self.bridge = bridge
        self.watch = WatchList(bridge.graph)
        self.table = QTableWidget(0, 4)
        self.table.setObjectName("watchTable")
        self.table.setHorizontalHeaderLabels(["port", "value now", "grad now", ""])
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.verticalHeader().hide()
        self.table.setEditTriggers(QTableWidget.EditTrigger.NoEditTriggers)
        self.hint = QLabel("Pin a port with a Watch button in the Inspector")
        self.hint.setObjectName("watchHint")
        self.plot = WatchPlot(self.watch)
        left = QWidget()
        column = QVBoxLayout(left)
        column.setContentsMargins(0, 0, 0, 0)
        column.addWidget(self.table, 1)
        column.addWidget(self.hint)
        split = QSplitter(Qt.Orientation.Horizontal)
        split.addWidget(left)
        split.addWidget(self.plot)
        split.setSizes([400, 600])
        layout = QHBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(split)
        self._rows: list[str] = []
        bridge.session_created.connect(self.sync)
        self.timer = QTimer(self)
        self.timer.setObjectName("watchPanelTimer")
        self.timer.timeout.connect(self.refresh)
        self.timer.start(self.REFRESH_MS)
        self.sync()

    def sync(self, *_args: object) -> None:
        """Follow the bridge: a new document gets its own watch list, a new session is recorded from."""
        if self.watch.graph is not self.bridge.graph:
            self.watch.detach()
            self.watch = WatchList(self.bridge.graph)
            self.plot.set_watch(self.watch)
        if self.bridge.session is not None and self.bridge.session.graph is self.watch.graph:
            self.watch.attach(self.bridge.session)

    def pin(self, key: str) -> str | None:
        """Watch ``key`` ("node.port"); returns (and emits on ``message``) why it was refused, else None."""
        self.sync()
        error = self.watch.add(key)
        if error is not None:
            self.message.emit(error)
            return error
        self.message.emit(f"Watching {key_label(self.watch.graph, key)}")
        self.refresh()
        self.plot.refresh()
        return None

    def unpin(self, key: str) -> None:
        self.watch.remove(key)
        self.refresh()
        self.plot.refresh()

    def refresh(self) -> None:
        self.sync()
        keys = self.watch.keys
        if keys != self._rows:
            self._rebuild(keys)
        for row, key in enumerate(keys):
            latest = self.watch.latest(key)
            vlabel, glabel = self.watch.labels(key)
            value = "—" if latest is None else _number(latest[1])
            grad = "—" if latest is None else _number(latest[2])
            if self.watch.graph is not None and key.split(".", 1)[0] not in self.watch.graph.nodes:
                value, vlabel, grad, glabel = "node removed", "value", "", "grad"
            self._set_cell(row, 1, value if vlabel == "value" else f"{value} ({vlabel})")
            self._set_cell(row, 2, grad if glabel == "grad" else f"{grad} ({glabel})")

    def _set_cell(self, row: int, column: int, text: str) -> None:
        item = self.table.item(row, column)
        if item is not None:  # _rebuild gives every row its items
            item.setText(text)

    def _rebuild(self, keys: list[str]) -> None:
        self._rows = list(keys)
        self.table.setRowCount(0)  # drops the old rows' buttons
        self.table.setRowCount(len(keys))
        for row, key in enumerate(keys):
            self.table.setItem(row, 0, QTableWidgetItem(key_label(self.watch.graph, key)))
            self.table.setItem(row, 1, QTableWidgetItem("—"))
            self.table.setItem(row, 2, QTableWidgetItem("—"))
            button = QPushButton("✕")
            button.setObjectName(f"watchRemove_{key}")
            button.setAccessibleName(f"Remove {key_label(self.watch.graph, key)}")
            button.setFixedWidth(28)
            button.setToolTip(f"Stop watching {key_label(self.watch.graph, key)}")
            button.clicked.connect(lambda _=False, k=key: self.unpin(k))
            self.table.setCellWidget(row, 3, button)
        self.hint.setVisible(not keys)

    def remove_button(self, key: str) -> QPushButton:
        return cast(QPushButton, self.table.cellWidget(self._rows.index(key), 3))

