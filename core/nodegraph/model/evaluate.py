"""Plain evaluation of a graph document: every node once, in topological order, never raising.

``evaluate(graph)`` runs each node's spec on the outputs of its inputs and returns ``Values``:
outputs per node and port, plus a ``NodeError`` per node that failed (the exception's type name and
message, e.g. PyTorch's shape-mismatch text from ``core``) or was skipped because an input failed.
``evaluate_node`` is the per-node step a session reuses for forward stepping.

Randomness is reproducible: each node gets a ``core.Generator`` seeded from the run's seed and its
id (so a node keeps its stream when other nodes are added, and a node inside a subgraph draws the
same numbers as after expanding it). Per-node state (a layer's module) lives in ``states[node_id]``
when the caller passes a ``states`` dict, so it persists across calls.

Subgraph nodes (``graph.subgraph``) run their inner graph through ``run_subgraph``: inputs are fed to
the inner ports listed under ``graph["inputs"]``, outputs read from ``graph["outputs"]``.
"""

from __future__ import annotations

import copy
import zlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import core
from core.nodegraph.model import budget as _budget
from core.nodegraph.model import spec as _spec
from core.nodegraph.model.document import Edge, Graph, GraphError, Node
from core.nodegraph.model.events import error_text
from core.nodegraph.model.names import key_label, node_label

__all__ = ["NodeError", "Values", "evaluate", "evaluate_node", "make_context", "input_ports", "run_subgraph",
           "node_seed"]

Feeds = Mapping[tuple[str, str], Any]  # (node, port) -> a value given from outside (a subgraph's inputs)
States = dict[str, dict[str, Any]]  # node id -> its persistent EvalContext.state


@dataclass
class NodeError:
    """Why a node has no outputs: ``type`` is the exception's class name; ``skipped`` when an input failed."""

    node_id: str
    message: str
    type: str = "RuntimeError"
    skipped: bool = False
    exception: Any = field(default=None, repr=False, compare=False)

    def __str__(self) -> str:  # "Skipped: input 'a' comes from x, which failed", "Input 'x' is not connected"
        return error_text(self.type, self.message)


class Values:
    """Outputs of an evaluation by node and port, and the errors attached to nodes."""

    def __init__(self, device: str = "cpu", seed: int = 0, training: bool = True) -> None:
        self.device, self.seed, self.training = device, seed, training
        self.outputs: dict[str, dict[str, Any]] = {}
        self.errors: dict[str, NodeError] = {}
        self.held = _budget.Held()  # the bytes the outputs hold: the memory budget bounds their sum

    def get(self, node_id: str, port: str = "out", default: Any = None) -> Any:
        return self.outputs.get(node_id, {}).get(port, default)

    def __getitem__(self, key: str | tuple[str, str]) -> Any:
        node_id, port = key if isinstance(key, tuple) else (key, "out")
        return self.outputs[node_id][port]

    def ok(self, node_id: str) -> bool:
        return node_id in self.outputs and node_id not in self.errors


def node_seed(seed: int, node_id: str) -> int:
    """A stable per-node seed (crc32 of run seed and node id): no ``hash()``, which changes per process."""
    return zlib.crc32(f"{seed}:{node_id}".encode())


def make_context(node_id: str, device: str = "cpu", seed: int = 0, states: States | None = None,
                 training: bool = True, step: int = 0) -> _spec.EvalContext:
    """The EvalContext of one node: its own seeded generator and its persistent state dict."""
    state = states.setdefault(node_id, {}) if states is not None else {}
    gen = core.Generator(device).manual_seed(node_seed(seed, node_id))
    return _spec.EvalContext(node_id=node_id, device=device, training=training, generator=gen, state=state,
                             step=step, seed=seed)


def input_ports(node: Node) -> list[_spec.Port]:
    """The node's input Ports: a subgraph's from its inner graph, else the spec's (dynamic ones included)."""
    if node.graph is not None:
        return [_spec.Port(p["name"], p.get("kind", "any") if p.get("kind") in _spec.PORT_KINDS else "any")
                for p in node.graph.get("inputs", ())]
    s = node.spec
    return list(s.input_ports(node.params)) if s is not None else []


def _gather(graph: Graph, node: Node, values: Values, incoming: Mapping[str, Edge], feeds: Feeds,
            ports: Iterable[_spec.Port] | None = None) -> dict[str, Any] | NodeError:
    """The node's input values, or a NodeError (missing input, failed upstream node)."""
    inputs: dict[str, Any] = {}
    for port in input_ports(node) if ports is None else ports:
        edge = incoming.get(port.name)
        if edge is not None:
            if edge.src in values.errors:
                return NodeError(node.id, f"input '{port.name}' comes from {node_label(graph, edge.src)}, "
                                          "which failed", "Skipped", skipped=True)
            outs = values.outputs.get(edge.src)
            if outs is None or edge.src_port not in outs:
                return NodeError(node.id, f"input '{port.name}': "
                                          f"{key_label(graph, edge.src + '.' + edge.src_port)} has no value yet",
                                 "MissingInput")
            inputs[port.name] = outs[edge.src_port]
        elif (node.id, port.name) in feeds:
            inputs[port.name] = feeds[(node.id, port.name)]
        elif not port.optional:
            return NodeError(node.id, f"input '{port.name}' is not connected", "MissingInput")
    return inputs


def _as_outputs(node: Node, result: object) -> dict[str, Any]:
    """A spec's result as ``{port: value}`` (a single value goes to the only output)."""
    if isinstance(result, dict):
        return result
    names = node.output_names()
    if isinstance(result, tuple) and len(names) > 1 and len(result) == len(names):
        return dict(zip(names, result))
    return {names[0] if names else "out": result}


def evaluate_node(graph: Graph, node_id: str, values: Values, ctx: _spec.EvalContext,
                  incoming: Mapping[str, Edge] | None = None, feeds: Feeds | None = None,
                  params: dict[str, Any] | None = None, ports: Iterable[_spec.Port] | None = None) -> bool:
    """Evaluate one node into ``values``; on failure record a NodeError instead. True when it produced outputs.

    ``incoming`` (``{port: edge}``) may be passed to save a scan of the edges; ``feeds`` maps
    ``(node, port)`` to values given from outside (a subgraph's inputs); ``params`` and ``ports`` the node's
    parameters already validated and its ``input_ports`` (a session keeps them across steps), else they are
    computed here.
    """
    node = graph.node(node_id)
    values.outputs.pop(node_id, None)
    values.errors.pop(node_id, None)
    values.held.drop(node_id)
    s = node.spec
    if s is None and node.graph is None:
        values.errors[node_id] = NodeError(node_id, f"unknown node type '{node.type}' (a placeholder that keeps "
                                                    "its data but can't run)", "UnknownNodeType")
        return False
    gathered = _gather(graph, node, values, graph.inputs_of(node_id) if incoming is None else incoming,
                       feeds or {}, ports)
    if isinstance(gathered, NodeError):
        values.errors[node_id] = gathered
        return False
    ctx.node = node
    try:
        if node.graph is not None or s is None:  # (s is None only for a subgraph: placeholders returned above)
            result = run_subgraph(ctx, gathered)
        else:
            params = s.validate_params(node.params) if params is None else params
            _budget.check(s, gathered, params, values.held.total)  # an op too big for memory or time: refused
            result = s.evaluate(ctx, gathered, params)
        outputs = _as_outputs(node, result)
        values.held.add(node_id, outputs)  # (before they are kept: a refusal keeps none)
        values.outputs[node_id] = outputs
        return True
    except _budget.BudgetError as exc:  # named by the node's title when the op is one of a formula's
        label = node_label(graph, node_id)
        message = str(exc) if exc.op == label else f"{label}: {exc}"
        values.errors[node_id] = NodeError(node_id, message, type(exc).__name__, exception=exc)
        return False
    except Exception as exc:  # any failure of a node is attached to it, never raised
        values.errors[node_id] = NodeError(node_id, str(exc) or type(exc).__name__, type(exc).__name__,
                                           exception=exc)
        return False


def evaluate(graph: Graph, device: str = "cpu", seed: int = 0, states: States | None = None,
             training: bool = True, feeds: Feeds | None = None) -> Values:
    """Evaluate every node in topological order; errors are attached to nodes, never raised."""
    values = Values(device, seed, training)
    try:
        order = graph.topological_order()
    except (GraphError, KeyError) as exc:  # KeyError: an edge to a missing node
        message = str(exc) if isinstance(exc, GraphError) else f"an edge refers to a missing node {exc}"
        for n in graph.nodes:
            values.errors[n] = NodeError(n, message, "GraphError")
        return values
    incoming: dict[str, dict[str, Edge]] = {}
    for e in graph.edges:
        incoming.setdefault(e.dst, {})[e.dst_port] = e
    for node_id in order:
        ctx = make_context(node_id, device, seed, states, training)
        evaluate_node(graph, node_id, values, ctx, incoming.get(node_id, {}), feeds)
    return values


class SubgraphError(RuntimeError):
    """A node inside a subgraph failed; the message names the inner node."""


def _inner_graph(ctx: _spec.EvalContext, inner: dict[str, Any]) -> Graph:
    """The inner document, rebuilt only when the node's inner dict changed (cached in the node's state)."""
    cached = ctx.state.get("_inner")
    if cached is None or cached[0] != inner:
        cached = (copy.deepcopy(inner),
                  Graph.from_dict({"nodes": inner.get("nodes", ()), "edges": inner.get("edges", ())}))
        ctx.state["_inner"] = cached
    return cached[1]


def run_subgraph(ctx: _spec.EvalContext, inputs: dict[str, Any]) -> dict[str, Any]:
    """Evaluate ``ctx.node``'s inner graph with ``inputs`` fed to its input ports; its outputs by name.

    Inner nodes are seeded from the run's seed and their own ids (as if expanded) and keep their
    state under ``ctx.state["inner"]``. An inner failure raises the same exception type, naming the node.
    """
    inner = ctx.node.graph if ctx.node is not None else None
    if inner is None:
        raise ValueError("a graph.subgraph node runs its inner graph: pass the node as EvalContext.node")
    g = _inner_graph(ctx, inner)
    feeds = {}
    for port in inner.get("inputs", ()):
        if port["name"] in inputs:
            for dst, dst_port in port.get("to", ()):
                feeds[(dst, dst_port)] = inputs[port["name"]]
    states = ctx.state.setdefault("inner", {})
    for gone in [nid for nid in states if nid not in g.nodes]:  # an inner node the edited inner graph dropped: its
        del states[gone]  # weights are no longer the subgraph's (a fresh session never built them)
    values = evaluate(g, ctx.device, ctx.seed, states, ctx.training, feeds)
    out: dict[str, Any] = {}
    for port in inner.get("outputs", ()):
        src, src_port = port["from"]
        err = values.errors.get(src)
        if err is not None:
            if err.skipped:  # report the inner node that actually failed
                ancestors = g.ancestors(src)
                err = next((e for n, e in values.errors.items() if n in ancestors and not e.skipped), err)
            raise _inner_failure(err, node_label(g, err.node_id), g.node(err.node_id).type)
        out[port["name"]] = values[src, src_port]
    return out


def _inner_failure(err: NodeError, label: str, type_id: str) -> Exception:
    message = f"inside the subgraph, node '{label}' ({type_id}): {err.message}"
    exc = err.exception
    if exc is not None:
        try:
            return type(exc)(message)
        except Exception:  # an exception class with another constructor
            pass
    return SubgraphError(message)
