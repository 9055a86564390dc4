"""Which node type computes a recorded call: ``map_call(call) -> (type id, inputs, params, output ports)``.

The call's arguments are bound to the op's signature (defaults filled in). A row of the table names the
node type and which arguments feed its input ports; the node's parameters are taken from the arguments
of the same name. Every other argument must hold its default, else the call is not this node type and
``map_call`` returns None (the builder makes an opaque ``code.op`` node instead). A few ops need their
arguments rearranged (``x.view(2, 3)``, ``x[0, 1:]``, reflected operators, ``autograd.grad``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import core
from core.nodegraph.model import code_ops
from core.nodegraph.model.nodes import compare, losses, math, nn_ops, reduce
from core.nodegraph.model.nodes.shape import index_code
from core.nodegraph.model.spec import NodeSpec, has_spec

if TYPE_CHECKING:
    from core.nodegraph.model.code_trace import Call

__all__ = ["map_call", "Mapped"]

# what map_call gives: (type id, {port: value}, params, output port names or None)
Mapped = tuple[str, dict[str, Any], dict[str, Any], tuple[str, ...] | None]
Row = tuple[str, dict[str, int | str], tuple[str, ...] | None]  # (type id, {port: argument name or position}, outputs)
_TABLE: dict[str | None, Row] = {}  # registry name -> its row
_SPECIAL: dict[str | None, Callable[[Call], Mapped | None]] = {}  # registry name -> fn(call) -> mapping or None


def _name(fn: object) -> str | None:
    return code_ops.name_of(fn)


def _row(fn: object, type_id: str, ports: dict[str, int | str], outputs: tuple[str, ...] | None = None) -> None:
    name = _name(fn)
    if name is not None and has_spec(type_id):
        _TABLE.setdefault(name, (type_id, ports, outputs))


def _table() -> dict[str | None, Row]:
    if _TABLE:
        return _TABLE
    F = core.nn.functional  # PyTorch's usual name
    for n in math.UNARY:
        _row(getattr(core, n), f"math.{n}", {"x": 0})
    for n in list(math.BINARY) + ["div"]:
        _row(getattr(core, n), f"math.{n}", {"a": 0, "b": 1})
    for n in compare.UNARY:
        _row(getattr(core, n), f"compare.{n}", {"x": 0})
    for n in compare.BINARY:
        _row(getattr(core, n), f"compare.{n}", {"a": 0, "b": 1})
    for n in list(reduce.PLAIN) + list(reduce.SCANS) + ["prod", "var", "std", "norm"]:
        _row(getattr(core, n), f"reduce.{n}", {"x": 0})
    for n in reduce.WITH_INDICES:
        _row(getattr(core, n), f"reduce.{n}", {"x": 0}, ("out", "indices"))
    for n in ("matmul", "mm", "bmm", "dot", "outer"):
        _row(getattr(core, n), f"linalg.{n}", {"a": 0, "b": 1})
    for n in list(nn_ops.PLAIN) + list(nn_ops.WITH_PARAMS):
        _row(getattr(F, n), f"nn.{n}", {"x": 0})
    _row(F.linear, "nn.linear_fn", {"x": 0, "weight": 1, "bias": 2})
    for key, (fn, _doc, _params) in losses.LOSSES.items():
        _row(fn, f"loss.{key}", {"input": 0, "target": 1})
    for n in ("transpose", "t", "squeeze", "unsqueeze", "flatten", "contiguous"):
        _row(getattr(core.Tensor, n), f"shape.{n}", {"x": 0})
    _row(core.clamp, "math.clamp", {"x": 0, "min": 1, "max": 2})
    _row(core.Tensor.detach, "grad.detach", {"x": 0})
    _row(core.where, "compare.where", {"condition": 0, "a": 1, "b": 2})
    for fn, special in ((core.Tensor.view, _view), (core.Tensor.reshape, _view), (core.Tensor.permute, _permute),
                        (core.Tensor.__getitem__, _getitem), (core.cat, _join), (core.stack, _join),
                        (core.autograd.grad, _grad), (core.div, _div)):
        _SPECIAL[_name(fn)] = special
    _SPECIAL["autograd.gradcheck"] = _gradcheck
    for attr, type_id in (("__radd__", "math.add"), ("__rsub__", "math.sub"), ("__rmul__", "math.mul"),
                          ("__rtruediv__", "math.div"), ("__rpow__", "math.pow"), ("__rmatmul__", "linalg.matmul")):
        _TABLE[_name(getattr(core.Tensor, attr))] = (type_id, {"a": 1, "b": 0}, None)
    # x @ w is matmul (the operator wraps no registry op of its own: it was an opaque node with four outputs)
    _TABLE[_name(core.Tensor.__matmul__)] = ("linalg.matmul", {"a": 0, "b": 1}, None)
    return _TABLE


def _bound(call: Call) -> tuple[inspect.Signature, dict[str, Any]] | None:
    """The op's signature and the call's arguments by name, defaults filled in; None when they don't bind."""
    try:
        sig = inspect.signature(call.fn)
        bound = sig.bind(*call.args, **call.kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    return sig, dict(bound.arguments)


def _is_default(value: object, default: object) -> bool:
    if default is inspect.Parameter.empty or isinstance(value, core.Tensor) or isinstance(default, core.Tensor):
        return False
    try:
        return bool(value == default) and type(value) is type(default)
    except Exception:  # an argument whose == is not a plain truth value is not a default
        return False


def _sentinel(value: object, default: object) -> bool:
    """An argument left at a default that is a marker object (``dim=ALL_DIMS``): the node's default stands for it."""
    return value is default and not isinstance(value, (type(None), bool, int, float, str, tuple, list))


def _plain(call: Call, row: Row) -> Mapped | None:
    type_id, ports, outputs = row
    bound = _bound(call)
    if bound is None:
        return None
    sig, args = bound
    names = list(sig.parameters)
    inputs: dict[str, Any] = {}
    for port, where in ports.items():
        arg = names[where] if isinstance(where, int) else where
        if arg not in args:
            return None
        inputs[port] = args.pop(arg)
    spec_params = {p.name for p in _spec(type_id).params}
    params = {k: v for k, v in args.items() if k in spec_params and not _sentinel(v, sig.parameters[k].default)}
    for k, v in args.items():
        if k not in spec_params and not _is_default(v, sig.parameters[k].default):
            if sig.parameters[k].kind is inspect.Parameter.VAR_POSITIONAL and v == ():
                continue
            if sig.parameters[k].kind is inspect.Parameter.VAR_KEYWORD and v == {}:
                continue
            return None
    if "dim" in params and isinstance(params["dim"], list):
        params["dim"] = tuple(params["dim"])
    if type_id.startswith("reduce.") and type_id.split(".")[1] in reduce.WITH_INDICES and params.get("dim") is None:
        outputs = ("out",)
    return type_id, inputs, params, outputs


def _spec(type_id: str) -> NodeSpec:
    from core.nodegraph.model.spec import get_spec

    return get_spec(type_id)


def _sizes(values: Sequence[object]) -> tuple[int, ...] | None:
    if len(values) == 1 and isinstance(values[0], (tuple, list)):
        values = values[0]
    sizes = [v for v in values if isinstance(v, int) and not isinstance(v, bool)]
    return tuple(sizes) if len(sizes) == len(values) else None


def _view(call: Call) -> Mapped | None:
    if len(call.args) < 2 or call.kwargs:
        return None
    shape = _sizes(call.args[1:])
    return None if shape is None else (f"shape.{call.name.rsplit('.', 1)[-1]}", {"x": call.args[0]}, {"shape": shape},
                                       None)


def _permute(call: Call) -> Mapped | None:
    if len(call.args) < 2 or call.kwargs:
        return None
    dims = _sizes(call.args[1:])
    return None if dims is None else ("shape.permute", {"x": call.args[0]}, {"dims": dims}, None)


def _getitem(call: Call) -> Mapped | None:
    index = call.args[1] if len(call.args) == 2 else None
    parts = index if isinstance(index, tuple) else (index,)
    ok = all(p is None or p is Ellipsis or (isinstance(p, int) and not isinstance(p, bool))
             or (isinstance(p, slice) and all(b is None or (isinstance(b, int) and not isinstance(b, bool))
                                              for b in (p.start, p.stop, p.step))) for p in parts)
    if not ok or call.kwargs:
        return None
    return "shape.slice", {"x": call.args[0]}, {"index": index_code(parts).rstrip(",")}, None


def _join(call: Call) -> Mapped | None:
    bound = _bound(call)
    if bound is None or bound[1].get("out") is not None:
        return None
    args = bound[1]
    tensors = args["tensors"]
    if not isinstance(tensors, (list, tuple)) or not 1 <= len(tensors) <= 4:
        return None
    kind = "cat" if call.name in ("cat", "concat", "concatenate") else "stack"
    return f"join.{kind}", {f"in{i}": t for i, t in enumerate(tensors)}, {"dim": args["dim"]}, None


def _one(value: object) -> object:
    if isinstance(value, (list, tuple)):
        return value[0] if len(value) == 1 else None
    return value


def _grad(call: Call) -> Mapped | None:
    bound = _bound(call)
    if bound is None or bound[1]["is_grads_batched"] or bound[1]["materialize_grads"]:
        return None
    args = bound[1]
    outputs, inputs = _one(args["outputs"]), _one(args["inputs"])
    grad_outputs = _one(args["grad_outputs"]) if args["grad_outputs"] is not None else None
    if not isinstance(outputs, core.Tensor) or not isinstance(inputs, core.Tensor):
        return None
    create = bool(args["create_graph"])
    retain = create if args["retain_graph"] is None else bool(args["retain_graph"])
    return ("grad.autograd_grad", {"outputs": outputs, "inputs": inputs, "grad_outputs": grad_outputs},
            {"create_graph": create, "retain_graph": retain, "allow_unused": bool(args["allow_unused"])}, None)


def _gradcheck(call: Call) -> Mapped | None:
    """``gradcheck(fn, (x,), eps=..., atol=..., rtol=...)``: what ``code_gradcheck`` read from the snippet."""
    info = call.extra
    if "formula" not in info:
        return None
    return "check.gradcheck", {"x": info["x"]}, {"formula": info["formula"], **info["params"]}, None


def _div(call: Call) -> Mapped | None:
    bound = _bound(call)
    if bound is None or bound[1].get("out") is not None:
        return None
    args = bound[1]
    mode = args.get("rounding_mode")
    return "math.div", {"a": args["input"], "b": args["other"]}, {"rounding_mode": mode or "none"}, None


def map_call(call: Call) -> Mapped | None:
    """``(type id, {port: value}, params, output port names or None)`` for a recorded call, or None."""
    table = _table()
    special = _SPECIAL.get(call.name)
    if special is not None:
        return special(call)
    row = table.get(call.name)
    return _plain(call, row) if row is not None else None
