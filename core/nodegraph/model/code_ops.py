"""The ops a code import can record and an opaque-op node can replay, by stable registry name.

A registry name is ``add`` (``core.add``), ``F.mse_loss`` (``core.nn.functional``), ``linalg.norm``,
``special.erf``, ``autograd.grad`` or ``Tensor.view`` (a method with no top-level function). Several names
that are one function (``x.mul``, ``x * w``, ``torch.mul``) share the first name in that order, so a recorded
call has one name whatever spelling the snippet used.

Only ``core``'s op families are listed (functions defined in ``core.ops``, ``core.nn.functional``,
``core.linalg``, ``core.special`` and the Tensor method table): no file I/O, seeding or settings. A graph
file names an op by its registry name and never carries code; ``resolve`` refuses any other name.

``encode_args``/``decode_args`` turn a call's arguments into JSON-able data and back: tensors become
``{"$in": k}`` (the node's k-th input), tuples, slices, dtypes and devices get tagged objects.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterator, Sequence
from types import ModuleType
from typing import Any

import core
import core.nn.functional as F  # PyTorch's usual name
from core.ops.tensor_methods import TENSOR_METHODS

__all__ = ["OpError", "op_table", "resolve", "name_of", "encode_args", "decode_args", "tensors_in"]

_MODULES = (("", core, ("core.ops", "core.functional")), ("F.", F, ("core.nn.functional",)),
            ("linalg.", core.linalg, ("core.linalg", "core.ops")),
            ("special.", core.special, ("core.special", "core.ops")))
Fn = Callable[..., Any]  # a recordable op
# what encode_args writes: JSON values, tensors as {"$in": k} and tagged objects
Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
_TABLE: dict[str, Fn] = {}
_NAMES: dict[object, str] = {}  # function -> its first registry name
_LEARNT: list[object] = [None]  # what ``core.add`` wrapped when _NAMES last learnt the wrapped functions


class OpError(ValueError):
    """An op name outside the registry, or arguments that can't be stored as data."""


def _public_functions(module: ModuleType, origins: tuple[str, ...]) -> Iterator[tuple[str, Fn]]:
    for attr in sorted(vars(module)):
        fn = getattr(module, attr)
        if attr.startswith("_") or not inspect.isfunction(fn):
            continue
        if fn.__module__ and fn.__module__.startswith(origins):
            yield attr, fn


def op_table() -> dict[str, Fn]:
    """``{registry name: function}`` of every recordable op (built once; the functions they wrap learnt again when
    core's dispatch turns on later: ``_learn_wrapped``)."""
    if not _TABLE:
        _build()
    if getattr(_TABLE["add"], "__wrapped__", None) is not _LEARNT[0]:  # dispatch turned on since
        _adopt_alias_wrappers()
        _learn_wrapped()
    return _TABLE


def _build() -> None:
    """The table, and each function's first registry name."""
    for prefix, module, origins in _MODULES:
        for attr, fn in _public_functions(module, origins):
            _TABLE[prefix + attr] = fn
            _NAMES.setdefault(fn, prefix + attr)
    _TABLE["autograd.grad"] = core.autograd.grad
    _NAMES.setdefault(core.autograd.grad, "autograd.grad")
    _learn_wrapped()
    for attr, fn in {**TENSOR_METHODS, "detach": core.Tensor.detach}.items():
        _TABLE["Tensor." + attr] = fn
        # an operator with its own hot path (``a + b``) records as the op it wraps (``add``)
        inner = next((_NAMES[g] for g in wrapped_chain(fn)[1:] if g in _NAMES), None)
        _NAMES.setdefault(fn, inner or "Tensor." + attr)
    _learn_wrapped()


def _learn_wrapped() -> None:
    """The functions that the table's functions wrap answer to their names (down to the next one in the table).

    NOTE: once a Tensor subclass, mode or tensor-like exists, core's public functions are ``__torch_function__``
    wrappers of the ops: activation turns each function, in place, into a wrapper of a new copy of its op
    (``__wrapped__``), which ``inspect.unwrap`` and core's own modules hand out. Names learnt before it miss the
    copies (after a test module's subclass, ``gradcheck(torch.sin, ...)`` got no ``sin(x)`` formula), so they are
    learnt again then: the names are the same whether the table was read before dispatch turned on or after."""
    functions = {id(fn) for fn in _TABLE.values()}
    for fn in _TABLE.values():
        for inner in wrapped_chain(fn)[1:]:
            if id(inner) in functions:
                break
            _NAMES.setdefault(inner, _NAMES[fn])
    _LEARNT[0] = getattr(_TABLE["add"], "__wrapped__", None)


def _adopt_alias_wrappers() -> None:
    """A name that shared another name's function before dispatch turned on (``grid_sampler_2d`` was
    ``grid_sampler``) stands for the wrapper that activation gave it, as in a table built after: the recorder
    patches what the module holds now (the recorder's own wrapper of a function, which holds it, is not adopted)."""
    for prefix, module, _origins in _MODULES:
        for attr, current in list(vars(module).items()):
            fn = _TABLE.get(prefix + attr)
            if fn is None or fn in wrapped_chain(current):
                continue
            if getattr(fn, "__wrapped__", None) in wrapped_chain(current)[1:]:
                _TABLE[prefix + attr] = current
                _NAMES.setdefault(current, prefix + attr)


def name_of(fn: object) -> str | None:
    """The registry name of a function (its first name in the registry), or None."""
    op_table()
    return next((_NAMES[g] for g in wrapped_chain(fn) if g in _NAMES), None)


def wrapped_chain(fn: object) -> list:
    """``fn`` and the functions it wraps, outermost first: core's ``__torch_function__`` wrapper of a method that
    refuses ``out=`` of an op is three layers, and each layer answers to the op's name."""
    chain = [fn]
    while len(chain) < 8 and (inner := getattr(chain[-1], "__wrapped__", None)) is not None:
        chain.append(inner)
    return chain


def resolve(name: str) -> Fn:
    """The function a registry name stands for; OpError for any other name."""
    fn = op_table().get(name) if isinstance(name, str) else None
    if fn is None:
        raise OpError(f"'{str(name)[:80]}' is not an op this app can run")
    return fn


# ----- arguments as data ---------------------------------------------------------------------------------
def encode_args(value: object, tensors: list[core.Tensor]) -> Json:
    """``value`` as JSON-able data; each tensor is appended to ``tensors`` and written ``{"$in": index}``."""
    if isinstance(value, core.Tensor):
        for i, t in enumerate(tensors):
            if t is value:
                return {"$in": i}
        tensors.append(value)
        return {"$in": len(tensors) - 1}
    if value is None or isinstance(value, (bool, int, float, str)):
        if isinstance(value, float) and value != value:
            return {"$float": "nan"}
        if isinstance(value, float) and value in (float("inf"), float("-inf")):
            return {"$float": "inf" if value > 0 else "-inf"}
        return value
    if isinstance(value, list):
        return [encode_args(v, tensors) for v in value]
    if isinstance(value, tuple):
        return {"$tuple": [encode_args(v, tensors) for v in value]}
    if isinstance(value, dict) and all(isinstance(k, str) and not k.startswith("$") for k in value):
        return {k: encode_args(v, tensors) for k, v in value.items()}
    if isinstance(value, slice):
        return {"$slice": [encode_args(v, tensors) for v in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"$ellipsis": True}
    if isinstance(value, core.dtype):
        return {"$dtype": str(value).split(".")[-1]}
    if isinstance(value, core.device):
        return {"$device": str(value)}
    raise OpError(f"an argument of type {type(value).__name__} can't be stored in a graph")


_TAGS = {"$tuple", "$slice", "$ellipsis", "$dtype", "$device", "$in", "$float"}


def decode_args(data: object, inputs: Sequence[object], depth: int = 0) -> Any:
    """The value ``encode_args`` wrote, with ``{"$in": k}`` replaced by ``inputs[k]``; OpError on bad data."""
    if depth > 32:
        raise OpError("arguments nested too deeply")
    if data is None or isinstance(data, (bool, int, float, str)):
        return data
    if isinstance(data, list):
        return [decode_args(v, inputs, depth + 1) for v in data]
    if not isinstance(data, dict):
        raise OpError(f"can't read an argument of type {type(data).__name__}")
    tags = _TAGS & set(data)
    if not tags:
        return {k: decode_args(v, inputs, depth + 1) for k, v in data.items()}
    (tag,) = tags if len(tags) == 1 and len(data) == 1 else (None,)
    value = data.get(tag)
    if tag == "$in" and isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(inputs):
        return inputs[value]
    if tag == "$tuple" and isinstance(value, list):
        return tuple(decode_args(v, inputs, depth + 1) for v in value)
    if tag == "$slice" and isinstance(value, list) and len(value) == 3:
        return slice(*(decode_args(v, inputs, depth + 1) for v in value))
    if tag == "$ellipsis":
        return Ellipsis
    if tag == "$float" and value in ("nan", "inf", "-inf"):
        return float(value)
    if tag == "$dtype" and isinstance(value, str) and isinstance(getattr(core, value, None), core.dtype):
        return getattr(core, value)
    if tag == "$device" and isinstance(value, str) and len(value) < 20:
        return core.device(value)
    raise OpError(f"can't read the argument {str(data)[:80]}")


def tensors_in(value: object) -> list[core.Tensor]:
    """The tensors inside an argument (lists, tuples and dicts walked)."""
    if isinstance(value, core.Tensor):
        return [value]
    if isinstance(value, (list, tuple)):
        return [t for v in value for t in tensors_in(v)]
    if isinstance(value, dict):
        return [t for v in value.values() for t in tensors_in(v)]
    return []
