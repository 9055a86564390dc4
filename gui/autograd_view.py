"""The autograd view: the ``grad_fn`` graph behind the loss, drawn as boxes and arrows.

One box per autograd node (``AddBackward0``, ``SumBackward0``, ``MulBackward0``, ``AccumulateGrad``...)
with the graph node that created it underneath, laid out by ``core.nodegraph.explain.autograd_layout`` with the
loss's ``grad_fn`` on top and the arrows pointing the way gradients flow, down to the leaves, each labelled with
the shape of the gradient it carries. After training it shows the last training step's graph
(``core.nodegraph.explain.autograd_rows``) and its caption says which. Linked both
ways with the canvas: ``highlight_owner(node_id)`` marks the boxes a selected graph node created, and
clicking a box emits ``node_selected(node_id)``. During Backward step the box being processed is
highlighted (the last one too, until the next action) and the ones that ran are shaded. The panel under
the graph lists what the running (else the clicked) box saved for backward; each box's tooltip says the same.

``refresh()`` is cheap when the graph kept its shape (every training step makes new autograd nodes of
the same structure): the boxes stay and only their data and colours change; it lays the graph out
again only when the structure changed.
"""

from __future__ import annotations

from html import escape
from typing import TYPE_CHECKING

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QShowEvent
from PySide6.QtWidgets import QLabel, QSplitter, QTextBrowser, QVBoxLayout, QWidget

from core.nodegraph.explain.autograd_layout import layout_autograd
from core.nodegraph.explain.autograd_rows import Row, autograd_rows, grad_label
from gui.autograd_graph_view import AutogradGraphView
from gui.autograd_items import BOX_H, AutogradBox, GradientEdge, box_width

if TYPE_CHECKING:
    from core.nodegraph.model.events import SessionEvent
    from gui.session_bridge import SessionBridge

__all__ = ["AutogradView"]

HINT = "Run Forward to see the autograd graph"
NO_GRAD_FN = "The loss has no grad_fn: does any input require grad?"
NAVIGATE = " · wheel zooms, drag pans"
ORIGINS = {"forward": "{n} autograd nodes behind the loss",
           "train": "{n} autograd nodes of the last training step (its backward freed what they saved)"}
REPLAYED = ("{n} autograd nodes of the last training step, a replay of its captured pass (core.compile): "
            "CompiledFunctionBackward stands for the recorded ops; Step runs one eagerly, with a node per op")
FREED_BY_TRAINING = "its saved tensors were freed by the training step's backward (training keeps no copy: run "\
                    "Forward to see them)"


class AutogradView(QWidget):
    node_selected = Signal(str)

    def __init__(self, bridge: SessionBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("autogradView")
        self.bridge = bridge
        self.rows: list[Row] = []
        self.boxes: list[AutogradBox] = []
        self.edges: list[GradientEdge] = []
        self.selected: str | None = None  # the canvas's selected graph node
        self.focus: int | None = None  # the box clicked last (or the first of the selected graph node)
        self.running: int | None = None
        self.done: set[int] = set()
        self.origin: str | None = None  # where the graph comes from (core.nodegraph.explain.autograd_rows)
        self._call: object = None  # the backward call the marks belong to
        self._finished = False  # that call is over: its last box stays "running" until the next action
        self._signature: list[tuple[str, str | None, tuple[int, ...]]] | None = None
        self._fit_pending = False
        self.graph_view = AutogradGraphView()
        self.graph_view.box_clicked.connect(self._clicked)
        self.detail = QTextBrowser()
        self.detail.setObjectName("autogradDetail")
        self.detail.setOpenLinks(False)
        self.caption = QLabel(HINT)
        self.caption.setObjectName("autogradCaption")
        self.caption.setWordWrap(True)
        split = QSplitter(Qt.Orientation.Vertical)
        split.addWidget(self.graph_view)
        split.addWidget(self.detail)
        split.setStretchFactor(0, 3)
        split.setStretchFactor(1, 1)
        split.setSizes([480, 140])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(split, 1)
        bridge.document_changed.connect(self._document_changed)
        layout.addWidget(self.caption)

    def names(self) -> list[str]:
        """The autograd node names, in the order backward runs them (the boxes' indices)."""
        return [r["name"] for r in self.rows]

    def _document_changed(self) -> None:
        """Another document: the last one's autograd nodes go (its session is gone) and their detail with them."""
        self.selected = self.focus = None
        self.detail.clear()
        self.refresh()

    def refresh(self) -> None:
        """Follow the session's last forward: rebuild when the graph's structure changed, else recolour."""
        s = self.bridge.session
        rows, self.origin = autograd_rows(s) if s is not None else ([], None)
        if [r["node"] for r in rows] != [r["node"] for r in self.rows]:
            self.done, self.running, self._call, self._finished = set(), None, None, False
        self.rows = rows
        signature = [(r["name"], r["owner"], tuple(r["next"])) for r in rows]
        if signature != self._signature:
            self._signature = signature
            self._rebuild()
        else:
            for box, row in zip(self.boxes, rows):
                box.row = row
                box.setToolTip(self._describe(box.index))
        if rows and self.origin == "train" and s is not None and s.trainer.replayed:
            caption = REPLAYED.format(n=len(rows)) + NAVIGATE
        elif rows and self.origin is not None:  # rows come with their origin
            caption = ORIGINS[self.origin].format(n=len(rows)) + NAVIGATE
        elif s is not None and (loss := s.loss_node()) is not None and s.values.get(loss):
            caption = NO_GRAD_FN
        else:
            caption = HINT
        self.caption.setText(caption)
        self._paint()

    def on_event(self, event: SessionEvent) -> None:
        """Follow the session: refresh once the loss was computed (or reset, stepped back, failed), highlight
        the node a backward step ran; the last one stays highlighted until the next action."""
        if event.phase == "backward":
            self._on_backward(event)
            return
        session = self.bridge.session
        cleared = self._finished
        if cleared:
            self.done, self.running, self._finished = set(range(len(self.rows))), None, False
        if event.phase in ("reset", "history", "train", "error") or (
                event.phase == "forward" and session is not None and event.node == session.loss_node()):
            self.refresh()
        elif cleared:
            self._paint()

    def _on_backward(self, event: SessionEvent) -> None:
        """Mark the box this backward step ran ``running`` and the one before it ``done``; a new backward call
        starts unmarked. Once the call is over every other box is ``done``; after a Backward step the box that
        ran last stays ``running`` (after a whole Backward nothing is current)."""
        detail = event.detail
        if detail.get("backward_call") != self._call:
            self._call, self.done, self.running, self._finished = detail.get("backward_call"), set(), None, False
        name = detail.get("autograd_node")
        hit = next((i for i, r in enumerate(self.rows)
                    if r["name"] == name and r["owner"] == event.node and i not in self.done and i != self.running),
                   None) if name else None
        if hit is not None:
            if self.running is not None:
                self.done.add(self.running)
            self.running = hit
        if detail.get("done"):
            self.refresh()  # the saved tensors were freed
            if getattr(self.bridge, "action", "backward_step") != "backward_step":
                self.running = None
            self.done = set(range(len(self.rows))) - {self.running}
            self._finished = True
        self._paint()

    def highlight_owner(self, node_id: str | None) -> None:
        """Mark the autograd nodes graph node ``node_id`` created (None clears) and show the first one."""
        self.selected = node_id
        if node_id and (self.focus is None or self.rows[self.focus]["owner"] != node_id):
            self.focus = next((i for i, r in enumerate(self.rows) if r["owner"] == node_id), self.focus)
        self._paint()

    def showEvent(self, event: QShowEvent) -> None:  # Qt override: a graph built while hidden is fitted when shown
        super().showEvent(event)
        if self._fit_pending:
            self._fit_pending = False
            self.graph_view.fit()

    # ----- drawing ---------------------------------------------------------------------------------------
    def _rebuild(self) -> None:
        scene = self.graph_view.scene()
        scene.clear()
        self.focus = None
        titles = [self._label(r) for r in self.rows]
        widths = [box_width(r, t) for r, t in zip(self.rows, titles)]
        lay = layout_autograd(self.rows, widths, box_height=BOX_H)
        self.boxes = []
        for i, (row, title, rect) in enumerate(zip(self.rows, titles, lay.boxes)):
            kind = "leaf" if row["name"] == "AccumulateGrad" else "root" if i == 0 else "op"
            box = AutogradBox(i, row, title, kind, rect)
            box.setToolTip(self._describe(i))
            scene.addItem(box)
            self.boxes.append(box)
        self.edges = [GradientEdge(e, grad_label(self.rows, e["src"], e["dst"])) for e in lay.edges]
        for edge in self.edges:
            scene.addItem(edge)
            if edge.label is not None:
                scene.addItem(edge.label)
        if self.isVisible():
            self.graph_view.fit()
        else:
            self._fit_pending = True

    def _paint(self) -> None:
        for i, box in enumerate(self.boxes):
            box.set_state("running" if i == self.running else
                          "selected" if self.selected and self.rows[i]["owner"] == self.selected else
                          "done" if i in self.done else "normal")
        for edge in self.edges:
            edge.set_flowed(edge.src in self.done or edge.src == self.running)
        shown = self.running if self.running is not None else self.focus
        self.detail.setHtml(self._describe(shown, with_state=True) if shown is not None else
                            "Click a box to see what it saved for backward." if self.rows else "")

    def _owner_title(self, owner: str | None) -> str:
        node = self.bridge.graph.nodes.get(owner) if owner else None
        if node is None:
            return owner or "(no graph node)"
        return f"{node.title or (node.spec.title if node.spec is not None else node.type)} · {owner}"

    def _label(self, row: Row) -> str:
        """A box's second line: the graph node that made it; for AccumulateGrad, the leaf it fills."""
        if row["leaf"]:
            return f"{row['leaf'].split(':')[0]} · {row['owner']}"
        return self._owner_title(row["owner"])

    def _describe(self, i: int, with_state: bool = False) -> str:
        """What box ``i`` is, where its gradient goes, what it saved (and its backward state), as HTML."""
        row = self.rows[i]
        parts = [f"<b>{escape(row['name'])}</b> — made by <i>{escape(self._owner_title(row['owner']))}</i>"]
        if with_state:
            parts[0] += " · " + ("running now" if i == self.running else "ran" if i in self.done else "not run yet")
        if row["next"]:
            targets = ", ".join(f"{self.rows[j]['name']} ({self._label(self.rows[j])})" for j in row["next"])
            parts.append(f"sends gradients to: {escape(targets)}")
        if row["leaf"]:
            parts.append(f"adds the incoming gradient into the .grad of {escape(row['leaf'])}")
        if row["saved"]:
            freed = " (freed by backward: run it again with Retain graph to reuse them)" if row["freed"] else ""
            items = "".join(f"<li>{escape(s)}</li>" for s in row["saved"])
            parts.append(f"saved for backward{freed}:<ul style='margin:0'>{items}</ul>")
        elif row["freed"]:
            parts.append(FREED_BY_TRAINING)
        elif not row["leaf"]:
            parts.append("saved nothing for backward")
        return "<br>".join(parts)

    def _clicked(self, i: int) -> None:
        self.focus = i
        self._paint()
        owner = self.rows[i]["owner"] if 0 <= i < len(self.rows) else None
        if owner:
            self.node_selected.emit(owner)
