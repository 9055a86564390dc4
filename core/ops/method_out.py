"""Tensor methods refuse ``out=``, as PyTorch's do.

``torch.add(x, y, out=z)`` writes into ``z``, but ``x.add(y, out=z)`` is a TypeError: the method's argument
parser has no ``out``. core's methods are its op functions, which take ``out``; ``refuse_out`` wraps the method
table's entries that do, so the method raises PyTorch's TypeError before anything runs (a method that takes no
arguments says so: ``TensorBase.exp() takes no keyword arguments``), and a binary operator (``x.__sub__(y,
out=z)``) answers ``NotImplemented`` as PyTorch's, whose operators turn a TypeError into it.
"""

from __future__ import annotations

import inspect

from core.ops.arity_words import arity_error, binding_failed, typed_error
from core.ops.method_args import TRANSLATED, named_as, parser_form

__all__ = ["refuse_out"]

_METHOD_NAMES = {"__abs__": "abs", "__neg__": "neg"}  # the C method PyTorch's dunder is
# the ops whose argument errors are worded for the function (method_args rewords them for the method); the others'
# own errors already read as the method's (``x.maximum(2.0)``: 'other' (position 1))
_REWORDED = frozenset({*TRANSLATED, "max", "min"})


def _parameters(fn) -> dict | None:
    try:
        return dict(inspect.signature(getattr(fn, "__wrapped__", fn)).parameters)
    except (TypeError, ValueError):
        return None


def _message(name: str, params: dict) -> str:
    name = _METHOD_NAMES.get(name, name)
    if all(p == "out" for p in list(params)[1:]):  # only self: PyTorch's method takes no arguments (METH_NOARGS)
        return f"TensorBase.{name}() takes no keyword arguments"
    return f"{name}() got an unexpected keyword argument 'out'"


def _refusing(fn, message: str, params: dict):
    name = fn.__name__

    def method(*args, **kwargs):
        if "out" in kwargs:
            raise TypeError(message)
        try:  # NOTE: no cost unless it raises; then the op's argument errors take the method's wording
            return fn(*args, **kwargs)
        except TypeError as error:
            worded = (arity_error(name, args[1:], kwargs) if binding_failed(error, fn)
                      else typed_error(error, name, args[1:], kwargs))
            if worded is not None:  # (a count, keyword or type no signature takes: the parser's words)
                raise worded from None
            if name not in _REWORDED:
                raise
            translated = parser_form(error, name, args, kwargs, method=True)
            if translated is None:
                raise
            raise translated from None

    named_as(method, fn)
    method.arity_worded = True  # type: ignore[attr-defined]
    method.__signature__ = inspect.Signature([p for name, p in params.items() if name != "out"])  # (the stub's)
    return method


def refuse_out(table: dict, skip=()) -> None:
    """Wrap each entry of ``table`` (``Tensor``'s methods) whose op takes ``out``, but those named in ``skip``
    (operators that check ``out`` themselves)."""
    wrapped: dict = {}
    for name, fn in list(table.items()):
        params = _parameters(fn) if callable(fn) and not isinstance(fn, type) and name not in skip else None
        if not params or "out" not in params:
            continue
        message = _message(name, params)
        key = (id(fn), message)
        if key not in wrapped:
            wrapped[key] = _refusing(fn, message, params)
        table[name] = wrapped[key]
