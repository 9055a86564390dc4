"""Undoable edits of a ``Graph``: Qt-free commands with ``do``/``undo`` and a readable ``text``.

A command holds ids and ``to_dict()`` snapshots, never live objects, so undo restores the document
exactly (``graph.to_dict()`` before ``do`` equals it after ``undo``). ``do`` validates before it changes
anything: a refused edit raises ``GraphError`` and leaves the document untouched, so the app pushes a
command on its undo stack only after ``do`` succeeded. Its ``text`` (the undo history's line) names nodes
as the canvas draws them, by title, once ``do`` has seen the graph ("Connect x → xw.a"); a parameter edit says what
it set, for a learner rather than as code ("w: dtype set to float64", "x: tensor set to [2.0, 3.0]").
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from core.nodegraph.model.document import Comment, Edge, Graph, GraphError, Node, checked_position, plain_copy
from core.nodegraph.model.names import free_label, key_label, node_label
from core.nodegraph.model.numtext import param_text

__all__ = ["Command", "AddNode", "RemoveNodes", "Connect", "Disconnect", "SetParam", "SetNodeAttr", "MoveNodes",
           "AddComment", "RemoveComment", "UpdateComment", "SetTraining", "Paste", "Macro",
           "Collapse", "Expand"]


class Command:
    """Base class: ``do(graph)`` applies the edit (again: a redo), ``undo(graph)`` reverts it; ``text`` names it.

    A command's events carry its mark (``Graph.editing``: one stamp for the command, done or undone), so a
    session can give back on undo and redo what the edit made it drop (a layer's trained weights, the optimizer's
    state: ``core.nodegraph.run.kept_states``). Subclasses write the edit in ``_do`` and ``_undo``."""

    text = "Edit"
    _stamp: int | None = None  # given by the document at the first do that succeeded

    def do(self, graph: Graph) -> None:
        with graph.editing(self._stamp) as stamp:
            self._do(graph)
        if self._stamp is None:
            self._stamp = stamp

    def undo(self, graph: Graph) -> None:
        with graph.editing(self._stamp, undo=True):
            self._undo(graph)

    def _do(self, graph: Graph) -> None:
        raise NotImplementedError

    def _undo(self, graph: Graph) -> None:
        raise NotImplementedError


def _edge_text(graph: Graph, edge: Edge) -> str:
    """``x → xw.a``: an edge by the titles of its ends (the usual ``out`` port left out)."""
    return f"{key_label(graph, f'{edge.src}.{edge.src_port}')} → {key_label(graph, f'{edge.dst}.{edge.dst_port}')}"


class AddNode(Command):
    """Add a node from its dict (``id`` may be omitted: a fresh one is chosen).

    With ``distinct=True`` (a node a user adds: palette, library, drop) an untitled node whose label another node
    reads already is titled with the next free one, ``randn_2``, as an exported script names its variable, so the
    canvas, the status bar and the history tell the two apart. Scripts adding nodes by the thousand leave it off:
    it reads every node's label."""

    def __init__(self, node: dict[str, Any], distinct: bool = False) -> None:
        self.node = plain_copy(node)  # several times faster than deepcopy: scripts add nodes by the thousand
        self.distinct = distinct
        self.text = f"Add node {node.get('title') or node['type']}"  # "Add node add" ("Add add" read as a stutter)

    def _do(self, graph: Graph) -> None:
        if not self.node.get("id"):
            self.node["id"] = graph.new_id()
        node = Node.from_dict(self.node)
        if self.distinct and not node.title:
            label = node.spec.title if node.spec is not None else node.type
            if (title := free_label(graph, label)) != label:
                node.title = title
        graph.add_node(node)
        self.node = graph.node(self.node["id"]).to_dict()
        self.text = f"Add node {node_label(graph, self.node['id'])}"

    def _undo(self, graph: Graph) -> None:
        graph.remove_node(self.node["id"])


class RemoveNodes(Command):
    """Remove nodes with their edges; undo puts them back in place, comments' memberships too."""

    def __init__(self, node_ids: Iterable[str]) -> None:
        self.node_ids = list(node_ids)
        self.text = f"Delete {len(self.node_ids)} node{'s' if len(self.node_ids) != 1 else ''}"

    def _do(self, graph: Graph) -> None:
        for n in self.node_ids:
            graph.node(n)
        if len(self.node_ids) == 1:
            self.text = f"Delete {node_label(graph, self.node_ids[0])}"
        removing = set(self.node_ids)
        position = {n: i for i, n in enumerate(graph.nodes)}
        self.saved = sorted(((position[n], graph.node(n).to_dict()) for n in removing), key=lambda x: x[0])
        touching = {e for n in removing for e in graph.node_edges(n)}
        self.edges = [(i, e.to_dict()) for i, e in enumerate(graph.edges) if e in touching] if touching else []
        self.memberships = {c.id: list(c.nodes) for c in graph.comments.values() if removing & set(c.nodes)}
        for n in self.node_ids:
            graph.remove_node(n)
        lines = (graph.code or {}).get("lines") or {}
        self.code = None  # an imported snippet's line of a removed node goes with it (a file keeps no others)
        if removing.intersection(lines) and graph.code is not None:
            self.code = graph.set_code({**graph.code, "lines": {k: v for k, v in lines.items() if k not in removing}})

    def _undo(self, graph: Graph) -> None:
        for index, nd in self.saved:
            graph.add_node(Node.from_dict(nd), index)
        for i, ed in self.edges:
            graph.connect(Edge.from_dict(ed), i)
        for cid, nodes in self.memberships.items():
            graph.update_comment(cid, nodes=nodes)
        if self.code is not None:
            graph.set_code(self.code)


class Connect(Command):
    """Connect an output to an input; an edge already into that input is replaced (and restored on undo)."""

    def __init__(self, src: str, src_port: str, dst: str, dst_port: str) -> None:
        self.edge = Edge(src, src_port, dst, dst_port)
        self.text = f"Connect {self.edge}"

    def _do(self, graph: Graph) -> None:
        self.replaced = graph.edge_into(self.edge.dst, self.edge.dst_port)
        self.index = None
        if self.replaced is not None:
            self.index = graph.edges.index(self.replaced)
            graph.disconnect(self.replaced)
        try:
            graph.connect(self.edge)
        except GraphError:
            if self.replaced is not None:
                graph.connect(self.replaced, self.index)
            raise
        self.text = f"Connect {_edge_text(graph, self.edge)}"
        if self.replaced is not None:  # the input's old edge went: say which, the canvas only shows the new one
            self.text += f" (in place of {key_label(graph, f'{self.replaced.src}.{self.replaced.src_port}')})"

    def _undo(self, graph: Graph) -> None:
        graph.disconnect(self.edge)
        if self.replaced is not None:
            graph.connect(self.replaced, self.index)


class Disconnect(Command):
    def __init__(self, src: str, src_port: str, dst: str, dst_port: str) -> None:
        self.edge = Edge(src, src_port, dst, dst_port)
        self.text = f"Disconnect {self.edge}"

    def _do(self, graph: Graph) -> None:
        self.index = graph.edges.index(self.edge) if self.edge in graph.edges else None
        graph.disconnect(self.edge)
        self.text = f"Disconnect {_edge_text(graph, self.edge)}"

    def _undo(self, graph: Graph) -> None:
        graph.connect(self.edge, self.index)


class SetParam(Command):
    """A node's parameter set; named "w: dtype set to float64" (the value as stored, as its field shows it)."""

    def __init__(self, node_id: str, name: str, value: Any) -> None:
        self.node_id, self.name, self.value = node_id, name, copy.deepcopy(value)
        self.text = f"{name} set to {param_text(value)}"

    def _do(self, graph: Graph) -> None:
        node = graph.node(self.node_id)
        self.had = self.name in node.params
        self.old = graph.set_param(self.node_id, self.name, self.value)
        self.text = f"{node_label(graph, self.node_id)}: {self.name} set to {param_text(node.params.get(self.name))}"

    def _undo(self, graph: Graph) -> None:
        if self.had:
            graph.set_param(self.node_id, self.name, self.old)
        else:
            graph.node(self.node_id).params.pop(self.name, None)
            graph._emit("param_changed", self.node_id, detail=self.name)


class SetNodeAttr(Command):
    """Rename, recolour, or replace a subgraph node's inner graph. A name another node reads already is refused:
    two nodes named ``x`` read the same in every message, lesson check and Loss node list (a paste or an insert
    picks ``x_2`` itself; a rename is the user's own choice, so it is refused rather than changed)."""

    def __init__(self, node_id: str, attr: str, value: Any) -> None:
        self.node_id, self.attr, self.value = node_id, attr, copy.deepcopy(value)
        self.text = {"title": "Rename node", "color": "Set node colour"}.get(attr, "Edit subgraph")

    def _do(self, graph: Graph) -> None:
        before = node_label(graph, self.node_id)
        if self.attr == "title" and self.value and self.value != before and any(
                node_label(graph, nid) == self.value for nid in graph.nodes if nid != self.node_id):
            raise GraphError(f"another node is named {self.value} already: two nodes with one name read the same "
                             f"in every message; try {free_label(graph, self.value)}")
        self.old = graph.set_node_attr(self.node_id, self.attr, self.value)
        if self.attr == "title":
            self.text = f"Rename {before} to {node_label(graph, self.node_id)}"

    def _undo(self, graph: Graph) -> None:
        graph.set_node_attr(self.node_id, self.attr, self.old)


class MoveNodes(Command):
    """Move nodes to new positions (one command for a whole dragged selection)."""

    def __init__(self, positions: Mapping[str, Sequence[float]]) -> None:
        self.positions = {k: (float(v[0]), float(v[1])) for k, v in positions.items()}
        self.text = f"Move {len(self.positions)} node{'s' if len(self.positions) != 1 else ''}"

    def _do(self, graph: Graph) -> None:
        for n, p in self.positions.items():  # all checked before any moves
            graph.node(n)
            checked_position(p)
        self.old = {n: graph.move_node(n, p) for n, p in self.positions.items()}

    def _undo(self, graph: Graph) -> None:
        for n, p in self.old.items():
            graph.move_node(n, p)


class AddComment(Command):
    def __init__(self, comment: dict[str, Any]) -> None:
        self.comment = copy.deepcopy(comment)
        self.text = "Add comment" if not comment.get("nodes") else "Group nodes"

    def _do(self, graph: Graph) -> None:
        if not self.comment.get("id"):
            self.comment["id"] = graph.new_id("c")
        graph.add_comment(Comment.from_dict(self.comment))

    def _undo(self, graph: Graph) -> None:
        graph.remove_comment(self.comment["id"])


class RemoveComment(Command):
    def __init__(self, comment_id: str) -> None:
        self.comment_id = comment_id
        self.text = "Delete comment"

    def _do(self, graph: Graph) -> None:
        ids = list(graph.comments)
        self.saved = graph.remove_comment(self.comment_id).to_dict()  # GraphError for an unknown id
        self.index = ids.index(self.comment_id)

    def _undo(self, graph: Graph) -> None:
        graph.add_comment(Comment.from_dict(self.saved))
        items = list(graph.comments.items())
        items.insert(self.index, items.pop())
        graph.comments = dict(items)


class UpdateComment(Command):
    def __init__(self, comment_id: str, **changes: Any) -> None:
        self.comment_id, self.changes = comment_id, copy.deepcopy(changes)
        self.text = "Edit comment"

    def _do(self, graph: Graph) -> None:
        self.old = graph.update_comment(self.comment_id, **self.changes)

    def _undo(self, graph: Graph) -> None:
        graph.update_comment(self.comment_id, **self.old)


class SetTraining(Command):
    """A training setting set; named as a parameter edit is, "Training: steps set to 300" (a node by its title,
    "Training: loss set to loss"; a settings group by what changed in it, "Training: lr set to 0.1")."""

    def __init__(self, key: str, value: Any) -> None:
        self.key, self.value = key, copy.deepcopy(value)
        self.text = f"Training: {key} set to {param_text(value)}"

    def _do(self, graph: Graph) -> None:
        self.old_params = copy.deepcopy(graph.training.get("optimizer_params"))  # a switch of optimizer drops some
        self.old = graph.set_training(self.key, self.value)
        self.text = f"Training: {_training_change(graph, self.key, self.old, self.value)}"

    def _undo(self, graph: Graph) -> None:
        graph.set_training(self.key, self.old)
        if self.key == "optimizer" and graph.training.get("optimizer_params") != self.old_params:
            graph.set_training("optimizer_params", self.old_params)


def _training_change(graph: Graph, key: str, old: Any, new: Any) -> str:
    """What setting ``key`` from ``old`` to ``new`` changed, in words: ``steps set to 300``, ``loss set to z`` (the
    node's title), for a group of settings (optimizer_params, schedule, stop) the ones that changed in it."""
    if key == "loss" and isinstance(new, str) and new in graph.nodes:
        return f"loss set to {node_label(graph, new)}"
    if isinstance(new, dict):
        if not isinstance(old, dict) and "type" in new:  # a schedule chosen: its type names it
            return f"{key} set to {new['type']}"
        before = old if isinstance(old, dict) else {}
        changed = [f"{k} set to {param_text(v)}" for k, v in new.items()
                   if (k in before and before[k] != v) or (k not in before and v is not None)]
        if changed:
            return ", ".join(changed)
    return f"{key} set to {param_text(new)}"


class Paste(Command):
    """Insert a fragment (``{"nodes", "edges"}``, e.g. from the clipboard), with fresh ids and an offset; ``verb``
    names the edit in the undo history and the status bar ("Paste 3 nodes", "Insert x @ y: 3 nodes"). A title the
    graph has already becomes ``x_2`` (``_retitle``): two nodes named x read the same in every message."""

    def __init__(self, fragment: dict[str, Any], offset: tuple[float, float] = (30.0, 30.0),
                 verb: str = "Paste") -> None:
        self.fragment = copy.deepcopy(fragment)
        self.offset = offset
        count = len(self.fragment.get("nodes", ()))
        self.text = f"{verb}{':' if ' ' in verb else ''} {count} node{'' if count == 1 else 's'}"

    def _do(self, graph: Graph) -> None:
        mapping, added = {}, []
        taken = {n.title for n in graph.nodes.values() if n.title}
        try:
            for nd in self.fragment.get("nodes", ()):
                new = copy.deepcopy(nd)
                new["id"] = graph.new_id()
                _retitle(new, taken)
                mapping[nd["id"]] = new["id"]
                x, y = nd.get("position", (0.0, 0.0))
                new["position"] = [x + self.offset[0], y + self.offset[1]]
                graph.add_node(Node.from_dict(new))
                added.append(new["id"])
            for ed in self.fragment.get("edges", ()):
                e = Edge.from_dict(ed)
                if e.src in mapping and e.dst in mapping:
                    graph.connect(Edge(mapping[e.src], e.src_port, mapping[e.dst], e.dst_port))
        except (GraphError, KeyError, TypeError, ValueError) as exc:
            for n in reversed(added):
                graph.remove_node(n)
            raise GraphError(f"can't paste: {exc}") from None
        self.mapping = mapping

    def _undo(self, graph: Graph) -> None:
        for n in reversed(list(self.mapping.values())):
            graph.remove_node(n)


def _retitle(node: dict[str, Any], taken: set[str]) -> None:
    """A pasted node whose title the graph has already gets the next free ``title_2``, ``title_3`` (as an exported
    script names its variables), its ``name`` parameter too where that is its title; ``taken`` grows with it."""
    title = node.get("title")
    if not title:
        return
    if title in taken:
        base, k = title, 2
        while f"{base}_{k}" in taken:
            k += 1
        params = node.get("params") or {}
        if params.get("name") == title:
            node["params"] = {**params, "name": f"{base}_{k}"}
        node["title"] = title = f"{base}_{k}"
    taken.add(title)


class Macro(Command):
    """Several commands as one undo step (done in order, undone in reverse); all or nothing."""

    def __init__(self, text: str, commands: Iterable[Command]) -> None:
        self.text, self.commands = text, list(commands)

    def _do(self, graph: Graph) -> None:
        done = []
        try:
            for c in self.commands:
                c.do(graph)
                done.append(c)
        except Exception:
            for c in reversed(done):
                c.undo(graph)
            raise

    def _undo(self, graph: Graph) -> None:
        for c in reversed(self.commands):
            c.undo(graph)


class Collapse(Command):
    """Collapse selected nodes into one ``graph.subgraph`` node wired like they were (see ``subgraph``)."""

    def __init__(self, node_ids: Iterable[str], title: str | None = None) -> None:
        self.node_ids, self.title = list(dict.fromkeys(node_ids)), title
        self.text = f"Collapse {len(self.node_ids)} node{'s' if len(self.node_ids) != 1 else ''}"

    def _do(self, graph: Graph) -> None:
        from core.nodegraph.model.subgraph import collapse_plan  # subgraph registers a node type

        node, edges = collapse_plan(graph, self.node_ids, self.title)
        index = min(list(graph.nodes).index(n) for n in self.node_ids)
        self.remove = RemoveNodes(self.node_ids)
        self.remove.do(graph)
        try:
            graph.add_node(Node.from_dict(node), index)
            for e in edges:
                graph.connect(e)
        except GraphError:  # not expected after the plan's checks; leave the document as it was
            if node["id"] in graph.nodes:
                graph.remove_node(node["id"])
            self.remove.undo(graph)
            raise
        self.node_id = node["id"]
        self.loss = graph.training.get("loss")
        if self.loss in self.node_ids:
            graph.set_training("loss", self.node_id)

    def _undo(self, graph: Graph) -> None:
        if self.loss in self.node_ids:
            graph.set_training("loss", self.loss)
        graph.remove_node(self.node_id)
        self.remove.undo(graph)


class Expand(Command):
    """Replace a subgraph node by its inner nodes, rewired to the outer edges; undo collapses it back."""

    def __init__(self, node_id: str) -> None:
        self.node_id = node_id
        self.text = "Expand subgraph"

    def _do(self, graph: Graph) -> None:
        from core.nodegraph.model.subgraph import expand_plan

        nodes, edges = expand_plan(graph, self.node_id)  # GraphError unless the node is a subgraph
        inner = graph.node(self.node_id).graph or {}
        outputs = inner.get("outputs", ())
        inner_ids = [nd["id"] for nd in nodes]
        old_ids = [nd["id"] for nd in inner.get("nodes", ())]
        loss_inner = dict(zip(old_ids, inner_ids)).get(outputs[0]["from"][0]) if outputs else None
        index = list(graph.nodes).index(self.node_id)
        self.remove = RemoveNodes([self.node_id])
        self.remove.do(graph)
        self.added = []
        try:
            for i, (nd, old) in enumerate(zip(nodes, old_ids)):
                graph.add_node(Node.from_dict(nd), index + i, origin=(self.node_id, old))
                self.added.append(nd["id"])
            for e in edges:
                graph.connect(e)
        except GraphError:  # e.g. an inner node whose parameters this app's node type refuses
            for n in reversed(self.added):
                graph.remove_node(n)
            self.remove.undo(graph)
            raise
        self.loss_moved = graph.training.get("loss") == self.node_id and bool(loss_inner)
        if self.loss_moved:
            graph.set_training("loss", loss_inner)

    def _undo(self, graph: Graph) -> None:
        if self.loss_moved:
            graph.set_training("loss", self.node_id)
        for n in reversed(self.added):
            graph.remove_node(n)
        self.remove.undo(graph)
