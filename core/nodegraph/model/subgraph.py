"""Subgraphs: collapse a selection into one ``graph.subgraph`` node and expand it back.

A subgraph node carries its inner document in ``node.graph``: ``{"nodes", "edges", "inputs", "outputs"}``
where each input is ``{"name", "kind", "to": [[node, port], ...]}`` (one outer value fed to every inner
port it used to reach) and each output ``{"name", "kind", "from": [node, port]}``. Ports come from the
edges that cross the selection's boundary: one input per distinct outside source (``W @ x + b`` becomes
a block with inputs ``W``, ``x``, ``b`` when the sources are titled so, else named after the inner port),
one output per distinct inside source read from outside (``out`` when there is one; when nothing is
read from outside, the outputs of the selection's last nodes). When the training loss node is collapsed,
its output becomes the block's first output and the loss setting points at the block (expand points it
back at the inner node).

Inner nodes keep their ids and absolute positions, so expanding right after collapsing gives back the
same nodes; ids that clash with outer ones on expand are renamed. Subgraphs nest (an inner node may be
a subgraph itself). This module registers the ``graph.subgraph`` node type; its evaluate runs the inner
graph through ``core.nodegraph.model.evaluate``, so values and gradients equal those of the expanded nodes.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Sequence
from typing import Any

from core.nodegraph.model.document import SUBGRAPH_TYPE, Edge, Graph, GraphError, Node
from core.nodegraph.model.spec import EvalContext, NodeSpec, Port, has_spec, register

__all__ = ["SUBGRAPH_SPEC", "collapse_plan", "expand_plan", "boundary"]

PortKey = tuple[str, str]  # (node id, port name)


def _evaluate(ctx: EvalContext, inputs: dict[str, Any], params: dict[str, Any]) -> dict[str, Any]:
    from core.nodegraph.model.evaluate import run_subgraph  # evaluate imports this module

    if ctx.node is None or ctx.node.graph is None:
        raise ValueError("a graph.subgraph node runs its inner graph: pass the node as EvalContext.node")
    return run_subgraph(ctx, inputs)


SUBGRAPH_SPEC = NodeSpec(SUBGRAPH_TYPE, "graph", "Subgraph", "a collapsed group of nodes with its own ports",
                         _evaluate, inputs=(), outputs=())
if not has_spec(SUBGRAPH_TYPE):
    register(SUBGRAPH_SPEC)


def _unique(name: str, taken: set[str]) -> str:
    out, k = name, 2
    while out in taken:
        out, k = f"{name}_{k}", k + 1
    taken.add(out)
    return out


_LONGEST_NAME = 100  # a port name a title gives (a file holds names up to 200 characters, with a _k suffix)


def _source_name(node: Node, fallback: str) -> str:
    """A port name from the outer source: its title, or its ``name`` parameter, when they are identifiers (and not
    too long for a file: a 300-character title made a subgraph whose file would not reopen)."""
    for candidate in (node.title, node.params.get("name") if isinstance(node.params, dict) else None):
        if isinstance(candidate, str) and candidate.isidentifier() and len(candidate) <= _LONGEST_NAME:
            return candidate
    return fallback


def _port_kind(node: Node, port: str, output: bool) -> str:
    from core.nodegraph.model.evaluate import input_ports

    if output:
        if node.graph is not None:
            kinds = {p["name"]: p.get("kind", "any") for p in node.graph.get("outputs", ())}
            return kinds.get(port, "any")
        ports: Sequence[Port] = node.spec.outputs if node.spec is not None else ()
    else:
        ports = input_ports(node)
    return next((p.kind for p in ports if p.name == port), "any")


def boundary(graph: Graph, node_ids: Iterable[str]) -> tuple[list[str], list[Edge], list[Edge]]:
    """``(inside, incoming, outgoing)``: the selection's ids in document order and its crossing edges."""
    selected = set(node_ids)
    for n in selected:
        graph.node(n)
    inside = [n for n in graph.nodes if n in selected]
    incoming = [e for e in graph.edges if e.dst in selected and e.src not in selected]
    outgoing = [e for e in graph.edges if e.src in selected and e.dst not in selected]
    return inside, incoming, outgoing


def _check_no_outer_path(graph: Graph, selected: set[str], outgoing: list[Edge]) -> None:
    """Collapsing would make a cycle if a path leaves the selection and comes back into it."""
    for e in outgoing:
        back = graph.descendants(e.dst) & selected
        if back:
            raise GraphError(f"can't collapse: the path through '{e.dst}' leaves the selection and comes back "
                             f"into '{sorted(back)[0]}'")


def _sink_ports(graph: Graph, inside: list[str]) -> list[PortKey]:
    """With nothing read from outside, the block exposes the outputs of its last nodes (no inner consumer)."""
    selected = set(inside)
    fed = {e.src for e in graph.edges if e.src in selected and e.dst in selected}
    return [(n, port) for n in inside if n not in fed for port in graph.node(n).output_names()]


def _input_ports(graph: Graph, incoming: list[Edge]) -> dict[PortKey, dict[str, Any]]:
    """One input per distinct outside source, fed to every inner port it reached: ``{(src, port): dict}``."""
    inputs: dict[PortKey, dict[str, Any]] = {}
    taken: set[str] = set()
    for e in incoming:
        key = (e.src, e.src_port)
        if key not in inputs:
            name = _unique(_source_name(graph.node(e.src), e.dst_port), taken)
            inputs[key] = {"name": name, "kind": _port_kind(graph.node(e.dst), e.dst_port, False), "to": []}
        inputs[key]["to"].append([e.dst, e.dst_port])
    return inputs


def _output_ports(graph: Graph, inside: list[str], outgoing: list[Edge]) -> dict[PortKey, dict[str, Any]]:
    """One output per distinct inside source read from outside (the loss first): ``{(src, port): dict}``."""
    groups = list(dict.fromkeys((e.src, e.src_port) for e in outgoing)) or _sink_ports(graph, inside)
    loss = graph.training.get("loss")
    if isinstance(loss, str) and loss in set(inside) and graph.node(loss).output_names():
        # the loss stays reachable: first output
        first = (loss, graph.node(loss).output_names()[0])
        groups = [first] + [g for g in groups if g != first]
    outputs: dict[PortKey, dict[str, Any]] = {}
    taken: set[str] = set()
    for src, src_port in groups:
        name = "out" if len(groups) == 1 else _unique(_source_name(graph.node(src), src_port), taken)
        outputs[(src, src_port)] = {"name": name, "kind": _port_kind(graph.node(src), src_port, True),
                                    "from": [src, src_port]}
    return outputs


def collapse_plan(graph: Graph, node_ids: Iterable[str], title: str | None = None,
                  node_id: str | None = None) -> tuple[dict[str, Any], list[Edge]]:
    """``(subgraph node dict, outer edges to connect)`` for collapsing ``node_ids``; changes nothing."""
    inside, incoming, outgoing = boundary(graph, node_ids)
    if not inside:
        raise GraphError("can't collapse an empty selection")
    _check_no_outer_path(graph, set(inside), outgoing)
    inputs, outputs = _input_ports(graph, incoming), _output_ports(graph, inside, outgoing)
    new_id = node_id or graph.new_id()
    selected = set(inside)
    inner = {"nodes": [graph.node(n).to_dict() for n in inside],
             "edges": [e.to_dict() for e in graph.edges if e.src in selected and e.dst in selected],
             "inputs": list(inputs.values()), "outputs": list(outputs.values())}
    xs = [graph.node(n).position for n in inside]
    node = {"id": new_id, "type": SUBGRAPH_TYPE, "params": {},
            "position": [sum(p[0] for p in xs) / len(xs), sum(p[1] for p in xs) / len(xs)],
            "title": title or "Subgraph", "color": None, "graph": inner}
    edges = [Edge(src, sp, new_id, inputs[(src, sp)]["name"]) for src, sp in inputs]
    edges += [Edge(new_id, outputs[(e.src, e.src_port)]["name"], e.dst, e.dst_port) for e in outgoing]
    return node, edges


def expand_plan(graph: Graph, node_id: str) -> tuple[list[dict[str, Any]], list[Edge]]:
    """``(inner node dicts with outer ids, edges to connect)`` for expanding subgraph ``node_id``.

    The subgraph node's own id counts as free (it is removed first); clashing inner ids get fresh ones.
    """
    node = graph.node(node_id)
    if node.graph is None:
        raise GraphError(f"node '{node_id}' ({node.type}) is not a subgraph")
    inner = node.graph
    taken = (set(graph.nodes) - {node_id}) | set(graph.comments)
    rename: dict[str, str] = {}
    for nd in inner.get("nodes", ()):
        old = nd["id"]
        new, k = old, 1
        while new in taken:
            new, k = f"n{k}", k + 1
        taken.add(new)
        rename[old] = new
    nodes = []
    for nd in inner.get("nodes", ()):
        nd = copy.deepcopy(nd)
        nd["id"] = rename[nd["id"]]
        nodes.append(nd)
    edges = [Edge(rename[e["from"][0]], e["from"][1], rename[e["to"][0]], e["to"][1]) for e in inner.get("edges", ())]
    by_input = {p["name"]: p for p in inner.get("inputs", ())}
    by_output = {p["name"]: p for p in inner.get("outputs", ())}
    for e in graph.edges:
        if e.dst == node_id and e.dst_port in by_input:
            edges += [Edge(e.src, e.src_port, rename[d], dp) for d, dp in by_input[e.dst_port].get("to", ())]
        elif e.src == node_id and e.src_port in by_output:
            s, sp = by_output[e.src_port]["from"]
            edges.append(Edge(rename[s], sp, e.dst, e.dst_port))
    return nodes, edges
