"""Validation of a graph document: what is wrong, node by node, with a clear message each.

``validate(graph)`` returns ``{node_id: [Issue, ...]}`` for the nodes that have problems (an empty dict
means the document is well formed): unknown node types (placeholders), parameter values their spec
refuses, required inputs left unconnected, edges to ports a node doesn't have (or from missing nodes),
two edges into one input, and cycles. Subgraph nodes are validated inside too; an inner problem is
reported on the subgraph node, naming the inner node. Validation reads the document and never runs it;
whether the ops themselves would fail (shapes, devices) is shape inference's job.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Protocol

from core.nodegraph.model import spec as _spec
from core.nodegraph.model.document import Edge, Graph, GraphError, Node
from core.nodegraph.model.evaluate import input_ports

__all__ = ["Issue", "validate", "ISSUE_KINDS"]

ISSUE_KINDS = ("unknown_type", "bad_param", "missing_input", "unknown_port", "duplicate_input", "dangling_edge",
               "cycle", "bad_subgraph", "bad_training")


@dataclass(frozen=True)
class Issue:
    """One problem of one node: ``kind`` (see ISSUE_KINDS), a message, and the port/parameter involved."""

    node_id: str
    kind: str
    message: str
    field: str | None = None

    def __str__(self) -> str:
        return self.message


Issues = dict[str, list[Issue]]  # node id -> its issues
Fed = set[tuple[str, ...]]  # (node, port) inputs a subgraph's own inputs feed


class _Add(Protocol):
    def __call__(self, node_id: str, kind: str, message: str, field: str | None = None) -> None: ...


def _edge_issues(graph: Graph, add: _Add) -> dict[tuple[str, str], Edge]:
    """Issues of the edges; returns ``{(node, port): edge}`` of the valid edges into inputs."""
    into: dict[tuple[str, str], Edge] = {}
    for e in graph.edges:
        src, dst = graph.nodes.get(e.src), graph.nodes.get(e.dst)
        if src is None or dst is None:
            missing, present = (e.src, dst) if src is None else (e.dst, src)
            if present is not None:
                add(present.id, "dangling_edge", f"edge {e} refers to a missing node '{missing}'")
            continue
        if (src.spec is not None or src.graph is not None) and e.src_port not in src.output_names():
            add(e.dst, "unknown_port", f"edge {e}: node '{e.src}' ({src.type}) has no output '{e.src_port}'",
                e.dst_port)
        if (dst.spec is not None or dst.graph is not None) and e.dst_port not in dst.input_names():
            add(e.dst, "unknown_port", f"edge {e}: node '{e.dst}' ({dst.type}) has no input '{e.dst_port}'",
                e.dst_port)
        if (e.dst, e.dst_port) in into:
            add(e.dst, "duplicate_input", f"input '{e.dst_port}' has two edges ({into[e.dst, e.dst_port]} and {e})",
                e.dst_port)
        into[(e.dst, e.dst_port)] = e
    return into


def _node_issues(graph: Graph, node: Node, into: dict[tuple[str, str], Edge], fed: Fed, add: _Add) -> None:
    s = node.spec
    if s is None and node.graph is None:
        add(node.id, "unknown_type", f"unknown node type '{node.type}': kept as a placeholder, it can't run")
        return
    if s is not None and node.graph is None:
        try:
            s.validate_params(node.params)
        except _spec.ParamError as exc:
            add(node.id, "bad_param", str(exc))
    for port in input_ports(node):
        key = (node.id, port.name)
        if not port.optional and key not in into and key not in fed:
            add(node.id, "missing_input", f"required input '{port.name}' is not connected", port.name)
    if node.graph is not None:
        _subgraph_issues(node.id, node.graph, add)


def _subgraph_issues(node_id: str, inner: dict[str, Any], add: _Add) -> None:
    try:
        g = Graph.from_dict({"nodes": inner.get("nodes", ()), "edges": inner.get("edges", ())})
    except (KeyError, TypeError, ValueError) as exc:
        add(node_id, "bad_subgraph", f"the inner graph can't be read: {exc}")
        return
    fed = {tuple(t) for p in inner.get("inputs", ()) for t in p.get("to", ())}
    for p in inner.get("outputs", ()):
        if p["from"][0] not in g.nodes:
            add(node_id, "bad_subgraph", f"output '{p['name']}' reads from a missing inner node '{p['from'][0]}'")
    for inner_id, issues in _validate(g, fed).items():
        for i in issues:
            add(node_id, i.kind, f"inside the subgraph, node '{inner_id}': {i.message}", i.field)


def _validate(graph: Graph, fed: Fed) -> Issues:
    found: Issues = {}

    def add(node_id: str, kind: str, message: str, field: str | None = None) -> None:
        found.setdefault(node_id, []).append(Issue(node_id, kind, message, field))

    into = _edge_issues(graph, add)
    for node in graph.nodes.values():
        _node_issues(graph, node, into, fed, add)
    try:
        graph.topological_order()
    except (GraphError, KeyError):
        for e in graph.edges:
            if e.src in graph.nodes and e.dst in graph.nodes and e.src in graph.descendants(e.dst):
                add(e.dst, "cycle", f"edge {e} is part of a cycle")
    return found


def validate(graph: Graph) -> Issues:
    """``{node_id: [Issue, ...]}`` for every node with a problem, in document order of detection.

    A training loss that names no node (its node was deleted) is reported under the key ``"training"``.
    """
    found = _validate(graph, set())
    loss = graph.training.get("loss")
    if loss is not None and loss not in graph.nodes:
        found.setdefault("training", []).append(
            Issue("training", "bad_training", f"the training loss names a missing node '{loss}'", "loss"))
    return found
