"""What ``core.jit.script`` makes of a function: a ``ScriptFunction`` that checks a call against the function's
TorchScript schema, as PyTorch's does, then runs the Python function eagerly.

The schema is read from the signature: an unannotated argument is a ``Tensor`` (TorchScript infers so), an
annotated one takes its type's TorchScript spelling (``int``, ``float``, ``Tensor?``, ``int[]``, ``(int, float)``).
A call with too many arguments, a missing one, an unknown keyword or an argument given twice raises PyTorch's
``RuntimeError`` quoting the declaration (``f(Tensor q, Tensor k) -> ((Tensor, Tensor))``), and so does a Tensor
argument given what is not a tensor (other types are not checked). An unannotated return is spelled from the
``return`` statements alone (a tuple display of n values is n Tensors, anything else a Tensor): TorchScript infers it
from the compiled body.
"""

from __future__ import annotations

import ast
import inspect
import textwrap
import typing

__all__ = ["ScriptFunction", "script_function", "scriptable"]

_EMPTY = inspect.Parameter.empty


def scriptable(fn) -> bool:
    """Whether ``fn`` is a plain function with named arguments only (what TorchScript compiles)."""
    if not inspect.isfunction(fn):
        return False
    kinds = {p.kind for p in inspect.signature(fn).parameters.values()}
    return not kinds & {inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD}


def _type_name(annotation) -> str:
    from core import Tensor

    if annotation is _EMPTY or annotation is Tensor or getattr(annotation, "__name__", None) == "Tensor":
        return "Tensor"
    if annotation in (int, float, bool, str):
        return annotation.__name__
    if annotation is None or annotation is type(None):
        return "NoneType"
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if origin is typing.Union and len(args) == 2 and type(None) in args:
        return _type_name(next(a for a in args if a is not type(None))) + "?"
    if origin is list:
        return _type_name(args[0]) + "[]"
    if origin is tuple:
        return "(" + ", ".join(_type_name(a) for a in args) + ")"
    if origin is dict:
        return f"Dict({_type_name(args[0])}, {_type_name(args[1])})"
    return getattr(annotation, "__name__", str(annotation))


def _inferred_return(fn) -> str:
    try:
        tree = ast.parse(textwrap.dedent(inspect.getsource(fn)))
    except (OSError, TypeError, SyntaxError):
        return "Tensor"
    body = tree.body[0]
    returns = [n for n in ast.walk(body) if isinstance(n, ast.Return)]
    if not returns:
        return "NoneType"
    sizes = {len(r.value.elts) if isinstance(r.value, ast.Tuple) else None for r in returns}
    if len(sizes) == 1 and None not in sizes:
        return "(" + ", ".join(["Tensor"] * sizes.pop()) + ")"
    return "Tensor"


def _declaration(fn, scope: dict):
    """``(schema, parameters, type names)`` of ``fn`` as TorchScript reads its signature."""
    import core
    from core._library.schema import Argument, FunctionSchema

    # names in annotations as TorchScript resolves them: its own type names, then the function's globals, the
    # caller's scope and the function's closure
    builtin = {"Tensor": core.Tensor, "Optional": typing.Optional, "List": typing.List, "Tuple": typing.Tuple,
               "Dict": typing.Dict, "torch": core}
    names = {k: v for k, v in builtin.items() if k not in fn.__globals__}
    names.update(scope)
    names.update(inspect.getclosurevars(fn).nonlocals)
    try:
        signature = inspect.signature(fn, eval_str=True, locals=names)
    except NameError:  # an annotation naming what the function's globals lack: spelled as written
        signature = inspect.signature(fn)
    params = list(signature.parameters.values())
    types = [_type_name(p.annotation) for p in params]
    args = [Argument(p.name, kind, p.default) for p, kind in zip(params, types)]
    ret = _inferred_return(fn) if signature.return_annotation is _EMPTY else _type_name(signature.return_annotation)
    ret = f"({ret})" if ret.startswith("(") else ret  # a single tuple return is parenthesised again
    return FunctionSchema(fn.__name__, "", args, [ret]), params, types


class ScriptFunction:
    # NOTE: PyTorch's class is named "torch.jit.ScriptFunction" inside module torch.jit, so it prints as
    # <torch.jit.torch.jit.ScriptFunction object at ...>; the same spelling here prints the same once core reads torch.
    def __init__(self, fn, scope: dict):
        self._fn = fn
        self.name = fn.__name__
        self.schema, self._params, types = _declaration(fn, scope)  # (printed as torch's FunctionSchema)
        self._declaration = str(self.schema)
        self._kinds = [("Tensor (inferred)" if p.annotation is _EMPTY else "Tensor") if t == "Tensor"
                       else "Optional[Tensor]" if t == "Tensor?" else None for p, t in zip(self._params, types)]

    @property
    def code(self) -> str:
        """The function's source (PyTorch prints the TorchScript it compiled from it)."""
        from core._jit_script import _source

        return _source(self._fn)

    def __call__(self, *args, **kwargs):
        self._check(args, kwargs)
        from core._jit_script import _note_scripted_call  # (a scripted function keeps its control flow in a trace)

        _note_scripted_call()
        return self._fn(*args, **kwargs)

    def _check(self, args, kwargs) -> None:
        if len(args) + len(kwargs) > len(self._params):
            raise RuntimeError(f"{self.name}() expected at most {len(self._params)} argument(s) but received "
                               f"{len(args) + len(kwargs)} argument(s). Declaration: {self._declaration}")
        used = 0
        for p in self._params[len(args):]:
            if p.name in kwargs:
                used += 1
            elif p.default is _EMPTY:
                raise RuntimeError(f"{self.name}() is missing value for argument '{p.name}'. "
                                   f"Declaration: {self._declaration}")
        names = [p.name for p in self._params]
        if used == len(kwargs):
            given = list(enumerate(args)) + [(names.index(k), v) for k, v in kwargs.items()]
            for position, value in given:
                self._check_tensor(position, value)
            return
        for key in kwargs:
            if key not in names:
                raise RuntimeError(f"Unknown keyword argument '{key}' for operator '{self.name}'. "
                                   f"Schema: {self._declaration}")
            if names.index(key) < len(args):
                raise RuntimeError(f"Argument '{key}' specified both as positional and keyword argument. "
                                   f"Schema: {self._declaration}")

    def _check_tensor(self, position: int, value) -> None:
        """A Tensor (or Optional[Tensor]) argument refuses what is not a tensor, as TorchScript's cast does (None
        passes: an undefined tensor, which the body's first op refuses)."""
        from core import Tensor

        kind = self._kinds[position]
        if kind is None or value is None or isinstance(value, Tensor):
            return
        name = self._params[position].name
        inferred = (f"Inferred '{name}' to be of type 'Tensor' because it was not annotated with an explicit "
                    "type.\n") if kind == "Tensor (inferred)" else ""
        raise RuntimeError(f"{self.name}() Expected a value of type '{kind}' for argument '{name}' but instead found "
                           f"type '{type(value).__name__}'.\n{inferred}Position: {position}\nValue: {value!r}\n"
                           f"Declaration: {self._declaration}\nCast error details: Unable to cast {value} to Tensor")


ScriptFunction.__module__ = "core.jit"
ScriptFunction.__qualname__ = "torch.jit.ScriptFunction"  # NOTE: its __name__ stays "ScriptFunction", as torch's


def script_function(fn, scope: dict) -> ScriptFunction:
    """``core.jit.script(fn)`` for a plain function; ``scope``: the local names where it was scripted."""
    return ScriptFunction(fn, scope)
