"""A Tensor method called with too few, too many or unknown arguments raises the TypeError PyTorch's parser raises.

core's methods are Python functions, so a wrong call fails in Python's own words ("sum() takes from 1 to 3
positional arguments but 5 were given", counting ``self``), where PyTorch's C parser matches the call against the
method's signatures: ``x.sum(0, True, 1, 2)`` "received an invalid combination of arguments - got (int, bool, int,
int), but expected one of: ...", ``x.transpose(0)`` 'missing 1 required positional arguments: "dim1"' (its words,
its plural). ``arity_error`` gives those words from the parser's signatures (``core/_method_signatures.json.gz``,
written by ``tools/gen_method_signatures.py``); ``wording_arity`` wraps a method so that Python's binding error, and
only that, is reworded (the error path alone: nothing runs before the call).
"""

from __future__ import annotations

import functools
import gzip
import inspect
import json
import re
from pathlib import Path
from types import FunctionType

__all__ = ["arity_error", "typed_error", "binding_failed", "wording_arity", "install"]

_TABLE = Path(__file__).resolve().parent.parent / "_method_signatures.json.gz"
_POSITIONED = re.compile(r"^\w+\(\): argument '(\w+)' \(position (\d+)\) (.*)$", re.S)
_WORDED = re.compile(r"^\w+\(\)(: argument '\w+' failed to unpack| received an invalid combination of arguments - got "
                     r"\(.*\), but expected| takes )")
_PYTHON_WORDS = re.compile(r"^\w+\(\) (missing \d+ required|takes (from )?\d+|got an unexpected keyword|got multiple)")


@functools.cache
def _table() -> dict:
    return json.loads(gzip.decompress(_TABLE.read_bytes()))


def _split(line: str) -> list[str]:
    """The parameters of a printed signature, ``(int dim, bool keepdim = False, *, ...)``, split at the commas
    outside parentheses (a default may be a tuple)."""
    parts, depth, start, body = [], 0, 0, line[1:-1]
    for i, char in enumerate(body):
        depth += (char == "(") - (char == ")")
        if char == "," and depth == 0:
            parts.append(body[start:i].strip())
            start = i + 1
    parts.append(body[start:].strip())
    return [p for p in parts if p]


@functools.cache
def _signature(line: str) -> tuple:
    """``(params, min_args, max_pos)`` of a printed signature; a param is ``(type, name, optional, keyword_only,
    takes None)``: a default of None takes it, and so does a keyword-only parameter without one (``bool? stable``)."""
    params, keyword_only = [], False
    for part in _split(line):
        if part == "*":
            keyword_only = True
            continue
        declared, _, default = part.partition(" = ")
        kind, _, name = declared.rpartition(" ")
        params.append((kind, name, bool(default), keyword_only, default == "None" or keyword_only and not default))
    return tuple(params), sum(not p[2] for p in params), sum(not p[3] for p in params)


def _extra(name: str, min_args: int, max_pos: int, nargs: int) -> TypeError:
    if min_args != max_pos:
        return TypeError(f"{name}() takes from {min_args} to {max_pos} positional arguments but {nargs} were given")
    return TypeError(f"{name}() takes {max_pos} positional argument{'' if max_pos == 1 else 's'} but {nargs} "
                     f"{'was' if nargs == 1 else 'were'} given")


def _missing(name: str, names: list[str]) -> TypeError:
    listed = ", ".join(f'"{n}"' for n in names)  # NOTE: PyTorch's plural is inverted ("1 ... arguments")
    return TypeError(f"{name}() missing {len(names)} required positional argument{'s' if len(names) == 1 else ''}: "
                     f"{listed}")


def _refuses(kind: str, value, none_ok: bool) -> bool:
    """Whether the parser surely refuses ``value`` for a parameter of type ``kind`` (a float for an int, an int for
    a bool, None where it takes none); False where it may take it (a number for a Tensor, a type it does not know)."""
    from core._tensor import Tensor

    if value is None:
        return not none_ok
    if kind == "int":
        return isinstance(value, (bool, float, complex, str)) or not (hasattr(type(value), "__index__")
                                                                      or isinstance(value, Tensor))
    if kind == "tuple of ints":
        return isinstance(value, (bool, float, complex, str))
    if kind == "bool":
        return not isinstance(value, bool)
    return kind in ("Tensor", "Number", "float") and isinstance(value, str)


def _type_error(name: str, param: str, kind: str, value, position: int | None) -> TypeError:
    from core._arg_types import tp_name

    where = "" if position is None else f" (position {position})"
    return TypeError(f"{name}(): argument '{param}'{where} must be {kind}, not {tp_name(value)}")


def _parse(name: str, params: tuple, min_args: int, max_pos: int | None, args: tuple, kwargs: dict,
           known: bool = True) -> TypeError | None:
    """The error of the parser's ``FunctionSignature::parse`` for the signature ``params`` (``max_pos`` None: ints
    as varargs), as far as the arguments' count, names and plain types decide it; None where it parses. ``known``:
    ``params`` are all the signature's (else unknown keywords are not judged)."""
    varargs = max_pos is None or max_pos == 1 and params[0][0] == "tuple of ints" and not params[0][2]  # (an
    # optional list, std's dim = None, takes no varargs: x.std(0, 1) is no std over dims 0 and 1)
    most = 1 if max_pos is None else max_pos
    if len(args) > most and not (varargs and hasattr(type(args[0]), "__index__") and not isinstance(args[0], bool)):
        return _extra(name, min_args, most, len(args))  # (x.repeat(1.5, 2): ints only count as varargs)
    position = 0
    for i, (kind, param, optional, _, none_ok) in enumerate(params):
        if position < len(args):
            value = args[position]
            if varargs and i == 0 and hasattr(type(value), "__index__") and not isinstance(value, bool):
                position = len(args)  # (view(2, 3): the ints are the one list)
                continue
            if _refuses(kind, value, none_ok):
                return _type_error(name, param, kind, value, position + 1)
            position += 1
        elif param in kwargs:
            if _refuses(kind, kwargs[param], none_ok):
                return _type_error(name, param, kind, kwargs[param], None)
        elif not optional:
            return _missing(name, [p[1] for p in params[i:] if not p[2]])
    for key in kwargs if known else ():
        index = next((i for i, p in enumerate(params) if p[1] == key), None)
        if index is None:
            return TypeError(f"{name}() got an unexpected keyword argument '{key}'")
        if index < len(args):
            return TypeError(f"{name}() got multiple values for argument '{key}'")
    return None


def _single(name: str, entry: list, args: tuple, kwargs: dict) -> TypeError | None:
    """The parser's error for a method of one signature, from what the table knows of it (its positional
    parameters' names and types, its required ones)."""
    _, required, min_args, max_pos, found = entry
    params = [(kind, param, param not in required, False, none_ok) for param, kind, none_ok in found]
    params += [("", param, False, False, False) for param in required if param not in {p[1] for p in params}]
    return _parse(name, tuple(params), min_args, max_pos, args, kwargs, known=False)


def _given(args: tuple, kwargs: dict) -> str:
    """The parser's "got (...)" list: the positional arguments' types, then the keywords, last first."""
    from core._arg_types import tp_name
    from core._dtype import dtype

    def typed(value) -> str:
        return "torch.dtype" if isinstance(value, dtype) else tp_name(value)

    named = [f"{key}={typed(value)}" for key, value in reversed(kwargs.items())]
    if not args and named:
        return ", ".join(named) + ", "
    return ", ".join([typed(a) for a in args] + named)


def _overloaded(name: str, entry: list, args: tuple, kwargs: dict) -> TypeError | None:
    """The parser's error for a method of several signatures: the one plausible signature's own (by the count of
    arguments), or the list of them; None where one of them takes the call."""
    _, one, lines = entry
    count = len(args) + len(kwargs)
    plausible = [line for line in lines if _signature(line)[1] <= count <= len(_signature(line)[0])]
    errors = [_parse(name, *_signature(line), args, kwargs) for line in plausible]
    if any(error is None for error in errors):
        return None
    if len(plausible) == 1:
        return errors[0]
    head = f"{name}() received an invalid combination of arguments - got "
    if one:
        known = {p[1] for p in _signature(lines[0])[0]}
        unknown = [key for key in reversed(kwargs) if key not in known]
        if unknown:
            return TypeError(f"{head}unrecognized keyword arguments: {', '.join(unknown)}")
        return TypeError(f"{head}({_given(args, kwargs)}), but expected {lines[0]}")
    listed = "".join(f" * {line}\n" for line in lines)
    return TypeError(f"{head}({_given(args, kwargs)}), but expected one of:\n{listed}")


def arity_error(name: str, args: tuple, kwargs: dict) -> TypeError | None:
    """PyTorch's TypeError for method ``name`` called with ``args`` (after ``self``) and ``kwargs`` whose count or
    names fit none of its signatures; None for a method the table lacks or an error that is not about those."""
    entry = _table().get(name)
    if entry is None:
        return None
    if entry[0] == "single":
        return _single(name, entry, args, kwargs)
    return _overloaded(name, entry, args, kwargs)


def typed_error(error: Exception, name: str, args: tuple, kwargs: dict) -> TypeError | None:
    """What PyTorch's parser raises for method ``name`` called with ``args`` (after ``self``) and ``kwargs``, where
    the op refused them (``error``, from inside it): the parser's refusal where no signature takes the call (it
    comes before anything runs: ``x.std(0, 1)``, ``x.gather(None)``), else the op's own words with the position a
    method's parser gives (one less than the function's); None to keep ``error``."""
    if hasattr(error, "method_words"):  # (the op worded the method's form itself: narrow's lists)
        return TypeError(error.method_words)
    entry = _table().get(name)
    message = str(error)
    if entry is None or message.startswith(f"{name}()") and _WORDED.match(message):  # (the op's own parser words:
        return None  # view's "failed to unpack", its list of signatures with why each failed)
    refusal = arity_error(name, args, kwargs)
    if refusal is not None:
        return refusal
    match = _POSITIONED.match(str(error))
    if match is None or not isinstance(error, TypeError) or not str(error).startswith(f"{name}()") \
            or match.group(1) in kwargs:
        return None
    param, given, rest = match.group(1), int(match.group(2)), match.group(3)
    position = _method_position(entry, param) or (given - 1 if getattr(error, "input_counted", False) else None)
    if position is None or position == given:
        return None
    return TypeError(f"{name}(): argument '{param}' (position {position}) {rest}")


def _method_position(entry: list, param: str) -> int | None:
    """Where the method's parser has ``param`` (1 for the first argument after ``self``), if the table says."""
    if entry[0] == "single":
        return next((i + 1 for i, p in enumerate(entry[4]) if p[0] == param), None)
    found = {i + 1 for line in entry[2] for i, p in enumerate(_signature(line)[0]) if p[1] == param and not p[3]}
    return found.pop() if len(found) == 1 else None


def binding_failed(error: TypeError, fn) -> bool:
    """Whether ``error`` is Python's refusal to bind a call's arguments to ``fn`` (in Python's words for ``fn``'s
    name, raised in a caller's frame: a wrapper on the way, such as ``reduction``'s NumPy-names one), not a
    TypeError from inside the op's body or an op of another name."""
    name, message, tb = fn.__name__, str(error), error.__traceback__
    if tb is None or not message.startswith((f"{name}()", f"{fn.__qualname__}()")):
        return False
    if _PYTHON_WORDS.match("f" + message.removeprefix(fn.__qualname__).removeprefix(name)) is None:
        return False
    while tb.tb_next is not None:
        tb = tb.tb_next
    return tb.tb_frame.f_code is not inspect.unwrap(fn).__code__  # (raised in a caller of the op's body: its
    # wrappers', or __torch_function__'s dispatching frame once a subclass turned dispatch on)


def wording_arity(fn, name: str):
    """Method ``name`` computed by ``fn``, whose binding errors take PyTorch's parser's words."""
    from core.ops.method_args import named_as

    def method(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except TypeError as error:
            failed = binding_failed(error, fn)
            worded = arity_error(name, args[1:], kwargs) if failed else typed_error(error, name, args[1:], kwargs)
            if worded is None:
                raise
            raise worded from None

    method.arity_worded = True  # type: ignore[attr-defined]
    return named_as(method, fn)


def install(table: dict) -> None:
    """Wrap each method of ``table`` (``Tensor``'s) that PyTorch's parser knows and that no wrapper already words
    (``method_out``'s, ``method_args``'s): plain Python functions whose call can fail to bind."""
    for name in _table():
        fn = table.get(name)
        if isinstance(fn, FunctionType) and not getattr(fn, "arity_worded", False) and _can_fail(fn):
            table[name] = wording_arity(fn, name)
    for name in ("sort", "argsort"):
        table[name] = _stable_by_keyword(table[name], name)


def _stable_by_keyword(fn, name: str):
    """Method ``name`` (``sort``/``argsort``) as PyTorch's parser takes it: ``stable`` is its first signature's
    keyword, whose ``dim`` and ``descending`` are keywords too, so ``x.sort(0, stable=True)`` (and ``x.argsort(0,
    True, True)``) fits no signature and is a TypeError, not a stable sort along dim 0."""
    from core.ops.method_args import named_as

    def method(*args, **kwargs):
        if len(args) > 3 or len(args) > 1 and "stable" in kwargs:
            raise arity_error(name, args[1:], kwargs) or TypeError(f"{name}() takes no positional stable")
        return fn(*args, **kwargs)

    method.arity_worded = True  # type: ignore[attr-defined]
    return named_as(method, fn)


def _can_fail(fn) -> bool:
    """Whether a call can fail to bind ``fn``: it has parameters after ``self`` or takes no ``**kwargs``."""
    code = inspect.unwrap(fn).__code__  # (a decorator's ``op(*args, **kwargs)`` binds the op it wraps)
    return not (code.co_flags & inspect.CO_VARARGS and code.co_flags & inspect.CO_VARKEYWORDS
                and code.co_argcount <= 1 and not code.co_kwonlyargcount)
