"""The canvas scene: mirrors one Graph through its events and turns mouse gestures into commands.

Items are created and removed only in ``_on_graph_event`` (node_added, edge_removed, ...), never by the
code that issues an edit, so undo, redo, paste and file loads all redraw the same way. Edits go through
``edit(command)``, which does the Qt-free command and pushes it on the undo stack only when it succeeded;
a refusal is emitted on ``status`` (and shown as a tooltip when it came from a drag). Which edges are drawn over
the nodes is kept by ``EdgeStacking`` (``gui.canvas.edge_stacking``), and a wire drawn from a port by ``WireDrag``
(``gui.canvas.wire_drag``), each composed here.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Collection, Container, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QPoint, QPointF, QRect, QRectF, Qt, Signal
from PySide6.QtGui import QBrush, QPainter, QUndoStack
from PySide6.QtWidgets import QGraphicsScene, QGraphicsSceneMouseEvent

from core.nodegraph.model import commands, edge_routes, layout
from core.nodegraph.model.document import Node
from core.nodegraph.model.names import free_label
from gui import style
from gui.canvas import overview, stacking
from gui.canvas.edge_item import EdgeItem, EdgeLabel
from gui.canvas.edge_stacking import EdgeStacking
from gui.canvas.node_item import NodeDisplay, NodeItem
from gui.canvas.port_item import PortItem
from gui.canvas.view import GraphView
from gui.canvas.wire_drag import WireDrag
from gui.undo import push

if TYPE_CHECKING:
    from core.nodegraph.model.commands import Command
    from core.nodegraph.model.document import Edge, Graph, GraphEvent
    from core.nodegraph.run.inspection import PortInfo
    from gui.canvas.overview import GraphOverview

# Qt's own depth (log2 of the item count: 17 for 20,000 nodes with their ports and edges) leaves about one item a
# leaf, and an edge or node lies in tens to hundreds of leaves: a repaint with the whole graph in view walked
# millions of leaf entries (27-40 ms of a frame). At 11 (2,048 leaves) it takes 8-10 ms, and a repaint at normal
# zoom as long as with Qt's depth (at 10, half zoom was 10% slower; at 12, the whole graph 1 ms slower).
BSP_DEPTH = 11
PortEnd = tuple[str, str, bool]  # (node id, port, is_output): one end of an edge being drawn


class GraphScene(QGraphicsScene):
    """``status`` carries refusals and messages; ``edited`` fires after every successful edit."""

    status = Signal(str)
    edited = Signal()
    edge_dropped = Signal(object, object)  # (node id, port, is_output) of the dragged end, scene point

    def __init__(self, graph: Graph, undo_stack: QUndoStack, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("graphScene")
        self.setBackgroundBrush(QBrush(style.SCENE_BG))
        self.setBspTreeDepth(BSP_DEPTH)
        self.undo_stack = undo_stack
        self.graph = graph
        self.node_items: dict[str, NodeItem] = {}
        self.edge_items: dict[Edge, EdgeItem] = {}
        self.edge_stacking = EdgeStacking(self)  # which edges are drawn over which nodes (gui.canvas.edge_stacking)
        self.wire = WireDrag(self)  # the edge being drawn from a port, while one is (gui.canvas.wire_drag)
        self._syncing = False
        # node id -> NodeDisplay for a node that just appeared, set by the window
        self.display_for: Callable[[str], NodeDisplay] | None = None
        # (node id, port) -> PortInfo or None, set by the window when a session runs
        self.port_info: Callable[[str, str], PortInfo | None] | None = None
        # (node id, port) -> the chain-rule text of its gradient or None, set likewise
        self.port_story: Callable[[str, str], str | None] | None = None
        self.simple = False  # zoomed out: one item draws the graph (gui.canvas.overview)
        self.labels_grown = False  # a little zoomed out: edge labels drawn at zoom 0.6's size (gui.canvas.view)
        self.overview: GraphOverview | None = None
        self.rendering_small = False  # while the minimap renders its picture (no badges there)
        self.selectionChanged.connect(lambda: overview.changed(self))
        self._rebuild()
        graph.subscribe(self._on_graph_event)

    # ----- mirroring the document ------------------------------------------------------------------
    def set_graph(self, graph: Graph) -> None:
        """Show another document (New/Open); items are rebuilt from it."""
        self.graph.unsubscribe(self._on_graph_event)
        self.graph = graph
        self._rebuild()
        graph.subscribe(self._on_graph_event)

    def _rebuild(self) -> None:
        for item in [*self.node_items.values(), *self.edge_items.values()]:
            self.removeItem(item)
        self.node_items, self.edge_items = {}, {}
        for nid in self.graph.nodes:
            self._add_node_item(nid)
        self.edge_stacking.clear()  # the edges drawn over the nodes, each with the nodes whose boxes it passes through
        for e in self.graph.edges:
            self._add_edge_item(e, restack=False)  # stacked below, at once for all: most need nothing
        # NOTE: a file's own layout (or one saved by hand) can run an edge through a node it does not join
        self.edge_stacking.many((), {nid: stacking.box(item.mapRectToScene(item.body_rect()))
                                     for nid, item in self.node_items.items()})

    def _add_node_item(self, nid: str) -> None:
        node = self.graph.node(nid)
        item = NodeItem(node, node.spec, self.graph.port_names(nid))
        self.node_items[nid] = item
        self.addItem(item)
        overview.item_added(self, item)
        if self.display_for is not None:
            item.set_display(self.display_for(nid))

    def _add_edge_item(self, edge: Edge, restack: bool = True) -> None:
        src, dst = self.node_items.get(edge.src), self.node_items.get(edge.dst)
        sp = src.port(edge.src_port, True) if src else None
        dp = dst.port(edge.dst_port, False) if dst else None
        if src is not None and sp is None and src.placeholder:  # a placeholder keeps the edges it came with
            sp = src.add_placeholder_port(edge.src_port, True)
        if dst is not None and dp is None and dst.placeholder:
            dp = dst.add_placeholder_port(edge.dst_port, False)
        if sp is None or dp is None:
            return
        item = EdgeItem(edge, sp, dp)
        self.edge_items[edge] = item
        self.addItem(item)
        if restack:
            self.edge_stacking.restack(item)
        overview.item_added(self, item)

    def _on_graph_event(self, event: GraphEvent) -> None:
        kind, nid, edge = event.kind, event.node_id, event.edge
        if kind == "node_added" and nid is not None:
            self._add_node_item(nid)
            self._move_labels_off(nid)
            self.edge_stacking.around(nid)
        elif kind == "node_removed":
            node_item = self.node_items.pop(nid, None) if nid is not None else None
            if node_item is not None and nid is not None:
                self.removeItem(node_item)
                self.edge_stacking.around(nid)
        elif kind == "edge_added" and edge is not None:
            self._add_edge_item(edge)
        elif kind == "edge_removed":
            edge_item = self.edge_items.pop(edge, None) if edge is not None else None
            if edge_item is not None:
                self.removeItem(edge_item)
                self.edge_stacking.forget(edge_item.edge)
        elif kind == "node_moved" and nid is not None:
            self._syncing = True
            self.node_items[nid].setPos(*self.graph.node(nid).position)
            self._syncing = False
            self._move_labels_off(nid)
        elif kind in ("node_changed", "param_changed") and nid is not None:
            self._refresh_node(nid)
        elif kind == "reset":
            self._rebuild()
        overview.changed(self)

    def _move_labels_off(self, nid: str) -> None:
        """Place again the labels of other edges that the node ``nid``, just added or moved, now covers: a label
        keeps off nodes where it is placed, but a node put on it later hid it (Tab's randn over the chapter's
        ``() scalar``)."""
        item = self.node_items.get(nid)
        if item is None:
            return
        covered = {id(it) for it in self.items(item.mapRectToScene(item.body_rect())) if isinstance(it, EdgeLabel)}
        if not covered:  # the scene's index answers for most nodes: no edge to look through (a layout moves all)
            return
        for e, edge_item in self.edge_items.items():
            if nid not in (e.src, e.dst) and edge_item.label_text and id(edge_item.label) in covered:
                edge_item.update_path()

    def _refresh_node(self, nid: str) -> None:
        """Rebuild one node's item (its title or, for dynamic nodes, its ports may have changed)."""
        old = self.node_items.pop(nid, None)
        display, selected = (old.display, old.isSelected()) if old else (NodeDisplay(), False)
        edges = [e for e in self.edge_items if nid in (e.src, e.dst)]
        for e in edges:
            self.removeItem(self.edge_items.pop(e))
        if old is not None:
            self.removeItem(old)
        self._add_node_item(nid)
        if self.display_for is None:
            self.node_items[nid].set_display(display)
        self.node_items[nid].setSelected(selected)
        for e in edges:
            self._add_edge_item(e)
        self.edge_stacking.around(nid)  # its size may have changed with its ports

    def node_item_moved(self, nid: str) -> None:
        overview.changed(self)
        for e, item in self.edge_items.items():
            if nid in (e.src, e.dst):
                item.update_path()
                self.edge_stacking.restack(item)
        self.edge_stacking.around(nid)


    # ----- edits ----------------------------------------------------------------------------------
    def edit(self, command: Command) -> str | None:
        """Do and push ``command``; returns the refusal message (also emitted on ``status``) or None."""
        error = push(self.undo_stack, self.graph, command)
        if error:
            self.status.emit(error)
        else:
            self.edited.emit()
        return error

    # ----- where new nodes go -----------------------------------------------------------------------------
    def item_sizes(self) -> dict[str, layout.Point]:
        """``{node id: (width, height)}`` as drawn now (layout takes the larger of this and its size model)."""
        return {nid: (item.body_rect().width(), item.body_rect().height()) for nid, item in self.node_items.items()}

    def room_for(self, node: dict[str, Any], pos: Sequence[float]) -> layout.Point:
        """The free place nearest to ``pos`` for the node ``node`` ({type, params}) to appear at: clear of the nodes
        and off the edges' curves (Tab over an edge put the new node on its line)."""
        size = layout.node_size(Node.from_dict({"id": "new", **node}))
        near = (pos[0], pos[1])
        curves = edge_routes.edge_curves(self.graph, within=layout.search_area(size, near))  # off edges' lines too
        return layout.free_spot(layout.occupied(self.graph, self.item_sizes()), size, near, curves=curves)

    def new_node_anchor(self, fallback: QPointF) -> layout.Point:
        """Where a node added without a pointed-at place goes: right of the selection, else around ``fallback``
        (the view's centre)."""
        rect = QRectF()
        for item in self.selectedItems():
            if isinstance(item, NodeItem):
                rect = rect.united(item.mapRectToScene(item.body_rect()))
        if not rect.isNull():
            return rect.right() + layout.GAP[0], rect.top()
        return fallback.x() - layout.NODE_WIDTH / 2, fallback.y() - layout.TITLE_H

    def add_node(self, type_id: str, pos: Sequence[float] = (0.0, 0.0),
                 params: Mapping[str, Any] | None = None) -> str | None:
        """Add a node of ``type_id`` at the free place nearest ``pos`` and select it (the Inspector shows its
        parameters); returns its id (None when refused)."""
        node = {"type": type_id, "params": dict(params or {})}
        x, y = self.room_for(node, pos)
        cmd = commands.AddNode({**node, "position": [x, y]}, distinct=True)
        return None if self.edit(cmd) else self._select_only(cmd.node["id"])

    def add_connected(self, type_id: str, pos: Sequence[float], end: PortEnd) -> str | None:
        """Add a node and wire it to ``end`` = (node id, port, is_output) in one undo step and select it; returns
        its id."""
        from core.nodegraph.model.spec import get_spec

        nid, port, is_output = end
        spec = get_spec(type_id)
        ports = [p.name for p in (spec.inputs if is_output else spec.outputs)]
        if not ports:
            self.status.emit(f"{spec.title} has no {'inputs' if is_output else 'outputs'} to connect")
            return None
        new = self.graph.new_id()
        link = (nid, port, new, ports[0]) if is_output else (new, ports[0], nid, port)
        x, y = self.room_for({"type": type_id}, pos)
        label = free_label(self.graph, spec.title)  # the title AddNode(distinct=True) gives it (randn_2)
        cmd = commands.Macro(f"Add node {label} and connect", [
            commands.AddNode({"id": new, "type": type_id, "position": [x, y]}, distinct=True), commands.Connect(*link)])
        return None if self.edit(cmd) else self._select_only(new)

    def _select_only(self, nid: str) -> str:
        """Make ``nid`` the selection (a node just added); returns it."""
        self.select_nodes([nid])
        return nid

    def select_nodes(self, node_ids: Collection[str]) -> None:
        """Make the nodes ``node_ids`` (those drawn) the selection: what an edit just made, such as a block's inside
        after Expand, is what the user works on next."""
        self.clearSelection()
        for nid in node_ids:
            item = self.node_items.get(nid)
            if item is not None:
                item.setSelected(True)

    def refusal(self, src: str, src_port: str, dst: str, dst_port: str) -> str | None:
        """Why an edge can't be made (None when it can); an occupied input is fine (it is replaced)."""
        ok, why = self.graph.can_connect((src, src_port), (dst, dst_port))
        return None if ok else why

    def connect_ports(self, src: str, src_port: str, dst: str, dst_port: str) -> str | None:
        """Connect an output to an input (replacing its edge, one undo step); returns the refusal or None."""
        why = self.refusal(src, src_port, dst, dst_port)
        if why:
            self.status.emit(why)
            return why
        return self.edit(commands.Connect(src, src_port, dst, dst_port))

    def selected_node_ids(self) -> list[str]:
        return [i.node_id for i in self.selectedItems() if isinstance(i, NodeItem)]

    def auto_layout(self, node_ids: Collection[str] | None = None) -> None:
        """Lay the selection (or every node) out left to right by depth (core.nodegraph.model.layout), a selection
        moved clear of the other nodes: one MoveNodes."""
        sizes = self.item_sizes()
        positions = layout.layered(self.graph, node_ids or self.selected_node_ids(), sizes=sizes)
        if len(positions) < len(self.graph.nodes):
            positions = layout.clear_of_others(self.graph, positions, sizes)
        self.move_nodes(positions)

    def move_nodes(self, positions: Mapping[str, Sequence[float]]) -> None:
        """Move nodes to ``{id: (x, y)}`` in one undo step; nodes already there are left out."""
        moves = {n: p for n, p in positions.items() if tuple(self.graph.node(n).position) != tuple(p)}
        if moves:
            self.edit(commands.MoveNodes(moves))

    def delete_selected(self) -> None:
        nodes = self.selected_node_ids()
        edges = [i.edge for i in self.selectedItems() if isinstance(i, EdgeItem) and i.edge.src not in nodes
                 and i.edge.dst not in nodes]
        cmds: list[Command] = [commands.Disconnect(*e) for e in edges]
        cmds += [commands.RemoveComment(i.comment_id) for i in self.selectedItems() if hasattr(i, "comment_id")]
        if nodes:
            cmds.append(commands.RemoveNodes(nodes))
        if cmds:
            self.edit(cmds[0] if len(cmds) == 1 else commands.Macro(f"Delete {len(nodes)} nodes", cmds))

    def fragment(self, node_ids: Collection[str] | None = None) -> dict[str, Any]:
        """The selection (or ``node_ids``) as a paste fragment: nodes and the edges between them."""
        ids = set(self.selected_node_ids() if node_ids is None else node_ids)
        nodes = [n.to_dict() for nid, n in self.graph.nodes.items() if nid in ids]
        edges = [e.to_dict() for e in self.graph.edges if e.src in ids and e.dst in ids]
        return {"nodes": nodes, "edges": edges}

    def paste_fragment(self, fragment: dict[str, Any], offset: layout.Point = (30.0, 30.0),
                       verb: str = "Paste") -> list[str]:
        """Insert a fragment with fresh ids, moved by the offset nearest ``offset`` that keeps it clear of the
        nodes already there (one edit named ``verb``, ``commands.Paste``); selects and returns the new node ids."""
        offset = layout.free_offset(self.graph, fragment, offset, self.item_sizes())
        cmd = commands.Paste(copy.deepcopy(fragment), offset, verb)
        if self.edit(cmd):
            return []
        self.clearSelection()
        new = list(cmd.mapping.values())
        for nid in new:
            self.node_items[nid].setSelected(True)
        for view in self.views():  # what was just inserted is on screen, without Fit all (the minimap shows all)
            if isinstance(view, GraphView):
                view.reveal([self.node_items[nid] for nid in new])
        return new

    def duplicate_selected(self) -> list[str]:
        return self.paste_fragment(self.fragment(), verb="Duplicate")

    # ----- session display --------------------------------------------------------------------------
    def set_displays(self, displays: Mapping[str, NodeDisplay], edge_labels: Mapping[Edge, tuple[str, bool]],
                     active_edges: Container[Edge] = ()) -> None:
        """``{node id: NodeDisplay}``, ``{Edge: (label, broadcast)}`` and the edges a gradient is travelling
        along, from the session, drawn as given."""
        shrunk: set[str] = set()  # a value preview went (Reset): an edge drawn over it may be clear of it now
        grown: dict[str, stacking.Box] = {}  # one came (Forward): the part it added may lie on another node's edge
        for nid, node_item in self.node_items.items():
            before = node_item.body_rect().height()
            node_item.set_display(displays.get(nid, NodeDisplay()))
            after = node_item.body_rect().height()
            if after < before:
                shrunk.add(nid)
            elif after > before:
                grown[nid] = stacking.box(node_item.mapRectToScene(node_item.body_rect()).adjusted(0, before, 0, 0))
        if shrunk or grown:
            self.edge_stacking.many(shrunk, grown)
        for e, edge_item in self.edge_items.items():
            edge_item.set_label(*edge_labels.get(e, ("", False)))
            edge_item.set_active(e in active_edges)
        overview.changed(self)

    def render(self, painter: QPainter, target: QRectF | QRect = QRectF(), source: QRectF | QRect = QRectF(),
               mode: Qt.AspectRatioMode = Qt.AspectRatioMode.KeepAspectRatio) -> None:  # Qt override
        """An export draws every item in full even while the view shows the zoomed-out form."""
        with overview.detailed(self, QRectF(target), QRectF(source)):
            super().render(painter, target, source, mode)

    def port_tooltip(self, port: PortItem) -> str:
        """Name and kind, plus shape, dtype, device, strides, contiguity and autograd facts once computed."""
        head = f"{port.node_id}.{port.name} ({'output' if port.is_output else 'input'}, {port.kind})"
        key: tuple[str, str] | None = (port.node_id, port.name)
        if not port.is_output:
            e = self.graph.edge_into(port.node_id, port.name)
            key = (e.src, e.src_port) if e is not None else None
        info = self.port_info(*key) if self.port_info is not None and key is not None else None
        if info is None or info.shape is None:
            return head
        text = (f"{head}\nshape {tuple(info.shape)}  dtype {info.dtype}  device {info.device}\n"
                f"strides {info.strides}  {'contiguous' if info.contiguous else 'non-contiguous'}\n"
                f"requires_grad={info.requires_grad}  is_leaf={info.is_leaf}  grad_fn={info.grad_fn}  "
                f"version={info.version}")
        story = (self.port_story(*key) if self.port_story is not None and key is not None and info.grad is not None
                 else None)
        return f"{text}\n\n{story}" if story else text

    # ----- mouse: connecting and moving -----------------------------------------------------------------
    def mousePressEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        # a port under the press starts a wire even where an edge is drawn over its node (EdgeItem.restack)
        under = self.items(event.scenePos(), deviceTransform=self.views()[0].transform()) if self.views() else []
        item = next((i for i in under if isinstance(i, PortItem)), None)
        if item is not None and event.button() == Qt.MouseButton.LeftButton:
            self._start_drag(item)
            event.accept()
            return
        super().mousePressEvent(event)

    def _start_drag(self, port: PortItem) -> None:
        """Start a wire from ``port`` (``WireDrag.start``), as a press on it does."""
        self.wire.start(port)

    def mouseMoveEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self.wire.active:
            self.wire.follow(event.scenePos())
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QGraphicsSceneMouseEvent) -> None:  # Qt override
        if self.wire.active:
            self._finish_drag(event.scenePos(), event.screenPos())
            return
        super().mouseReleaseEvent(event)
        self.commit_moves()

    def _finish_drag(self, scene_pos: QPointF, screen_pos: QPoint | None) -> None:
        """Drop the wire at ``scene_pos`` (``WireDrag.finish``), as the release does."""
        self.wire.finish(scene_pos, screen_pos)

    def cancel_moves(self) -> bool:
        """Esc while nodes are dragged: they go back to their document positions and the drag ends (the release
        that follows moves nothing); False when no node was being dragged."""
        grabber = self.mouseGrabberItem()
        if not isinstance(grabber, NodeItem):
            return False
        grabber.ungrabMouse()
        for nid, item in self.node_items.items():
            x, y = self.graph.node(nid).position
            if (item.pos().x(), item.pos().y()) != (x, y):
                item.setPos(x, y)
        return True

    def commit_moves(self) -> None:
        """One MoveNodes command for every node whose item was dragged away from its document position."""
        moved: dict[str, layout.Point] = {}
        for nid, item in self.node_items.items():
            p = (item.pos().x(), item.pos().y())
            if tuple(self.graph.node(nid).position) != p:
                moved[nid] = p
        if moved:
            self.edit(commands.MoveNodes(moved))
