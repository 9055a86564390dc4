"""Operator schemas for ``torch.library``: parsed from text (``Library.define``) or inferred from type hints
(``custom_op``), printed as torch prints them, and used to check and bind a call's arguments.

``infer_schema`` follows torch 2.13's rules and messages: ``Tensor``, ``int`` (``SymInt``), ``float``, ``bool``,
``str``, ``Number`` (``Scalar``), ``dtype``, ``device``, their ``Optional``s and lists; tuples of them as returns.
A call is checked as torch's dispatcher checks it (``RuntimeError``: a missing argument, too many, an unknown
keyword, a value of the wrong type) and bound into positional and keyword-only values with defaults filled.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import inspect
import math
import numbers
import typing
from types import GenericAlias

import core
from core._library.tags import as_tuple
from core._schema_default import default_text

_NO_DEFAULT = inspect.Parameter.empty
_NUMBER = typing.Union[int, float, bool]  # torch.types.Number


@dataclasses.dataclass
class Argument:
    name: str
    type: str  # "Tensor", "Tensor?", "SymInt[]", ...
    default: typing.Any = _NO_DEFAULT
    kwarg_only: bool = False
    alias: str | None = None  # "a1!" for a mutated tensor

    @property
    def is_mutable(self) -> bool:
        return self.alias is not None and self.alias.endswith("!")

    def __str__(self) -> str:
        kind = self.type if self.alias is None else f"Tensor({self.alias}){self.type[len('Tensor'):]}"
        text = f"{kind} {self.name}"
        return text if self.default is _NO_DEFAULT else f"{text}={default_text(self.default)}"


@dataclasses.dataclass
class FunctionSchema:
    """``ns::name.overload(args) -> returns``; ``str`` is torch's ``_schema`` text."""

    name: str
    overload_name: str
    arguments: list
    returns: list  # type strings, aliases included ("Tensor(a1!)")

    def __str__(self) -> str:
        qualified = self.name + (f".{self.overload_name}" if self.overload_name else "")
        return qualified + self.signature()

    def signature(self) -> str:
        parts, starred = [], False
        for arg in self.arguments:
            if arg.kwarg_only and not starred:
                parts.append("*")
                starred = True
            parts.append(str(arg))
        return f"({', '.join(parts)}) -> {returns_text(self.returns)}"


def returns_text(returns, as_tuple=False) -> str:
    if not returns:
        return "()"
    if len(returns) == 1 and not as_tuple:
        return returns[0]
    return "(" + ", ".join(returns) + ")"


# ---- parsing -------------------------------------------------------------------------------------------------

def _split_top(text: str) -> list:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    tail = text[start:].strip()
    return parts + [tail] if tail else parts


def _parse_default(text: str):
    if text in ("True", "False"):
        return text == "True"
    if text == "None":
        return None
    if text[:1] in "\"'":
        return text[1:-1]
    if text.startswith("["):
        return [_parse_default(p) for p in _split_top(text[1:-1])]
    try:
        return int(text)
    except ValueError:
        pass
    try:
        return float(text)
    except ValueError:
        return text  # an enum-like name (contiguous_format, ...)


_NUMERIC_TYPES = {"float", "int", "SymInt", "Scalar"}


def _check_numbers(schema: str, start: int, default: str) -> None:
    """Refuse a numeric ``default`` (or list element), at ``schema[start:]``, that torch's schema parser refuses:
    ``inf`` and ``nan`` are no numbers to it (RuntimeError), and a float that ``std::stod`` finds out of range
    (``1e400``, the subnormal ``5e-324``) is its ``IndexError``."""
    at = start
    for token in default.replace("[", " ").replace("]", " ").replace(",", " ").split():
        at = schema.index(token, at)
        word = token.lstrip("-")
        if word in ("inf", "nan"):
            if token != word:
                here = " " * (at + 1)
                raise RuntimeError(f"expected number but found 'ident' here:\n{schema}\n{here}~~~ <--- HERE\n")
            raise RuntimeError(f"\ninvalid numeric default value:\n{schema}\n{' ' * (at + len(token))}~ <--- HERE\n")
        at += len(token)
        try:
            value = float(token) if any(c in token for c in ".eE") else None
        except ValueError:
            continue
        underflow = value == 0 and token.lower().split("e")[0].strip("-+.0")
        if value is not None and (abs(value) == math.inf or underflow or 0 < abs(value) < 2.0 ** -1022):
            raise IndexError("stod")


def _parse_type(text: str):
    """``(type, alias)`` of ``Tensor(a!)[]?``-like text."""
    alias = None
    if text.startswith("Tensor("):
        end = text.index(")")
        alias, text = text[len("Tensor("):end], "Tensor" + text[end + 1:]
    return text, alias


def parse_schema(text: str, name: str = "", overload: str = "") -> FunctionSchema:
    """A ``FunctionSchema`` of ``"op.overload(Tensor x, *, float s=1.0) -> Tensor"`` (name optional)."""
    text = text.strip()
    open_ = text.index("(")
    head = text[:open_].strip()
    if head:
        name, _, overload = head.partition(".")
    depth, close = 0, None
    for i in range(open_, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            close = i
            break
    if close is None or "->" not in text[close:]:
        raise RuntimeError(f"Expected a schema of the form 'name(args) -> returns' but got: {text}")
    arguments, kwarg_only, cursor = [], False, open_ + 1
    for part in _split_top(text[open_ + 1:close]):
        cursor = text.index(part, cursor)
        if part == "*":
            kwarg_only = True
            continue
        decl, _, default = part.partition("=")
        type_text, _, arg_name = decl.strip().rpartition(" ")
        type_, alias = _parse_type(type_text.strip())
        if default and type_.split("[")[0].rstrip("?") in _NUMERIC_TYPES:
            _check_numbers(text, cursor + len(decl) + 1, default)
        value = _parse_default(default.strip()) if default else _NO_DEFAULT
        arguments.append(Argument(arg_name, type_, value, kwarg_only, alias))
    rets = text[close:].split("->", 1)[1].strip()
    if rets.startswith("("):
        rets = rets[1:-1]
    returns = [r.rpartition(" ")[0] if " " in r else r for r in _split_top(rets)]
    return FunctionSchema(name, overload, arguments, returns)


# ---- inference from type hints -------------------------------------------------------------------------------

def _supported_param_types() -> dict:
    table = [(core.Tensor, "Tensor", True, True, False), (int, "SymInt", True, False, True),
             (float, "float", True, False, True), (bool, "bool", True, False, True), (str, "str", False, False, False),
             (_NUMBER, "Scalar", True, False, False), (core.dtype, "ScalarType", False, False, False),
             (core.device, "Device", False, False, False)]
    result = {}
    for base, name, lists, optional_lists, list_optional in table:
        result[base] = name
        result[typing.Optional[base]] = f"{name}?"
        seqs = lambda t: (typing.Sequence[t], typing.List[t], GenericAlias(collections.abc.Sequence, (t,)),  # noqa: E731
                          GenericAlias(list, (t,)))
        if lists:
            result.update((s, f"{name}[]") for s in seqs(base))
        if optional_lists:
            result.update((s, f"{name}?[]") for s in seqs(typing.Optional[base]))
        if list_optional:
            result.update((typing.Optional[s], f"{name}[]?") for s in seqs(base))
    return result


def _supported_return_types() -> dict:
    return {core.Tensor: "Tensor", typing.List[core.Tensor]: "Tensor[]", list[core.Tensor]: "Tensor[]",
            int: "SymInt", float: "float", bool: "bool", _NUMBER: "Scalar"}


def _resolve(annotation, function, fail):
    """A string annotation evaluated in the function's globals (``Tensor``, ``dtype``... mean torch's)."""
    if isinstance(annotation, str):
        try:
            return eval(annotation, getattr(function, "__globals__", {}))
        except NameError as e:
            fail(f"Unsupported type annotation {annotation}. It is not a type. ({e}). If you are using 'from "
                 "__future__ import annotations', note that annotations are evaluated lazily as strings; make sure "
                 "all types referenced in annotations are importable at module scope, not only inside a local "
                 "function.")
        except Exception as e:
            fail(f"Unsupported type annotation {annotation}. It is not a type. ({type(e).__name__}: {e})")
    origin = typing.get_origin(annotation)
    if origin is not None and any(isinstance(a, str) for a in typing.get_args(annotation)):
        return GenericAlias(origin, tuple(_resolve(a, function, fail) for a in typing.get_args(annotation)))
    return annotation


def infer_schema(prototype_function, /, *, mutates_args, op_name: str | None = None, tags=None) -> str:
    """The schema text of ``prototype_function`` from its type hints, as ``torch.library.infer_schema``; ``tags``
    holding ``Tag.inplace`` or ``Tag.out`` make the return alias the mutated argument(s)."""
    sig = inspect.signature(prototype_function)

    def fail(what):
        raise ValueError(f"infer_schema(func): {what} Got func with signature {sig})")

    if type(mutates_args) is not str:
        mutates_args = tuple(mutates_args)
    elif mutates_args != "unknown":
        raise ValueError("mutates_args must either be a sequence of the names of the arguments that are mutated "
                         "or the string 'unknown'. ")
    param_types, params, seen, starred = _supported_param_types(), [], set(), False
    mutated_params, first_positional = [], None
    for idx, (name, param) in enumerate(sig.parameters.items()):
        if param.kind not in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY):
            fail("We do not support positional-only args, varargs, or varkwargs.")
        if param.kind == inspect.Parameter.KEYWORD_ONLY and not starred:
            params.append("*")
            starred = True
        if param.annotation is inspect.Parameter.empty:
            fail(f"Parameter {name} must have a type annotation.")
        annotation = _resolve(param.annotation, prototype_function, fail)
        if annotation not in param_types:
            if typing.get_origin(annotation) is tuple:
                as_list = _tuple_as_list(annotation)
                example = f"For example, {as_list}.\n\n" if as_list in param_types else "\n\n"
                fail(f"Parameter {name} has unsupported type {param.annotation}. We do not support Tuple inputs in "
                     f"schema. As a workaround, please try to use List instead. {example}"
                     f"The valid types are: {param_types.keys()}.")
            fail(f"Parameter {name} has unsupported type {param.annotation}. "
                 f"The valid types are: {param_types.keys()}.")
        schema_type = param_types[annotation]
        mutated = mutates_args == "unknown" and schema_type.startswith("Tensor")
        if type(mutates_args) is not str and name in mutates_args:
            if not schema_type.startswith("Tensor"):
                fail(f"Parameter {name} is in mutable_args but only Tensors or collections of Tensors can be mutated")
            mutated = True
        if mutated:
            schema_type = f"Tensor(a{idx}!){schema_type[len('Tensor'):]}"
        seen.add(name)
        if mutated:
            mutated_params.append((name, idx, param.kind == inspect.Parameter.KEYWORD_ONLY))
        if first_positional is None and param.kind == inspect.Parameter.POSITIONAL_OR_KEYWORD:
            first_positional = (name, idx, schema_type)
        params.append(f"{schema_type} {name}" + _inferred_default(name, param.default, fail))
    if mutates_args != "unknown" and set(mutates_args) - seen:
        fail(f"{set(mutates_args) - seen} in mutates_args were not found in the custom op's signature. "
             "mutates_args should contain the names of all args that the custom op mutates, or just the string "
             "'unknown' if you don't know.")
    ret = _parse_return(_resolve(sig.return_annotation, prototype_function, fail), fail)
    tag_names = {getattr(t, "name", None) for t in as_tuple(tags)}
    if {"inplace", "out"} <= tag_names:
        fail("torch.Tag.inplace and torch.Tag.out are mutually exclusive.")
    if "inplace" in tag_names:
        ret = _inplace_return(first_positional, mutates_args, ret, fail)
    elif "out" in tag_names:
        ret = _out_return(mutated_params, fail)
    head = op_name if op_name is not None else ""
    return f"{head}({', '.join(params)}) -> {ret}"


def _inplace_return(first_positional, mutates_args, ret: str, fail) -> str:
    """A ``Tag.inplace`` op's return: its first positional Tensor, which it alone mutates."""
    if first_positional is None:
        fail("torch.Tag.inplace requires a positional Tensor argument.")
    name, idx, schema_type = first_positional
    if (schema_type.split(")", 1)[1] if schema_type.startswith("Tensor(") else schema_type[len("Tensor"):]) \
            or not schema_type.startswith("Tensor"):
        fail("torch.Tag.inplace requires the first positional argument to be a Tensor.")
    if type(mutates_args) is str or set(mutates_args) != {name}:
        fail(f"torch.Tag.inplace requires mutates_args to contain exactly the first positional argument, got "
             f"{mutates_args}.")
    if ret != "Tensor":
        fail("torch.Tag.inplace requires the return annotation to be torch.Tensor.")
    return f"Tensor(a{idx}!)"


def _out_return(mutated_params, fail) -> str:
    """A ``Tag.out`` op's return: its mutated keyword-only Tensors, in order."""
    if any(not kwarg_only for _, _, kwarg_only in mutated_params):
        fail("torch.Tag.out requires mutable arguments to be keyword-only.")
    if not mutated_params:
        fail("torch.Tag.out requires at least one mutable keyword-only Tensor argument.")
    aliases = [f"Tensor(a{idx}!)" for _, idx, _ in mutated_params]
    return aliases[0] if len(aliases) == 1 else f"({', '.join(aliases)})"


def _tuple_as_list(tuple_type):
    args = typing.get_args(tuple_type)
    if not args:
        return list
    if len(args) == 1 or (len(args) == 2 and args[1] is Ellipsis):
        return list[args[0]]
    return list[typing.Union[args]]


def _inferred_default(name, default, fail) -> str:
    if default is inspect.Parameter.empty:
        return ""
    if default is None or isinstance(default, (int, float, bool)):
        return f"={default}"
    if isinstance(default, (str, core.device)):
        return f'="{default}"'
    if isinstance(default, core.dtype):
        return "=" + str(default).removeprefix("torch.")
    fail(f"Parameter {name} has an unsupported default value type {type(default)}. "
         "Please file an issue on GitHub so we can prioritize this.")


def _parse_return(annotation, fail) -> str:
    if annotation is None:
        return "()"
    if annotation is inspect.Parameter.empty:
        fail("No return type annotation was provided. Please add one.")
    table = _supported_return_types()
    if typing.get_origin(annotation) is not tuple:
        if annotation not in table:
            fail(f"Return has unsupported type {annotation}. The valid types are: {table}.")
        return table[annotation]
    args = typing.get_args(annotation)
    if any(a not in table for a in args):
        fail(f"Return has unsupported type {annotation}. The valid types are: {table}.")
    text = ", ".join(table[a] for a in args)
    return f"(({text}))" if len(args) == 1 else f"({text})"


# ---- checking and binding a call -----------------------------------------------------------------------------

def _python_type_name(type_: str) -> str:
    return {"SymInt": "int", "ScalarType": "ScalarType", "float": "float"}.get(type_, type_)


def _fits(type_: str, value) -> bool:
    optional = type_.endswith("?")
    base = type_.rstrip("?")
    if value is None:
        return optional
    if base.endswith("[]"):
        return isinstance(value, (list, tuple)) and all(_fits(base[:-2], v) for v in value)
    if base == "Tensor":
        return isinstance(value, core.Tensor)
    if base in ("SymInt", "int"):
        return isinstance(value, int) or (isinstance(value, core.Tensor) and value.dim() == 0
                                          and not value.is_floating_point())
    if base == "float":
        return isinstance(value, (int, float)) or (isinstance(value, core.Tensor) and value.dim() == 0)
    if base == "bool":
        return isinstance(value, bool)
    if base == "str":
        return isinstance(value, str)
    if base == "Scalar":
        return isinstance(value, numbers.Number)
    if base == "ScalarType":
        return isinstance(value, core.dtype)
    if base == "Device":
        return isinstance(value, (core.device, str, int))
    return True


def bind(schema: FunctionSchema, args, kwargs):
    """``(positional values, keyword-only values)`` of a call, checked against ``schema`` as torch checks it."""
    qualified = schema.name + (f".{schema.overload_name}" if schema.overload_name else "")
    positional = [a for a in schema.arguments if not a.kwarg_only]
    if len(args) > len(positional):
        if len(positional) == len(schema.arguments):
            raise RuntimeError(f"{qualified}() expected at most {len(positional)} argument(s) but received "
                               f"{len(args)} argument(s). Declaration: {schema}")
        raise RuntimeError(f"{qualified}() takes {len(positional)} positional argument(s) but {len(args)} was/were "
                           f"given.  Declaration: {schema}")
    names = {a.name for a in schema.arguments}
    for key in kwargs:
        if key not in names:
            raise RuntimeError(f"Unknown keyword argument '{key}' for operator '{qualified}'. Schema: {schema}")
    values = {}
    for position, arg in enumerate(schema.arguments):
        if position < len(args) and not arg.kwarg_only:
            value = args[position]
        elif arg.name in kwargs:
            value = kwargs[arg.name]
        elif arg.default is not _NO_DEFAULT:
            value = arg.default
        else:
            raise RuntimeError(f"{qualified}() is missing value for argument '{arg.name}'. Declaration: {schema}")
        if not _fits(arg.type, value):
            shown = "Tensor" if arg.type.rstrip("?") == "Tensor" else _python_type_name(arg.type)
            raise RuntimeError(f"{qualified}() Expected a value of type '{shown}' for argument '{arg.name}' but "
                               f"instead found type '{type(value).__name__}'.\nPosition: {position}\n"
                               f"Value: {value}\nDeclaration: {schema}\nCast error details: Unable to cast {value} "
                               f"to {shown}")
        values[arg.name] = value
    return ([values[a.name] for a in positional],
            {a.name: values[a.name] for a in schema.arguments if a.kwarg_only})
