"""The caches behind a session's one route to evaluate a node (``Session.run_node``).

A training step evaluates every node once, with the same inputs, spec and parameters as the step before
(unless the document changed). Three caches make that about as fast as the same model in plain ``core``:

- ``lean_plan``: what the node was evaluated with the first time (the input sources, the spec's evaluate, the
  validated parameters, the output names), so ``run_node(lean=True)`` calls the spec directly. Anything unusual
  (no spec, a subgraph, invalid parameters, a required input not connected) has no lean plan and takes the
  full route, so errors and messages are the same.
- ``StaticOutputs``: the outputs of static nodes (``is_static``) fed by static nodes only, kept across steps
  while their inputs are the very same objects and nobody changed them in place (``run_node(reuse=True)``).
- ``ParameterCache``: a node's trainable tensors, found again only when its module or tensor changes.
"""

from __future__ import annotations

from collections.abc import Callable
from operator import is_
from typing import Any

import core
from core.nodegraph.model.document import Graph, Node

__all__ = ["lean_plan", "lean_outputs", "is_static", "StaticOutputs", "ParameterCache"]

# a lean plan: (session plan, spec, parameter names, parameter values, validated parameters, evaluate,
#               ((port, source node, source port), ...), output names)
PLAN, SPEC, KEYS, VALUES, PARAMS, EVALUATE, SOURCES, OUTPUTS = range(8)

_STATIC_PREFIXES = ("math.", "shape.", "compare.", "reduce.", "linalg.", "join.")
_STATIC_SOURCES = ("source.tensor", "source.zeros", "source.ones", "source.full", "source.arange", "source.eye")


def lean_plan(node: Node, plan: tuple[Any, ...], params: dict[str, Any] | None) -> tuple[Any, ...] | None:
    """The node's lean plan (see ``PLAN``...) from its session plan ``(ctx, incoming edges, checked)`` and its
    validated ``params``, or None for a node the full route must run."""
    if params is None:
        return None
    sources = []
    for port in plan[2][2]:
        edge = plan[1].get(port.name)
        if edge is not None:
            sources.append((port.name, edge.src, edge.src_port))
        elif not port.optional:
            return None
    spec = node.spec
    if spec is None:
        return None
    return (plan, spec, tuple(node.params), tuple(node.params.values()), params, spec.evaluate, tuple(sources),
            tuple(p.name for p in spec.outputs))


def lean_outputs(names: tuple[str, ...], result: Any) -> dict[str, Any]:
    """``evaluate._as_outputs`` with the output names planned."""
    if isinstance(result, dict):
        return result
    if isinstance(result, tuple) and len(names) > 1 and len(result) == len(names):
        return dict(zip(names, result))
    return {names[0] if names else "out": result}


def is_static(node: Node) -> bool:
    """A node whose outputs depend only on its inputs and parameters (not on the step or randomness)."""
    if node.type.endswith("_"):
        return False
    if node.type == "data.dataset":
        p = node.params
        return not p.get("shuffle", True) and (p.get("batch_size") == 0 or p.get("batch_size", 0) >= p.get(
            "n_samples", 1))
    return node.type.startswith(_STATIC_PREFIXES) or node.type in _STATIC_SOURCES


class StaticOutputs:
    """Outputs of static nodes kept across training steps (``flags``: per node, may its outputs be reused)."""

    def __init__(self) -> None:
        self.flags: dict[str, bool] = {}
        self.cache: dict[str, tuple[list[Any], dict[str, Any], list[core.Tensor], list[int]]] = {}

    def clear(self) -> None:
        self.flags, self.cache = {}, {}

    def reusable(self, graph: Graph, nid: str) -> bool:
        """A static node fed by static nodes only (asked in topological order, so the inputs' flags are known;
        a missing one counts as False)."""
        flags = self.flags
        static = flags.get(nid)
        if static is None:
            static = flags[nid] = is_static(graph.nodes[nid]) and all(
                flags.get(e.src) for e in graph.inputs_of(nid).values())
        return static

    def lookup(self, nid: str, inputs: list[Any]) -> dict[str, Any] | None:
        """Last step's outputs when ``inputs`` are the very objects of last step and its outputs were not changed
        in place since (version counters), else None."""
        hit = self.cache.get(nid)  # holds the inputs themselves: compared by identity, never by a reused id
        if hit is not None and len(hit[0]) == len(inputs) and all(map(is_, hit[0], inputs)) and [
                t._version for t in hit[2]] == hit[3]:
            return hit[1]
        return None

    def keep(self, nid: str, inputs: list[Any], out: dict[str, Any] | None) -> None:
        """Remember ``out`` for ``inputs``, unless there is none or it needs gradients."""
        if out is None:
            self.cache.pop(nid, None)
            return
        tensors = [t for t in out.values() if isinstance(t, core.Tensor)]
        if any(t.requires_grad for t in tensors):
            self.cache.pop(nid, None)
            return
        self.cache[nid] = (inputs, out, tensors, [t._version for t in tensors])


def _state_ident(state: dict[str, Any]) -> tuple[Any, ...]:
    """What a node's parameters depend on: its module/tensor, build key and device, and (a subgraph) the same
    for every inner node, so a rebuilt inner layer is noticed."""
    inner = state.get("inner")
    return (id(state.get("module")), id(state.get("tensor")), state.get("key"), state.get("device"),
            None if inner is None else tuple((nid, _state_ident(st)) for nid, st in inner.items()))


_NODE_PARAMETERS: list[Callable[[dict[str, Any]], dict[str, Any]]] = []


def _node_parameters_fn() -> Callable[[dict[str, Any]], dict[str, Any]]:
    """``core.nodegraph.model.nodes.node_parameters`` (imported once: it registers the node types)."""
    if not _NODE_PARAMETERS:
        from core.nodegraph.model.nodes import node_parameters  # registers every node type on first use

        _NODE_PARAMETERS.append(node_parameters)
    return _NODE_PARAMETERS[0]


class ParameterCache:
    """Per node, its trainable tensors; found again only when its module/tensor, build key, device or name changed."""

    def __init__(self) -> None:
        self._found: dict[str, tuple[tuple[Any, ...], dict[str, Any], Any]] = {}

    def clear(self) -> None:
        self._found = {}

    def of(self, nid: str, state: dict[str, Any] | None) -> dict[str, Any]:
        """The trainable tensors of node ``nid`` whose persistent state is ``state``."""
        if not state or "module" not in state and "tensor" not in state and "inner" not in state:
            return {}  # what node_parameters gives such a state (a dataset's, a source's), without the checks
        inner = state.get("inner")
        # NOTE: a parameter node's name is part of it: renaming it keeps the tensor (same build key), and the
        # cached {old name: tensor} named it in parameters(), the optimizer and the saved trained values
        ident = (id(state.get("module")), id(state.get("tensor")), state.get("key"), state.get("device"),
                 state.get("name"), None if inner is None else _state_ident(state))
        hit = self._found.get(nid)
        if hit is not None and hit[0] == ident and hit[2] is state.get("module", state.get("tensor")):
            return hit[1]
        found = _node_parameters_fn()(state)
        self._found[nid] = (ident, found, state.get("module", state.get("tensor")))
        return found
