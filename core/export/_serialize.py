"""An ExportedProgram as plain data for ``core.save``: the graph's nodes (operators by their ATen names), the
signature, the state, the ranges and the output's structure (as a sample of it with zeros for leaves); and back.
Values are kept as (shape, dtype), not as tensors."""

from __future__ import annotations

import operator

import core
from core.export.exported_program import ExportedProgram
from core.export.graph_signature import (
    ExportGraphSignature,
    InputKind,
    InputSpec,
    OutputKind,
    OutputSpec,
    TensorArgument,
)
from core.fx import Graph, Node
from core.utils._pytree import tree_structure, tree_unflatten

__all__ = ["from_payload", "to_payload"]


def _encode(value):
    if isinstance(value, Node):
        return {"node": value.name}
    if isinstance(value, (list, tuple)):
        return type(value)(_encode(v) for v in value)
    if isinstance(value, core.dtype):
        return {"dtype": str(value).split(".")[-1]}
    return value


def _decode(value, nodes: dict):
    if isinstance(value, dict) and set(value) == {"node"}:
        return nodes[value["node"]]
    if isinstance(value, dict) and set(value) == {"dtype"}:
        return getattr(core, value["dtype"])
    if isinstance(value, (list, tuple)):
        return type(value)(_decode(v, nodes) for v in value)
    return value


def _target(node) -> str:
    if node.target is operator.getitem:
        return "operator.getitem"
    return node.target if isinstance(node.target, str) else str(node.target)


def _resolve(target: str, op: str):
    if op in ("placeholder", "output", "get_attr"):
        return target
    if target == "operator.getitem":
        return operator.getitem
    _, name, overload = target.split(".")
    return getattr(getattr(core.ops.aten, name), overload)


def _value(val):
    if isinstance(getattr(val, "fx_annotation", None), str):
        return "sym", str(val)
    if val is None or not hasattr(val, "shape"):
        return None
    return [str(d) if not isinstance(d, int) else d for d in val.shape], str(val.dtype).split(".")[-1]


def _revived(val):
    if val is None:
        return None
    shape, dtype = val
    if shape == "sym":
        from core.export.dynamic_shapes import Symbol

        return Symbol(dtype)
    if all(isinstance(d, int) for d in shape):
        return core.empty(shape, dtype=getattr(core, dtype))
    from core.export import _SymbolicTensor
    from core.export.dynamic_shapes import Symbol

    return _SymbolicTensor((tuple(d if isinstance(d, int) else Symbol(d) for d in shape), getattr(core, dtype)))


def to_payload(ep: ExportedProgram, fmt: str, version: int) -> dict:
    nodes = [{"op": n.op, "name": n.name, "target": _target(n), "args": _encode(n.args), "kwargs": _encode(n.kwargs),
              "stack_trace": n.stack_trace, "val": _value(n.meta.get("val"))} for n in ep.graph.nodes]
    sig = ep.graph_signature
    return {"format": fmt, "version": version, "nodes": nodes,
            "inputs": [(s.kind.name, s.arg.name, s.target, s.persistent) for s in sig.input_specs],
            "outputs": [(s.kind.name, s.arg.name, s.target) for s in sig.output_specs],
            "state_dict": dict(ep.state_dict), "constants": dict(ep.constants),
            "ranges": {str(k): (v.lower, None if repr(v.upper) == "int_oo" else v.upper)
                       for k, v in ep.range_constraints.items()},
            "out_sample": None if ep._out_spec is None else tree_unflatten([0] * ep._out_spec.num_leaves, ep._out_spec)}


def from_payload(payload: dict) -> ExportedProgram:
    from core.export.dynamic_shapes import Symbol, ValueRanges, int_oo

    graph, nodes = Graph(), {}
    for entry in payload["nodes"]:
        args, kwargs = _decode(entry["args"], nodes), _decode(entry["kwargs"], nodes)
        node = graph.create_node(entry["op"], _resolve(entry["target"], entry["op"]), args, kwargs, name=entry["name"])
        node.stack_trace = entry["stack_trace"]
        if entry["val"] is not None:
            node.meta["val"] = _revived(entry["val"])
        nodes[entry["name"]] = node
    signature = ExportGraphSignature(
        [InputSpec(InputKind[k], TensorArgument(a), t, p) for k, a, t, p in payload["inputs"]],
        [OutputSpec(OutputKind[k], TensorArgument(a), t) for k, a, t in payload["outputs"]])
    ranges = {Symbol(k): ValueRanges(lo, int_oo if hi is None else hi) for k, (lo, hi) in payload["ranges"].items()}
    return ExportedProgram(core.nn.Module(), graph, signature, payload["state_dict"], ranges, payload["constants"],
                           None, None if payload["out_sample"] is None else tree_structure(payload["out_sample"]))
