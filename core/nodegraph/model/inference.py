"""Shape inference: the shape, dtype and device of every port before a session runs anything.

Approach (the choice, and why): each node's spec is evaluated in topological order on the actual
outputs of its inputs, in a sandbox (fresh per-node state unless the caller passes ``states``, seeded
generators), with autograd on. That is the only way to be exactly right about what ``core`` does:
PyTorch's broadcasting, promotion, view/stride rules (``view`` of a transposed tensor fails here as it
will in the session), data-dependent shapes (``nonzero``, boolean masks) and gradient nodes
(``autograd.grad`` needs the recorded graph, so no ``no_grad``). A node that would fail gets PyTorch's
message from ``core`` attached instead of raising. The graphs of a playground are small, so a sandboxed
forward pass costs milliseconds.

A spec may set the optional ``infer`` hook (``NodeSpec.infer(input_infos, params) -> {port: PortInfo}``)
for a node that is expensive to run (a large convolution, a dataset): inference then uses the hook and
feeds downstream nodes stand-in zeros of the inferred shape (real zeros up to ``STANDIN_REAL`` elements,
else a zero-stride expanded scalar, so memory stays flat; a ``view`` of such a large stand-in is judged
like a view of an expanded tensor). A shaped source (zeros, ones, full, rand, randn) of more than ``STANDIN_REAL``
elements gets such a stand-in too, built from its parameters (its fill value; 0.5 or 0 for rand and randn), so
inferring a graph with a 50M-element source costs no 200 MB tensor; when something downstream may write into it
(an in-place op, a formula, imported code, a subgraph) the real tensor is made, as a zero-stride view refuses
writes. Placeholders and nodes with an unconnected required input give
``UNKNOWN`` ports and a reason, not an error; nodes downstream of a failure are unknown too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import core
from core.nodegraph.model import budget as _budget
from core.nodegraph.model.document import Edge, Graph, GraphError, Node
from core.nodegraph.model.evaluate import NodeError, Values, evaluate_node, input_ports, make_context
from core.nodegraph.model.spec import EvalContext

__all__ = ["PortInfo", "UNKNOWN", "InferenceResult", "infer", "info_of", "standin", "STANDIN_REAL"]

STANDIN_REAL = 4096
# shaped sources inferred from their parameters when large: the value a stand-in is filled with (None: fill_value)
_SOURCE_FILLS: dict[str, float | None] = {"source.zeros": 0.0, "source.ones": 1.0, "source.full": None,
                                          "source.rand": 0.5, "source.randn": 0.0}
_MAY_WRITE = ("inplace.", "expr.", "code.")  # node types that may write into their inputs


@dataclass(frozen=True)
class PortInfo:
    """What flows through a port: ``kind`` is tensor, scalar (a Python number), another type name, or unknown."""

    shape: tuple[int, ...] | None = None
    dtype: str | None = None
    device: str | None = None
    kind: str = "unknown"
    strides: tuple[int, ...] | None = None
    contiguous: bool | None = None

    @property
    def known(self) -> bool:
        return self.kind != "unknown"

    def __str__(self) -> str:
        if self.kind == "tensor":
            return f"{self.dtype}[{', '.join(map(str, self.shape or ()))}] on {self.device}"
        return self.dtype or self.kind


UNKNOWN = PortInfo()


def info_of(value: Any) -> PortInfo:
    """The PortInfo of a computed value."""
    if isinstance(value, core.Tensor):
        return PortInfo(tuple(value.shape), str(value.dtype).rsplit(".", 1)[-1], str(value.device), "tensor",
                        tuple(value.stride()), value.is_contiguous())
    if isinstance(value, (bool, int, float)):
        return PortInfo((), type(value).__name__, None, "scalar")
    return PortInfo(None, None, None, type(value).__name__)


def standin(info: PortInfo) -> core.Tensor | bool | int | float:
    """A cheap tensor with ``info``'s shape, dtype and device (for the nodes downstream of an ``infer`` hook)."""
    if info.kind == "scalar":
        zeros: dict[str | None, bool | int | float] = {"bool": False, "int": 0}
        return zeros.get(info.dtype, 0.0)
    if info.kind != "tensor" or info.shape is None or info.dtype is None:
        raise ValueError(f"no stand-in for a {info.kind} port")
    dtype = getattr(core, info.dtype)
    numel = 1
    for s in info.shape:
        numel *= s
    if numel <= STANDIN_REAL:
        return core.zeros(info.shape, dtype=dtype, device=info.device)
    return core.zeros((), dtype=dtype, device=info.device).expand(*info.shape)


@dataclass
class InferenceResult:
    """Per port a PortInfo; per failing node PyTorch's message; per unknown node the reason."""

    ports: dict[tuple[str, str], PortInfo] = field(default_factory=dict)  # by (node id, port)
    errors: dict[str, str] = field(default_factory=dict)
    unknown: dict[str, str] = field(default_factory=dict)

    def port(self, node_id: str, port: str = "out") -> PortInfo:
        return self.ports.get((node_id, port), UNKNOWN)

    def ok(self) -> bool:
        return not self.errors and not self.unknown


def _run_hook(graph: Graph, node: Node, values: Values, incoming: dict[str, Edge]) -> dict[str, PortInfo] | None:
    """Try the spec's ``infer`` hook; None when it doesn't apply (no hook, or an input isn't known)."""
    spec = node.spec
    hook = spec.infer if node.graph is None and spec is not None else None
    if spec is None or hook is None:
        return None
    infos: dict[str, PortInfo] = {}
    for port in input_ports(node):
        e = incoming.get(port.name)
        if e is None:
            if not port.optional:
                return None
            continue
        if not values.ok(e.src) or e.src_port not in values.outputs[e.src]:
            return None
        infos[port.name] = info_of(values.outputs[e.src][e.src_port])
    return hook(infos, spec.validate_params(node.params))


def _large_source(node: Node, ctx: EvalContext) -> core.Tensor | None:
    """The stand-in output of a shaped source larger than ``STANDIN_REAL`` elements: one element of its fill value
    expanded to its shape, with its dtype, device and ``requires_grad``. None for anything else (another type, a
    small one, invalid parameters, over the memory budget: evaluating it makes or refuses it as usual)."""
    if node.type not in _SOURCE_FILLS or node.spec is None or node.graph is not None:
        return None
    try:
        params = node.spec.validate_params(node.params)
        shape = tuple(params["shape"])
        numel = 1
        for n in shape:
            numel *= n
        if numel <= STANDIN_REAL:
            return None
        _budget.check(node.spec, {}, params)
        dtype = None if params["dtype"] in ("default", "auto") else getattr(core, params["dtype"])
        if node.type in ("source.rand", "source.randn") and dtype is not None and not dtype.is_floating_point:
            return None  # the real op refuses it with PyTorch's message
        fill = _SOURCE_FILLS[node.type]
        device = ctx.device if params["device"] == "context" else params["device"]
        t = core.full((), params["fill_value"] if fill is None else fill, dtype=dtype, device=device).expand(*shape)
        if params.get("requires_grad"):
            t.requires_grad_(True)  # raises for an integer dtype: its evaluation then gives finish_source's message
    except Exception:  # the real evaluation reports it
        return None
    return t


def _written_below(graph: Graph, order: list[str]) -> set[str]:
    """The nodes from which a node that may write into its inputs can be reached (``_MAY_WRITE``, subgraphs)."""
    children: dict[str, list[str]] = {}
    for e in graph.edges:
        children.setdefault(e.src, []).append(e.dst)
    marked: set[str] = set()
    for nid in reversed(order):
        node = graph.nodes[nid]
        if node.type.startswith(_MAY_WRITE) or node.graph is not None or any(
                c in marked for c in children.get(nid, ())):
            marked.add(nid)
    return marked


def _infer_node(graph: Graph, node_id: str, values: Values, ctx: EvalContext, incoming: dict[str, Edge],
                written: set[str]) -> None:
    node = graph.node(node_id)
    try:
        out_infos = _run_hook(graph, node, values, incoming)
        if out_infos is not None:
            values.outputs[node_id] = {p: standin(i) for p, i in out_infos.items()}
            return
    except Exception as exc:  # a failing hook marks its node like a failing op
        values.errors[node_id] = NodeError(node_id, str(exc), type(exc).__name__, exception=exc)
        return
    large = _large_source(node, ctx) if node_id not in written else None
    if large is not None:
        values.outputs[node_id] = {"out": large}
        return
    evaluate_node(graph, node_id, values, ctx, incoming)


def infer(graph: Graph, device: str = "cpu", seed: int = 0, states: dict[str, Any] | None = None) -> InferenceResult:
    """Shape, dtype and device of every port, and the errors ops would raise, without raising."""
    result = InferenceResult()
    try:
        order = graph.topological_order()
    except (GraphError, KeyError):
        for n in graph.nodes:
            result.unknown[n] = "the graph has a cycle or a dangling edge"
        return result
    values = Values(device, seed, True)
    incoming: dict[str, dict[str, Edge]] = {}
    for e in graph.edges:
        incoming.setdefault(e.dst, {})[e.dst_port] = e
    states = {} if states is None else states
    written = _written_below(graph, order)
    for node_id in order:
        _infer_node(graph, node_id, values, make_context(node_id, device, seed, states), incoming.get(node_id, {}),
                    written)
    for node_id in order:
        err = values.errors.get(node_id)
        if err is None:
            for port, value in values.outputs.get(node_id, {}).items():
                result.ports[(node_id, port)] = info_of(value)
        elif err.skipped or err.type in ("MissingInput", "UnknownNodeType"):
            result.unknown[node_id] = err.message
        else:
            result.errors[node_id] = f"{err.type}: {err.message}"
    return result
