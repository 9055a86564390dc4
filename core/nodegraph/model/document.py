"""The graph document: plain data (nodes, edges, comments, training settings, view state) plus events.

Semantics, stated once: a node is an instance of a registered node type (``core.nodegraph.model.spec``)
with parameter values and a position; an edge joins one output port to one input port; an input
port takes at most one edge; edges never form a cycle; an output feeds an input of its own kind, and
tensor-like kinds (tensor, scalar, parameter, gradient) and ``any`` feed each other (``Graph.can_connect``).
The document holds no computed values:
running it is a session's job. Every mutator checks, stores, then emits a ``GraphEvent`` that
views listen to; user edits go through the undoable commands in ``core.nodegraph.model.commands``.

The items (``Node``, ``Edge``, ``Comment``, ``GraphError``) live in ``document_items`` and the events
(``GraphEvent``, ``EditMark``) in ``document_events``; every name is given here too, where the rest imports them.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from core.nodegraph.model import gc_spacing as _gc_spacing
from core.nodegraph.model import graph_order as _order
from core.nodegraph.model import spec as _spec
from core.nodegraph.model import training_settings as _training_settings
from core.nodegraph.model.document_events import EditMark, GraphEvent
from core.nodegraph.model.document_items import (
    MAX_TEXT,
    Comment,
    Edge,
    GraphError,
    Node,
    check_text,
    checked_position,
    checked_rect,
    plain_copy,
)
from core.nodegraph.model.edge_index import EdgeIndex as _EdgeIndex
from core.nodegraph.model.edge_index import EdgeList as _EdgeList

__all__ = ["Node", "Edge", "Comment", "Graph", "GraphEvent", "GraphError", "EditMark", "SUBGRAPH_TYPE",
           "DEFAULT_TRAINING", "OPTIONAL_TRAINING", "TENSOR_KINDS", "checked_position", "plain_copy"]

SUBGRAPH_TYPE = "graph.subgraph"
DEFAULT_TRAINING = {"loss": None, "optimizer": "SGD", "optimizer_params": {"lr": 0.01}, "schedule": None,
                    "steps": 100, "seed": 0, "device": "cpu"}  # no batch_size: the dataset node's (model.batch_size)
# settings a document holds only once set (so files that never set them are saved as before)
OPTIONAL_TRAINING = {"val_every": 10, "stop": None}  # saved only once set (None: the defaults of StopConditions)


TENSOR_KINDS = frozenset({"tensor", "scalar", "parameter", "gradient"})  # port kinds that may feed each other


class Graph:
    """The document. Mutators check, store, emit; queries never mutate."""

    def __init__(self) -> None:
        self.nodes: dict[str, Node] = {}
        self._edge_list = _EdgeList()
        self._edge_idx: _EdgeIndex | None = None
        # per id prefix: every prefix<k> below it was taken when last asked (new_id)
        self._id_floor: dict[str, tuple[int, int]] = {}
        self.comments: dict[str, Comment] = {}
        self.training: dict[str, Any] = copy.deepcopy(DEFAULT_TRAINING)
        self.view: dict[str, Any] = {"zoom": 1.0, "center": [0.0, 0.0]}
        self.file_node_types: dict[str, int] = {}  # versions of unknown (placeholder) node types, kept for saving back
        # the trained parameter values the file held ({node id: {name: array}}, and under "@session" where training
        # stood: core.nodegraph.run.training_state): a new session starts from them
        self.trained_values: dict[str, dict[str, Any]] = {}
        # an imported snippet: {"text", "name", "lines": {node: line}, "notes"}
        self.code: dict[str, Any] | None = None
        # the bundled lesson the document belongs to (a lesson id such as "04-autograd-graph", never a path), so a
        # copy saved elsewhere reopens with its lesson beside it; kept in the file's ``lesson`` field
        self.lesson: str | None = None
        self._listeners: list[Callable[[GraphEvent], None]] = []
        self._edit: EditMark | None = None  # the command being done or undone (editing)
        self._stamps = 0  # the last stamp given to a command
        self._size_band = (0, _gc_spacing.LARGE)  # node counts the collector's spacing needn't hear of (gc_spacing)

    @property
    def edges(self) -> list[Edge]:
        """The edges in document order (a list; direct edits are noticed by the edge index)."""
        return self._edge_list

    @edges.setter
    def edges(self, edges: list[Edge]) -> None:
        self._edge_list = edges if isinstance(edges, _EdgeList) else _EdgeList(edges)
        self._edge_idx = None

    def _note_size(self) -> None:
        """Tell ``gc_spacing`` the document's size when it left the band of its last report (O(1) otherwise)."""
        low, high = self._size_band
        if not low <= len(self.nodes) < high:
            self._size_band = _gc_spacing.note_size(self, len(self.nodes))

    def _edge_index(self) -> _EdgeIndex:
        """The up-to-date edge index (rebuilt in O(edges) only after the list was changed from outside)."""
        index = self._edge_idx
        if index is None or index.edges is not self._edge_list or index.version != self._edge_list.version:
            index = self._edge_idx = _EdgeIndex(self._edge_list)
        return index

    # ----- events -----------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[GraphEvent], None]) -> None:
        """``listener(event)`` is called after every change."""
        self._listeners.append(listener)

    def unsubscribe(self, listener: Callable[[GraphEvent], None]) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    @contextmanager
    def editing(self, stamp: int | None, undo: bool = False) -> Iterator[int]:
        """Mark the events emitted inside as one command's (``stamp``; None: a new one) ``do`` or ``undo`` and yield
        the stamp. Inside another command (a macro's parts) the outer stamp stays, and an undo there (a failed
        macro's rollback) is marked as one: it takes back what the parts done before set aside."""
        outer = self._edit
        if outer is not None:
            self._edit = EditMark(outer.stamp, outer.undo or undo)
            try:
                yield outer.stamp
            finally:
                self._edit = outer
            return
        if stamp is None:
            self._stamps += 1
            stamp = self._stamps
        self._edit = EditMark(stamp, undo)
        try:
            yield stamp
        finally:
            self._edit = None

    def _emit(self, kind: str, node_id: str | None = None, edge: Edge | None = None, detail: Any = None) -> None:
        event = GraphEvent(kind, node_id, edge, detail, self._edit)
        for listener in list(self._listeners):
            listener(event)

    # ----- ids ----------------------------------------------------------------------------------
    def new_id(self, prefix: str = "n") -> str:
        """The smallest unused ``prefix<k>`` (stable, readable ids like n1, n2).

        The search starts where the last one ended (ids below were taken; removing a node or comment lowers
        that floor again), so adding nodes one by one costs O(1) each, not O(nodes)."""
        nodes, comments = self.nodes, self.comments
        k, size = self._id_floor.get(prefix, (1, 0))
        if len(nodes) + len(comments) < size:
            k = 1  # something was deleted behind the document's back (not by remove_*): search from the start
        while f"{prefix}{k}" in nodes or f"{prefix}{k}" in comments:
            k += 1
        self._id_floor[prefix] = (k, len(nodes) + len(comments))
        return f"{prefix}{k}"

    def _free_id(self, item_id: str) -> None:
        """Lower the ``new_id`` floor of ``item_id``'s prefix when it frees a smaller number."""
        stem = item_id.rstrip("0123456789")
        digits = item_id[len(stem):]
        if digits and stem in self._id_floor and int(digits) < self._id_floor[stem][0]:
            self._id_floor[stem] = (int(digits), 0)

    def node(self, node_id: str) -> Node:
        try:
            return self.nodes[node_id]
        except KeyError:
            raise GraphError(f"no node with id '{node_id}'") from None

    # ----- nodes --------------------------------------------------------------------------------
    def add_node(self, node: Node, index: int | None = None, origin: tuple[str, str] | None = None) -> Node:
        """Insert ``node`` (at ``index`` in the node order, default last); its params are validated. ``origin``
        (``(subgraph id, inner id)``: an expanded node) rides on the event, so a session moves its state along."""
        if node.id in self.nodes or node.id in self.comments:
            raise GraphError(f"duplicate id '{node.id}'")
        if node.type == SUBGRAPH_TYPE and not isinstance(node.graph, dict):  # its file would not reopen
            raise GraphError("a subgraph node carries its inner graph: select nodes and collapse them to make one")
        node.position = checked_position(node.position)  # (a pasted one, offset past MAX_COORD, would not reopen)
        s = node.spec
        if s is not None and node.graph is None:
            try:
                node.params = s.validate_params(node.params)
            except _spec.ParamError as exc:
                raise GraphError(f"node '{node.id}' ({node.type}): {exc}") from None
        if index is None or index >= len(self.nodes):
            self.nodes[node.id] = node
        else:  # an undo puts a node back in its place: O(nodes), as the order is a dict's
            items = list(self.nodes.items())
            items.insert(index, (node.id, node))
            self.nodes = dict(items)
        self._note_size()
        self._emit("node_added", node.id, detail=origin)
        return node

    def remove_node(self, node_id: str) -> tuple[Node, int, list[Edge]]:
        """Remove a node and its edges; returns ``(node, index, removed_edges)`` for undo."""
        node = self.node(node_id)
        index = next(i for i, n in enumerate(self.nodes) if n == node_id)
        removed = self.node_edges(node_id)
        for e in removed:
            self.disconnect(e)
        del self.nodes[node_id]
        self._free_id(node_id)
        for c in self.comments.values():
            if node_id in c.nodes:  # every mention: a comment may name a node twice
                c.nodes[:] = [n for n in c.nodes if n != node_id]
        self._note_size()
        self._emit("node_removed", node_id)
        return node, index, removed

    def set_param(self, node_id: str, name: str, value: Any) -> Any:
        """Validate and store one parameter; returns the old value."""
        node = self.node(node_id)
        s = node.spec
        if s is not None:
            try:
                value = s.param(name).validate(value)
            except KeyError as exc:
                raise GraphError(str(exc).strip("'\"")) from None
            except _spec.ParamError as exc:
                raise GraphError(f"node '{node_id}' ({node.type}): {exc}") from None
            self._check_inputs_kept(node, name, value)
        old = node.params.get(name)
        node.params[name] = value
        self._emit("param_changed", node_id, detail=name)
        return old

    def _check_inputs_kept(self, node: Node, name: str, value: Any) -> None:
        """GraphError when ``value`` for the parameter ``name`` gives input ports that can't be (a bad input name in
        an expression's ``inputs``) or drops an input an edge feeds: the edge would dangle and the saved file would
        not open again."""
        s = node.spec
        if s is None or s.dynamic_inputs is None:
            return
        try:
            ports = [p.name for p in s.dynamic_inputs({**s.default_params(), **node.params, name: value})]
        except (_spec.ParamError, TypeError, ValueError) as exc:
            try:
                s.dynamic_inputs({**s.default_params(), **node.params})
            except (_spec.ParamError, TypeError, ValueError):
                return  # a file's bad value was there before (the static ports stand in): the rest stays editable
            raise GraphError(f"node '{node.id}' ({node.type}): {exc}") from None
        fed = [port for port in node.input_names() if port not in ports and self.edge_into(node.id, port) is not None]
        if fed:
            raise GraphError(f"node '{node.id}' ({node.type}): parameter '{name}' would remove the input '{fed[0]}', "
                             "which an edge feeds; disconnect it first")

    def set_node_attr(self, node_id: str, attr: str, value: Any) -> Any:
        """Set ``title``, ``color`` or ``graph`` of a node; returns the old value."""
        if attr not in ("title", "color", "graph"):
            raise GraphError(f"can't set node attribute '{attr}'")
        if attr in MAX_TEXT:
            check_text(value, f"the node's {attr}", MAX_TEXT[attr])
        node = self.node(node_id)
        old = getattr(node, attr)
        setattr(node, attr, copy.deepcopy(value))
        self._emit("node_changed", node_id, detail=attr)
        return old

    def move_node(self, node_id: str, position: Sequence[float]) -> tuple[float, float]:
        node = self.node(node_id)
        old = node.position
        node.position = checked_position(position)
        self._emit("node_moved", node_id)
        return old

    # ----- edges --------------------------------------------------------------------------------
    def edge_into(self, node_id: str, port: str) -> Edge | None:
        return self._edge_index().edge_into(node_id, port)

    def node_edges(self, node_id: str) -> list[Edge]:
        """The edges into and out of a node, in document order."""
        index = self._edge_index()
        found = set(index.edges_in(node_id)) | set(index.edges_out(node_id))
        if len(found) <= 1 and not index.shadowed:  # (an edge twice in the list is shadowed by its repeat)
            return list(found)
        return [e for e in self.edges if e in found]

    def check_edge(self, edge: Edge) -> None:
        """Raise GraphError if ``edge`` can't be added: unknown node or port, occupied input, cycle."""
        src, dst = self.node(edge.src), self.node(edge.dst)
        if src.spec is not None or src.graph is not None:
            if edge.src_port not in src.output_names():
                raise GraphError(f"node '{edge.src}' ({src.type}) has no output '{edge.src_port}'")
        if dst.spec is not None or dst.graph is not None:
            if edge.dst_port not in dst.input_names():
                raise GraphError(f"node '{edge.dst}' ({dst.type}) has no input '{edge.dst_port}'")
        if self._would_cycle(edge.src, edge.dst):
            raise GraphError(f"edge {edge} would create a cycle")
        if self.edge_into(edge.dst, edge.dst_port) is not None:
            raise GraphError(f"input {edge.dst}.{edge.dst_port} already has an edge")

    def _would_cycle(self, src: str, dst: str) -> bool:
        return src == dst or src in self.descendants(dst)

    def can_connect(self, src: tuple[str, str], dst: tuple[str, str]) -> tuple[bool, str]:
        """Whether output ``src`` = (node id, port) may feed input ``dst``, and if not, why (a sentence).

        The rule the editor asks before it connects: both ports exist, no cycle, and the kinds match
        (``TENSOR_KINDS`` and ``any`` feed each other). An occupied input is fine: its edge is replaced.
        """
        (s, sp), (d, dp) = src, dst
        for nid in (s, d):
            if nid not in self.nodes:
                return False, f"no node '{nid}'"
        if s == d:
            return False, "a node can't feed itself"
        if self._would_cycle(s, d):
            return False, f"{s}.{sp} -> {d}.{dp} would create a cycle"
        out_kind, in_kind = self.nodes[s].port_kind(sp, True), self.nodes[d].port_kind(dp, False)
        if out_kind is None or in_kind is None:
            return False, "no such port"
        kinds = {out_kind, in_kind}
        if "any" not in kinds and not kinds <= TENSOR_KINDS and out_kind != in_kind:
            return False, f"a {out_kind} output can't feed a {in_kind} input"
        return True, ""

    def connect(self, edge: Edge, index: int | None = None) -> Edge:
        """Add an edge (at ``index`` in the edge order, default last) after ``check_edge``."""
        edge = Edge(*edge)
        self.check_edge(edge)
        idx = self._edge_index()
        self.edges.insert(len(self.edges) if index is None else index, edge)
        idx.add(edge)
        idx.version = self._edge_list.version
        self._emit("edge_added", edge=edge)
        return edge

    def disconnect(self, edge: Edge) -> None:
        edge = Edge(*edge)
        idx = self._edge_index()
        if not idx.has(edge):
            raise GraphError(f"no edge {edge}")
        self.edges.remove(edge)
        idx.remove(edge)
        idx.version = self._edge_list.version
        self._emit("edge_removed", edge=edge)

    # ----- comments, training, view --------------------------------------------------------------
    def add_comment(self, comment: Comment) -> Comment:
        if comment.id in self.comments or comment.id in self.nodes:
            raise GraphError(f"duplicate id '{comment.id}'")
        for n in comment.nodes:
            self.node(n)
        check_text(comment.text, "a comment's text", MAX_TEXT["text"], optional=False)
        checked_rect(comment.rect)
        self.comments[comment.id] = comment
        self._emit("comment_added", detail=comment.id)
        return comment

    def remove_comment(self, comment_id: str) -> Comment:
        if comment_id not in self.comments:
            raise GraphError(f"no comment with id '{comment_id}'")
        comment = self.comments.pop(comment_id)
        self._free_id(comment_id)
        self._emit("comment_removed", detail=comment_id)
        return comment

    def update_comment(self, comment_id: str, **changes: Any) -> dict[str, Any]:
        """Change ``text``, ``rect`` or ``nodes``; returns the old values."""
        if comment_id not in self.comments:
            raise GraphError(f"no comment with id '{comment_id}'")
        comment = self.comments[comment_id]
        old: dict[str, Any] = {}
        for key in changes:
            if key not in ("text", "rect", "nodes"):
                raise GraphError(f"can't set comment attribute '{key}'")
        if "text" in changes:
            check_text(changes["text"], "a comment's text", MAX_TEXT["text"], optional=False)
        if "rect" in changes:
            checked_rect(changes["rect"])
        for n in changes.get("nodes", ()):
            self.node(n)
        for key, value in changes.items():
            old[key] = getattr(comment, key)
            setattr(comment, key, tuple(value) if key == "rect" else (list(value) if key == "nodes" else value))
        self._emit("comment_changed", detail=comment_id)
        return old

    def set_training(self, key: str, value: Any) -> Any:
        if key not in DEFAULT_TRAINING and key not in OPTIONAL_TRAINING:
            raise GraphError(f"unknown training setting '{key}'")
        if value is not None or (key in DEFAULT_TRAINING and DEFAULT_TRAINING[key] is not None):  # None: unset
            try:
                _training_settings.check_setting(key, value)
                if key in ("optimizer_params", "schedule"):  # tried with the optimizer as a file's are
                    _training_settings.check({**self.training, key: value})
            except _training_settings.SettingError as exc:  # the file would not open again
                raise GraphError(str(exc)) from None
        if key == "optimizer":
            self._keep_arguments_of(value)
        old = self.training.get(key)
        if value is None and key in OPTIONAL_TRAINING:  # unset (undo of a first set): saved as before again
            self.training.pop(key, None)
        else:
            self.training[key] = copy.deepcopy(value)
        self._emit("training_changed", detail=key)
        return old

    def _keep_arguments_of(self, optimizer: str) -> None:
        """A switch to ``optimizer`` keeps the arguments it takes and drops the others (SGD's ``momentum`` when
        Adam is chosen), so the document's file reopens; GraphError, nothing changed, when what is kept is still
        refused (``SetTraining`` keeps the old arguments for its undo)."""
        params = self.training.get("optimizer_params") or {}
        kept = _training_settings.arguments_for(optimizer, params)
        try:
            _training_settings.check({**self.training, "optimizer": optimizer, "optimizer_params": kept})
        except _training_settings.SettingError as exc:
            raise GraphError(str(exc)) from None
        if kept != params:
            self.training["optimizer_params"] = kept
            self._emit("training_changed", detail="optimizer_params")

    def set_code(self, code: dict[str, Any] | None) -> dict[str, Any] | None:
        """Attach an imported snippet (text, name, node lines, notes; None removes it); returns the old one."""
        old, self.code = self.code, copy.deepcopy(code)
        self._emit("code_changed")
        return old

    def set_view(self, **view: Any) -> None:
        self.view.update(view)
        self._emit("view_changed")

    # ----- queries ------------------------------------------------------------------------------
    def inputs_of(self, node_id: str) -> dict[str, Edge]:
        """``{input port: edge}`` of the edges into a node."""
        return self._edge_index().inputs(node_id)

    def port_names(self, node_id: str) -> tuple[list[str], list[str]]:
        """``(inputs, outputs)`` a node shows: its type's ports, or for a placeholder (an unknown type) the ports
        its edges name, in document order, so an editor draws those edges and saving keeps them."""
        node = self.node(node_id)
        if node.spec is not None or node.graph is not None:
            return node.input_names(), node.output_names()
        ins: dict[str, None] = {}
        outs: dict[str, None] = {}
        for edge in self.node_edges(node_id):
            if edge.dst == node_id:
                ins[edge.dst_port] = None
            if edge.src == node_id:
                outs[edge.src_port] = None
        return list(ins), list(outs)

    def outputs_of(self, node_id: str) -> list[Edge]:
        """The edges leaving a node, grouped by the node they enter (in the order those were first connected)."""
        return list(self._edge_index().edges_out(node_id))

    def descendants(self, node_id: str) -> set[str]:
        """Every node reachable downstream of ``node_id``."""
        return self._reachable(node_id, downstream=True)

    def ancestors(self, node_id: str) -> set[str]:
        """Every node that ``node_id`` depends on."""
        return self._reachable(node_id, downstream=False)

    def _reachable(self, node_id: str, downstream: bool) -> set[str]:
        """Nodes reachable along edges (or against them): O(what is reached), from the edge index."""
        index = self._edge_index()
        return _order.reachable(node_id, index.targets if downstream else index.sources)

    def topological_order(self) -> list[str]:
        """Node ids, each after all its inputs; ties keep document order (Kahn's algorithm); GraphError on a cycle."""
        order = _order.topological_order(self.nodes, self.edges)
        if order is None:
            raise GraphError("the graph has a cycle")
        return order

    # ----- plain data -----------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """The document as plain data in the file's key order (without the file header)."""
        return {"nodes": [n.to_dict() for n in self.nodes.values()],
                "edges": [e.to_dict() for e in self.edges],
                "comments": [c.to_dict() for c in self.comments.values()],
                "training": copy.deepcopy(self.training), "view": copy.deepcopy(self.view),
                **({"code": copy.deepcopy(self.code)} if self.code is not None else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Graph:
        """Build a document from plain data that ``files`` has already validated."""
        g = cls()
        for nd in data.get("nodes", ()):
            node = Node.from_dict(nd)
            g.nodes[node.id] = node
        g.edges = [Edge.from_dict(e) for e in data.get("edges", ())]
        for cd in data.get("comments", ()):
            c = Comment.from_dict(cd)
            g.comments[c.id] = c
        g.training = {**copy.deepcopy(DEFAULT_TRAINING), **copy.deepcopy(data.get("training", {}))}
        g.view = {**g.view, **copy.deepcopy(data.get("view", {}))}
        g.code = copy.deepcopy(data.get("code"))
        g._note_size()
        return g

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Graph) and self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # unhashable (equality is by content), as typeshed marks list
