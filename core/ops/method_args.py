"""An op's argument errors as PyTorch's parser words them for a method or a keyword argument.

core's methods are its op functions, so an op's refusal of an argument (a bool ``dim``: ``torch.cumsum(x, True)``)
names the function's positions: "argument 'dim' (position 2)". PyTorch's parser names no position for an argument
given by keyword, and its method parser counts without ``self`` ("(position 1)") and lists its overloads without
``Tensor input`` and ``out``. ``parser_form`` rewords such an error; the ops' NumPy-names wrappers use it for
keyword arguments, ``translating`` and ``core.ops.method_out``'s wrappers for methods (on the error path only).
"""

from __future__ import annotations

import re

from core._arg_types import tp_name
from core._dtype import dtype
from core.ops.arity_words import arity_error, binding_failed, typed_error

__all__ = ["parser_form", "only_plausible", "translating", "named_as", "TRANSLATED"]

# the methods whose functions refuse a bool dim (core._arg_types.refuse_bool_dim) and take no out= (those that do
# are wrapped by method_out, which translates too)
TRANSLATED = ("kthvalue", "softmax", "log_softmax", "cummax", "cummin", "cumprod", "logcumsumexp", "logsumexp",
              "argmax", "argmin", "amax", "amin", "nansum", "nanmean", "median", "nanmedian", "mode", "cumsum",
              "sum", "mean", "prod", "topk", "transpose", "transpose_", "swapaxes", "swapaxes_", "swapdims",
              "swapdims_", "clamp", "clip", "clamp_", "clip_")  # (topk: a bool or float k; transpose and its
# names: a dim that is no int; clamp: a str bound; kthvalue: a float k)
_CLAMPS = ("clamp", "clip", "clamp_", "clip_")

_POSITIONAL = re.compile(r"^(\w+)\(\): argument '(\w+)' \(position (\d+)\) (must be .*)$", re.S)
_COMBINATION = "() received an invalid combination of arguments - got (Tensor, "
_METHOD_OVERLOAD = ((", *, Tensor out = None)", ")"), (", Tensor out = None)", ")"),
                    (", *, tuple of Tensors out = None)", ")"), ("(Tensor input, ", "("), ("(Tensor input)", "()"))


def parser_form(error: TypeError, name: str, args: tuple, kwargs: dict, method: bool) -> TypeError | None:
    """``error``, raised by op ``name``'s function called with ``args`` (the tensor first) and ``kwargs``, as
    PyTorch's parser words it for the method (``method``) or the function; None where nothing changes or it is not
    an argument error of this op."""
    message = str(error)
    match = _POSITIONAL.match(message)
    if match and match.group(1) == name:
        arg, position, rest = match.group(2), int(match.group(3)), match.group(4)
        if arg in kwargs:
            return TypeError(f"{name}(): argument '{arg}' {rest}")
        return TypeError(f"{name}(): argument '{arg}' (position {position - 1}) {rest}") if method else None
    if message.startswith(name + _COMBINATION) and (method or kwargs):
        keyword_input = not method and not args and "input" in kwargs  # (torch.sum(input=x, keepdim=True))
        got = ([] if method or keyword_input else ["Tensor"]) + [_type_name(a) for a in args[1:]]
        got += [f"{k}={_type_name(v)}" for k, v in reversed(kwargs.items())]  # (the parser lists them last first)
        _, _, overloads = message.partition("), but expected one of:\n")
        if method:
            for old, new in _METHOD_OVERLOAD:
                overloads = overloads.replace(old, new)
        single = only_plausible(overloads.splitlines(), len(got))
        if single is not None and "dim" in single:  # the one overload the call's argument count leaves
            if "dim" not in kwargs and len(args) < 2:  # (x.sum(keepdim=True, dtype=...): its dim not given)
                return TypeError(f'{name}() missing 1 required positional arguments: "dim"')
            value = kwargs["dim"] if "dim" in kwargs else args[1]
            where = "" if "dim" in kwargs else f" (position {1 if method else 2})"
            return TypeError(f"{name}(): argument 'dim'{where} must be {single['dim']}, not {tp_name(value)}")
        listed = ", ".join(got) + (", " if method and kwargs and len(args) == 1 or keyword_input else "")  # (keywords
        # alone)
        if not method and name in ("max", "min") and len(args) == 1 and len(kwargs) > 1:  # (keywords alone: those
            names = ", ".join(reversed(kwargs))  # the first overload takes none of, named from two on)
            first = " * (Tensor input, *, Tensor out = None)\n"
            overloads = overloads.replace(first, f"{first}      didn't match because some of the keywords were "
                                          f"incorrect: {names}\n", 1)
        if method and name in ("max", "min") and len(got) == 1:  # (x.max(True): the overloads of no or a tensor
            why = (f"      didn't match because some of the arguments have invalid types: (!{got[0]}!)" if not kwargs
                   else f"      didn't match because some of the keywords were incorrect: {next(iter(kwargs))}")
            overloads = overloads.replace(" * ()\n", f" * ()\n{why}\n").replace(" * (Tensor other)\n",
                                                                                 f" * (Tensor other)\n{why}\n")
        if method and name in _CLAMPS and len(got) == 2:  # (both bounds given: the parser says why each overload
            why = (f"some of the keywords were incorrect: {', '.join(reversed(kwargs))}" if kwargs  # refused them)
                   else f"some of the arguments have invalid types: ({', '.join(f'!{g}!' for g in got)})")
            overloads = "".join(f"{line}      didn't match because {why}\n" if line.startswith(" * (") else line
                                for line in overloads.splitlines(keepends=True))
        return TypeError(f"{name}() received an invalid combination of arguments - got ({listed}), but expected one "
                         f"of:\n{overloads}")
    return None


def _type_name(value) -> str:
    """The type name PyTorch's parser prints for an argument (its dtype is a C type named ``torch.dtype``)."""
    return "torch.dtype" if isinstance(value, dtype) else tp_name(value)


def only_plausible(overloads, count: int) -> dict | None:
    """The one overload of ``overloads`` (PyTorch's listed lines, `` * (int dim, bool keepdim = False)``) that takes
    ``count`` arguments, as ``{name: type}``; None when several (or none) do. PyTorch's parser names that overload's
    own argument error rather than listing them all (``x.sum(True, keepdim=True)``)."""
    plausible = []
    for line in overloads:
        if not line.startswith(" * ("):
            continue
        params = [p for p in line[4:line.rindex(")")].split(", ") if p and p != "*"]
        required = [p for p in params if " = " not in p]
        if len(required) <= count <= len(params):
            plausible.append({p.split(" = ")[0].rsplit(" ", 1)[1]: p.split(" = ")[0].rsplit(" ", 1)[0]
                              for p in params})
    return plausible[0] if len(plausible) == 1 else None


def translating(fn, name: str):
    """Method ``name`` computed by ``fn``, whose argument errors take the method's wording (``parser_form``)."""
    def method(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as error:
            worded = (arity_error(name, args[1:], kwargs) if binding_failed(error, fn)
                      else typed_error(error, name, args[1:], kwargs))
            if worded is not None:  # (a count, keyword or type no signature takes: the parser's words)
                raise worded from None
            translated = parser_form(error, name, args, kwargs, method=True)
            if translated is None:
                raise
            raise translated from None

    method.arity_worded = True  # type: ignore[attr-defined]
    return named_as(method, fn)


def named_as(method, fn):
    """``method`` (a wrapper computing ``fn``) under ``fn``'s name, module and docstring; ``__wrapped__`` is the op
    it computes, for code that names ops."""
    method.__name__, method.__qualname__ = fn.__name__, getattr(fn, "__qualname__", fn.__name__)
    method.__module__, method.__doc__ = fn.__module__, fn.__doc__
    method.__wrapped__ = getattr(fn, "__wrapped__", fn)
    return method
