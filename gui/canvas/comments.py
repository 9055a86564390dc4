"""Comments and groups on the canvas: mirrors the document's comments as backdrops and edits them.

``CommentLayer`` follows the scene's document (comment_added/removed/changed, reset, a replaced graph)
and turns gestures into commands: Group selection and Add comment (Edit menu), dragging a backdrop (one
"Move group" step: the rectangle and every moved node), resizing it, and renaming it (double-click on
its title). Deleting a selected backdrop goes through the scene's Delete.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPointF, QRectF
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QInputDialog

from core.nodegraph.model import commands
from gui.canvas.comment_item import TITLE_H, CommentItem

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, GraphEvent
    from gui.canvas.scene import GraphScene
    from gui.canvas.view import GraphView

MARGIN = 20.0


class CommentLayer(QObject):
    def __init__(self, scene: GraphScene, view: GraphView | None = None) -> None:
        super().__init__(scene)
        self.setObjectName("commentLayer")
        self.scene, self.view = scene, view
        self.items: dict[str, CommentItem] = {}
        self.graph: Graph = scene.graph  # attach subscribes to it
        self.attach(scene.graph)
        scene.installEventFilter(self)

    # ----- mirroring ------------------------------------------------------------------------------
    def attach(self, graph: Graph) -> None:
        """Follow ``graph`` (the scene's document, after New/Open)."""
        self.graph.unsubscribe(self._on_event)
        self.graph = graph
        graph.subscribe(self._on_event)
        self._rebuild()

    def _rebuild(self) -> None:
        for item in self.items.values():
            self.scene.removeItem(item)
        self.items = {}
        for cid in self.graph.comments:
            self._add(cid)

    def _add(self, cid: str) -> None:
        item = CommentItem(self.graph.comments[cid], lambda nid: self.scene.node_items.get(nid))
        item.on_double_click = self._double_clicked
        self.items[cid] = item
        self.scene.addItem(item)

    def _on_event(self, event: GraphEvent) -> None:
        cid = event.detail
        if event.kind == "comment_added":
            self._add(cid)
        elif event.kind == "comment_removed" and cid in self.items:
            self.scene.removeItem(self.items.pop(cid))
        elif event.kind == "comment_changed" and cid in self.items:
            self.items[cid].sync(self.graph.comments[cid])
        elif event.kind == "reset":
            self._rebuild()

    def fit_members(self) -> None:
        """Every backdrop drawn big enough for its member nodes as they are now (they grow with their values)."""
        for item in self.items.values():
            item.fit_members()

    # ----- edits ----------------------------------------------------------------------------------
    def group_selection(self, text: str = "Group") -> str | None:
        """A backdrop around the selected nodes that carries them; returns its id (None if nothing selected)."""
        chosen = set(self.scene.selected_node_ids())
        ids = [nid for nid in self.graph.nodes if nid in chosen]  # document order: files diff cleanly
        if not ids:
            self.scene.status.emit("select the nodes to group first")
            return None
        rect = QRectF()
        for nid in ids:
            rect = rect.united(self.scene.node_items[nid].sceneBoundingRect())
        rect = rect.adjusted(-MARGIN, -MARGIN - TITLE_H, MARGIN, MARGIN)
        cmd = commands.AddComment({"text": text, "nodes": ids,
                                   "rect": [rect.x(), rect.y(), rect.width(), rect.height()]})
        return None if self.scene.edit(cmd) else cmd.comment["id"]

    def add_comment(self, pos: QPointF, text: str = "Comment") -> str | None:
        """An empty comment backdrop with its corner at ``pos`` (a scene point); returns its id."""
        cmd = commands.AddComment({"text": text, "rect": [pos.x(), pos.y(), 240.0, 120.0]})
        return None if self.scene.edit(cmd) else cmd.comment["id"]

    def rename(self, cid: str, text: str) -> None:
        if text != self.graph.comments[cid].text:
            self.scene.edit(commands.UpdateComment(cid, text=text))

    def commit(self) -> bool:
        """One command for backdrops dragged or resized away from the document, with the nodes that moved."""
        changed = [commands.UpdateComment(cid, rect=item.rect()) for cid, item in self.items.items()
                   if tuple(self.graph.comments[cid].rect) != item.rect()]
        if not changed:
            return False
        moved = {nid: (item.pos().x(), item.pos().y()) for nid, item in self.scene.node_items.items()
                 if tuple(self.graph.node(nid).position) != (item.pos().x(), item.pos().y())}
        cmds = changed + ([commands.MoveNodes(moved)] if moved else [])
        self.scene.edit(commands.Macro("Move group" if moved else "Resize comment", cmds))
        return True

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override: commit before the scene's own move
        if event.type() == QEvent.Type.GraphicsSceneMouseRelease:
            self.commit()
        return False

    def _double_clicked(self, item: CommentItem, scene_pos: QPointF, on_title: bool) -> None:
        if not on_title:
            if self.view is not None:
                self.view.palette_requested.emit(scene_pos)
            return
        text, ok = QInputDialog.getText(self.view, "Comment", "Text:", text=item.text)
        if ok:
            self.rename(item.comment_id, text)


def make_actions(layer: CommentLayer, parent: QObject | None = None) -> dict[str, QAction]:
    """Edit ▸ Group selection and Add comment (at the view's centre) on ``layer``; the window places them."""
    actions = {}
    def add_at_centre() -> str | None:
        view = layer.view
        return layer.add_comment(view.center_scene() if view is not None else QPointF())  # the window's has a view

    slots: tuple[tuple[str, str, str, Callable[[], str | None]], ...] = (
        ("group", "&Group selection", "Ctrl+Alt+G", layer.group_selection),
        ("add_comment", "Add co&mment", "Ctrl+Alt+M", add_at_centre))
    for name, text, shortcut, slot in slots:
        act = QAction(text, parent)
        act.setObjectName(f"action_{name}")
        act.setShortcut(QKeySequence(shortcut))
        act.setStatusTip("Put a backdrop behind the selected nodes; dragging it moves them" if name == "group"
                         else "Put a comment backdrop on the canvas")
        act.triggered.connect(lambda _c=False, f=slot: f())
        actions[name] = act
    return actions
