"""Helpers shared by the node modules: table-driven registration and the common parameters.

Most node types are a thin wrapper around one ``core`` call; ``op_node`` turns a table row
(type id, title, description, input port names, parameters, call) into a registered ``NodeSpec``.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable
from typing import Any, TypeVar

import core
from core.nodegraph.model.spec import CodeHook, EvalContext, NamedValues, NodeSpec, Param, ParamError, Port, register

DTYPES = ("float32", "float64", "float16", "bfloat16", "complex64", "complex128", "int64", "int32", "int16", "int8",
          "uint8", "bool")
DTYPE_CHOICES = ("default",) + DTYPES
DEVICES = ("cpu", "cuda", "context")
DEVICE_NOTES = (("context", "the toolbar's device"),)  # the session's device, which the app's toolbar picks
REDUCTIONS = ("mean", "sum", "none")


Built = TypeVar("Built")


def build_for(state: dict[str, Any], build: Callable[[], Built]) -> Built:
    """``build()`` (a node's module or trainable tensor for its current parameters); when it fails, ``state`` is
    emptied before the error goes on: what the node built for other parameters is no longer its own, and a fresh
    session of the saved file, which never built it, shows none (``Session.node_parameters``, the optimizer and the
    saved trained values would otherwise hold weights of another shape)."""
    try:
        return build()
    except Exception:
        state.clear()
        raise


def default_dtype_name() -> str:
    """core's default floating dtype now, as a dtype choice names it (``float32``)."""
    return str(core.get_default_dtype()).removeprefix("torch.")


# what ``default`` means where it is picked, read when it is offered (a set_default_dtype changes it): a factory
# makes the default dtype; a literal or arange infers from its values as torch.tensor and torch.arange do
DTYPE_NOTES = (("default", default_dtype_name),)
INFERRED_DTYPE_NOTES = (("default", lambda: f"{default_dtype_name()}; ints: int64"),)
Dims = int | tuple[int, ...] | None  # a "dims" parameter's value: one dimension, several, or null for all


def dtype_of(name: str) -> core.dtype | None:
    """The core dtype for a dtype choice; ``default`` gives None (core's default dtype rules)."""
    return None if name in ("default", "auto") else getattr(core, name)


def device_of(ctx: EvalContext, name: str) -> str:
    """A device choice: ``context`` follows the evaluation context's device."""
    return ctx.device if name == "context" else name


def dims_param(name: str = "dim", default: Dims = None, doc: str = "dimension(s) to reduce; null reduces all") -> Param:
    return Param(name, "dims", default, doc=doc)


def keepdim_param() -> Param:
    return Param("keepdim", "bool", False, doc="keep the reduced dimensions with size 1")


def reduction_param() -> Param:
    return Param("reduction", "choice", "mean", choices=REDUCTIONS, doc="how the per-element losses are combined")


def ports(names: Iterable[str], kind: str = "tensor", optional: Container[str] = ()) -> tuple[Port, ...]:
    """Input ports from names; names in ``optional`` may stay unconnected."""
    return tuple(Port(n, kind, optional=n in optional) for n in names)


def as_tensor(value: core.Tensor | float) -> core.Tensor:
    """A Python number (an expression constant) as a 0-d tensor; tensors pass through."""
    return value if isinstance(value, core.Tensor) else core.tensor(value)


def op_node(type_id: str, title: str, description: str, call: Callable[..., Any], inputs: Iterable[str] = ("x",),
            params: Iterable[Param] = (), optional: Container[str] = (), outputs: tuple[Port, ...] | None = None,
            category: str | None = None, code: str | CodeHook | None = None) -> NodeSpec:
    """Register a node that calls ``call(*inputs_in_port_order, **params)``; absent optional inputs pass None.

    ``call`` receives the tensors positionally in port order and the validated parameters by name;
    ``code`` is the export template or hook (``NodeSpec.code``).
    """
    names = tuple(inputs)

    def evaluate(ctx: EvalContext, values: NamedValues, p: NamedValues) -> Any:
        return call(*[values.get(n) for n in names], **p)

    spec = NodeSpec(type_id, category or type_id.split(".")[0], title, description, evaluate,
                    inputs=ports(names, optional=optional), params=tuple(params),
                    outputs=outputs if outputs is not None else (Port("out"),), code=code)
    return register(spec)


def require(cond: bool, message: str) -> None:
    """Raise ParamError when a parameter combination is invalid (checked at evaluation)."""
    if not cond:
        raise ParamError(message)


def finish_source(t: core.Tensor, params: NamedValues) -> core.Tensor:
    """Apply a source's ``requires_grad`` / ``retain_grad`` toggles to a freshly made tensor."""
    if params.get("requires_grad"):
        if not (t.is_floating_point() or t.is_complex()):  # torch's rule: floating point and complex dtypes
            raise ParamError(f"parameter 'requires_grad': only floating point and complex tensors can require "
                             f"gradients, got {t.dtype}")
        t.requires_grad_(True)
    if params.get("retain_grad") and t.requires_grad:
        t.retain_grad()
    return t


def grad_params() -> tuple[Param, ...]:
    return (Param("requires_grad", "bool", False, doc="a leaf that autograd differentiates with respect to"),
            Param("retain_grad", "bool", False, doc="keep .grad on this tensor after backward"))


def call_code(fn: str, inputs: Iterable[str] = ("x",), params: Iterable[Param] = ()) -> str:
    """An export template calling ``fn`` with the inputs positionally and the parameters by keyword,
    e.g. ``call_code("F.mse_loss", ("input", "target"), params)`` ->
    ``"F.mse_loss({input}, {target}, reduction={reduction})"``."""
    args = [f"{{{n}}}" for n in inputs] + [f"{p.name}={{{p.name}}}" for p in params]
    return f"{fn}({', '.join(args)})"
