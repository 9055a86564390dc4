"""Node types that code import needs: ``code.op`` (an opaque op) and ``param.values`` (a parameter with values).

``code.op`` stands for one recorded call that no other node type computes (``torch.cdist(a, b)``,
``x.unfold(0, 2, 1)``). It names the op by its registry name (``core.nodegraph.model.code_ops``: ``cdist``,
``Tensor.unfold``) and keeps the call's other arguments as data (``args``, JSON text); its inputs
``in0..in{n-1}`` are the tensors of the call in order. Evaluating it calls that ``core`` function, so it
steps forward and backward through ``core``'s autograd like any node. A file can only name ops of the
registry: a ``code.op`` node never runs code from the file, and an unknown op name is an error on the node.

``param.values`` is a named trainable tensor that starts from the given values (a ``nn.Parameter`` kept in
``ctx.state`` so optimizer updates persist across steps, recreated when its values or dtype change):
what an imported module's weights become.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

import numpy as np

import core
from core.nodegraph.model import code_ops, tensor_store
from core.nodegraph.model.nodes._common import DEVICE_NOTES, DEVICES, DTYPE_NOTES, build_for, device_of, dtype_of
from core.nodegraph.model.spec import CodeGen, EvalContext, NamedValues, NodeSpec, Param, ParamError, Port, register

MAX_INPUTS = 16
OUTPUTS = ("out", "out1", "out2", "out3")
OP_TYPE = "code.op"
VALUES_TYPE = "param.values"


def _inputs(p: NamedValues) -> tuple[Port, ...]:
    return tuple(Port(f"in{i}") for i in range(p["tensors"]))


def _decoded(p: NamedValues, tensors: Sequence[object]) -> tuple[Any, Any]:
    try:
        data = json.loads(p["args"])
    except ValueError:
        raise ParamError("parameter 'args' is not JSON") from None
    if not isinstance(data, dict) or not isinstance(data.get("args", []), list) \
            or not isinstance(data.get("kwargs", {}), dict):
        raise ParamError("parameter 'args' must be {\"args\": [...], \"kwargs\": {...}}")
    try:
        args = code_ops.decode_args(data.get("args", []), tensors)
        kwargs = code_ops.decode_args(data.get("kwargs", {}), tensors)
    except code_ops.OpError as exc:
        raise ParamError(f"parameter 'args': {exc}") from None
    return args, kwargs


def _op(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> dict[str, Any]:
    try:
        fn = code_ops.resolve(p["op"])
    except code_ops.OpError as exc:
        raise ParamError(f"parameter 'op': {exc}") from None
    tensors = [inputs.get(f"in{i}") for i in range(p["tensors"])]
    args, kwargs = _decoded(p, tensors)
    result = fn(*args, **kwargs)
    if result is None and p["op"].endswith("__setitem__") and args:  # y[0] = 5.0: its output is y, changed
        result = args[0]
    values = list(result) if isinstance(result, (tuple, list)) else [result]
    return {name: (values[i] if i < len(values) else None) for i, name in enumerate(OUTPUTS)}


def _op_code(cg: CodeGen) -> dict[str, str]:
    """Export: the same call, written with the registry name (``torch.cdist``, ``x.unfold(...)``)."""
    tensors = [cg.inputs.get(f"in{i}", "None") for i in range(cg.params["tensors"])]
    args, kwargs = _decoded(cg.params, [_Raw(t) for t in tensors])
    name = cg.params["op"]
    text = ", ".join([_text(a) for a in args] + [f"{k}={_text(v)}" for k, v in kwargs.items()])
    prefix = {"F.": "F.", "linalg.": "torch.linalg.", "special.": "torch.special.", "autograd.": "torch.autograd.",
              "Tensor.": "torch.Tensor."}
    call = f"torch.{name}({text})"
    for head, module in prefix.items():
        if name.startswith(head):
            call = f"{module}{name[len(head):]}({text})"
    if name.endswith("__setitem__") and args:  # returns None: the node's output is the tensor it changed
        call = f"({call}, {_text(args[0])})[1]"
    r = f"_r_{cg.var}"  # the call's result, bound once by the first output and indexed by the others
    outs = {"out": f"({r}[0] if isinstance({r} := {call}, (tuple, list)) else {r})"}
    outs.update({port: f"({r}[{i}] if isinstance({r}, (tuple, list)) and len({r}) > {i} else None)"
                 for i, port in enumerate(OUTPUTS) if i})
    return outs


class _Raw(str):
    """An input expression inside decoded arguments (written as it is)."""


def _text(value: object) -> str:
    if isinstance(value, _Raw):
        return str(value)
    if isinstance(value, tuple):
        return "(" + "".join(_text(v) + ", " for v in value) + ")"
    if isinstance(value, list):
        return "[" + ", ".join(_text(v) for v in value) + "]"
    if isinstance(value, core.dtype):
        return f"torch.{str(value).split('.')[-1]}"
    if isinstance(value, core.device):
        return f"torch.device({str(value)!r})"
    if value is Ellipsis:
        return "..."
    if isinstance(value, slice):
        return f"slice({_text(value.start)}, {_text(value.stop)}, {_text(value.step)})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {_text(v)}" for k, v in value.items()) + "}"
    return repr(value)


register(NodeSpec(
    OP_TYPE, "code", "Opaque op", "a recorded call with no node type of its own, run by its op name", _op,
    inputs=(Port("in0"),), outputs=tuple(Port(n) for n in OUTPUTS), dynamic_inputs=_inputs,
    params=(Param("op", "str", "clone", doc="the op's registry name (core.nodegraph.model.code_ops)"),
            Param("args", "str", '{"args": [{"$in": 0}], "kwargs": {}}',
                  doc='the call\'s arguments as data; {"$in": k} is input k'),
            Param("tensors", "int", 1, 0, MAX_INPUTS, doc="how many tensor inputs the call takes")),
    code=_op_code))


def _parameter_of(ctx: EvalContext, p: NamedValues) -> core.nn.Parameter:
    """The trainable tensor of a values parameter node, from its ``tensor`` literal."""
    # a saved or imported literal of more than INLINE_MAX values is a TensorValue, not a list (a 16 x 16
    # weight opened from code failed: "cannot reshape array of size 256 into shape ()")
    t = core.tensor(tensor_store.literal(p["tensor"]), dtype=dtype_of(p["dtype"]), device=device_of(ctx, p["device"]))
    if not t.is_floating_point():
        raise ParamError(f"parameter 'tensor': a parameter must hold floating point values, got {t.dtype}")
    return core.nn.Parameter(t)


def _values_key(p: NamedValues) -> tuple:
    """What a values parameter's tensor is built for: its values and dtype (not its name or device)."""
    arr = np.asarray(p["tensor"])
    return arr.shape, arr.dtype.str, arr.tobytes(), p["dtype"]


def _values(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    if ctx.state.get("params") is not p or "tensor" not in ctx.state:
        key = _values_key(p)
        if ctx.state.get("key") != key or "tensor" not in ctx.state:
            ctx.state["tensor"], ctx.state["key"] = build_for(ctx.state, lambda: _parameter_of(ctx, p)), key
        ctx.state["params"] = p
    device = device_of(ctx, p["device"])
    if ctx.state["tensor"].device != core.device(device):  # moved, keeping its trained values
        ctx.state["tensor"] = core.nn.Parameter(ctx.state["tensor"].detach().to(device))
    ctx.state["name"] = p["name"]
    return ctx.state["tensor"]


register(NodeSpec(
    VALUES_TYPE, "param", "Parameter (values)", "a named trainable tensor starting from the given values", _values,
    outputs=(Port("out", "parameter"),),
    params=(Param("name", "str", "w", doc="the name the optimizer and inspector show"),
            Param("tensor", "tensor", [0.0], doc="the starting values"),
            Param("dtype", "choice", "default", choices=("default", "float32", "float64", "float16", "bfloat16"),
                  choice_notes=DTYPE_NOTES),
            Param("device", "choice", "context", choices=DEVICES, choice_notes=DEVICE_NOTES)),
    code=lambda cg: cg.parameter(), build_key=_values_key))
