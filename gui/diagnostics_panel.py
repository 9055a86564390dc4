"""The diagnostics panel: the session's hints (silent broadcast, no gradient path, NaN, exploding
gradients, loss flat or diverging...) with severity, message and the first thing to try.

Hints come from ``core.nodegraph.explain.diagnostics.diagnose`` (run on this panel's throttled timer when the
session moved, never per training step, with the current run's losses for the trend rules (none after a Reset,
until the next run's first step), or, after steps run by hand, the loss at each Optimizer step since the last Reset
or training run, as a headless ``Diagnostics`` records them). Clicking a
hint emits ``node_selected(node_id)``; the window selects and frames that node. Another document clears the list
until its own session has run; an empty list always says why (``NOT_RUN`` before then, ``NONE_FOUND`` after).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np
from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QBrush, QColor
from PySide6.QtWidgets import QLabel, QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget

import core
from core.nodegraph.explain.diagnostics import Hint, diagnose
from core.nodegraph.model.events import SessionEvent
from core.nodegraph.training.runs import RunHistory
from gui.session_bridge import SessionBridge

__all__ = ["DiagnosticsPanel"]

NOT_RUN = "No problems found yet: hints come when the graph runs (Forward all, F5)"
NONE_FOUND = "No problems found"
COLORS = {"error": QColor(255, 200, 200), "warning": QColor(255, 235, 180), "info": QColor(215, 230, 255)}


class DiagnosticsPanel(QWidget):
    REFRESH_MS = 1000
    node_selected = Signal(str)

    def __init__(self, bridge: SessionBridge, history: RunHistory | None = None, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("diagnosticsPanel")
        self.bridge, self.history = bridge, history
        self.hints: list[Hint] = []
        self.step_losses: list[float] = []  # the loss at each Optimizer step run by hand (the Run menu's loop)
        self._ended_run: object | None = None  # the run a Reset ended: its losses are no trend of the session's now
        self._key: tuple | None = None
        self.tree = QTreeWidget()
        self.tree.setObjectName("diagnosticsTree")
        self.tree.setHeaderLabels(["severity", "node", "message", "first check"])
        self.tree.setRootIsDecorated(False)
        self.tree.itemClicked.connect(self._clicked)
        self.tree.currentItemChanged.connect(lambda item, _before: self._show_detail(item))
        self.detail = QLabel("")  # the current hint in full: the columns of a narrow dock cut its message
        self.detail.setObjectName("diagnosticsDetail")
        self.detail.setWordWrap(True)
        self.detail.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.caption = QLabel(NOT_RUN)
        self.caption.setObjectName("diagnosticsCaption")
        self.caption.setWordWrap(True)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.tree, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.caption)
        self.timer = QTimer(self)
        self.timer.setObjectName("diagnosticsTimer")
        self.timer.timeout.connect(self.refresh)
        self.timer.start(self.REFRESH_MS)
        bridge.document_changed.connect(self.clear)
        bridge.stepped.connect(self._on_step)

    def _on_step(self, event: SessionEvent) -> None:
        """Note the loss at each Optimizer step run by hand (the trend rules read it, as they read a training run's
        losses); a Reset or a training step starts over."""
        if event.phase == "optimizer":
            s = self.bridge.session
            nid = s.loss_node() if s is not None else None
            loss = s.value(nid) if s is not None and nid is not None else None
            if isinstance(loss, core.Tensor) and loss.numel() == 1:
                self.step_losses.append(float(loss.detach().item()))
        elif event.phase in ("reset", "train"):
            self.step_losses = []
            if event.phase == "reset" and self.history is not None:
                self._ended_run = self.history.current

    def clear(self) -> None:
        """Another document: the last one's hints go (they named its nodes); the new one's come with its session."""
        self._key = None
        self.hints, self.step_losses = [], []
        self.tree.clear()
        self.detail.setText("")
        self.caption.setText(NOT_RUN)

    def refresh(self, force: bool = False) -> list:
        s = self.bridge.session
        if s is None:
            return self.hints
        run = self.history.current if self.history is not None else None
        key = (id(s), s.step_count, len(s.values), getattr(s.ledger, "backward_calls", 0), len(run) if run else 0,
               len(self.step_losses))
        if key == self._key and not force:
            return self.hints
        self._key = key
        if self.step_losses:  # steps by hand since the last Reset or run
            losses = [v for v in self.step_losses[-200:] if np.isfinite(v)]
        elif run is self._ended_run:  # reset since that run's last step (lesson 6's diverging loop is gone)
            losses = []
        else:
            losses = [float(v) for v in run.series("loss")[-200:] if np.isfinite(v)] if run is not None else []
        self.show_hints(diagnose(s, losses))
        return self.hints

    def show_hints(self, hints: Iterable[Hint]) -> None:
        self.hints = list(hints)
        self.tree.clear()
        graph = self.bridge.graph
        for h in self.hints:
            node = graph.nodes.get(h.node_id) if h.node_id else None
            where = f"{node.title or node.type} ({h.node_id})" if node is not None else (h.node_id or "graph")
            item = QTreeWidgetItem(self.tree, [h.severity, where, h.message, h.fix])
            for c in range(4):
                item.setBackground(c, QBrush(COLORS.get(h.severity, QColor(255, 255, 255))))
            item.setToolTip(2, h.message)
            item.setToolTip(3, h.fix)
        self.caption.setText(f"{len(self.hints)} hint(s): click one to see its node" if self.hints
                             else NONE_FOUND)
        self._show_detail(self.tree.topLevelItem(0))  # the first in full until the reader picks another

    def _show_detail(self, item: QTreeWidgetItem | None) -> None:
        """The hint of ``item`` in full, under the list: where, what, and the first thing to check."""
        if item is None or not 0 <= (i := self.tree.indexOfTopLevelItem(item)) < len(self.hints):
            self.detail.setText("")
            return
        h = self.hints[i]
        self.detail.setText(f"{h.severity} at {item.text(1)}: {h.message}\nFirst check: {h.fix}")

    def _clicked(self, item: QTreeWidgetItem, _column: int) -> None:
        i = self.tree.indexOfTopLevelItem(item)
        if 0 <= i < len(self.hints) and self.hints[i].node_id:
            self.node_selected.emit(self.hints[i].node_id)
