"""The dummies of ``torch.overrides.get_testing_overrides()``, with the signatures PyTorch's table gives them.

PyTorch's table is written by hand: each function's dummy is a lambda over the function's documented
parameters (``torch.add``: ``(input, other, out=None)``), returning -1. ``core/_testing_overrides.txt.gz``
(``tools/gen_testing_overrides.py``) lists those signatures by the function's name; here each becomes an
``inspect.Signature`` (defaults are literals, or ``torch.<layout or memory format>``) and a dummy that checks its
arguments against it as a lambda would (a TypeError for a wrong call) and returns -1.
"""

from __future__ import annotations

import ast
import functools
import gzip
import inspect
from pathlib import Path

__all__ = ["dummy", "signatures", "torch_named"]

_TABLE = Path(__file__).resolve().with_name("_testing_overrides.txt.gz")
_KINDS = {"posonlyargs": inspect.Parameter.POSITIONAL_ONLY, "args": inspect.Parameter.POSITIONAL_OR_KEYWORD,
          "kwonlyargs": inspect.Parameter.KEYWORD_ONLY}


def _default(node):
    """A default's value: a literal, or ``torch.<name>`` (``torch.preserve_format``) as core's object."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "torch":
        import core

        return getattr(core, node.attr)
    return ast.literal_eval(node)


def _signature(text: str) -> inspect.Signature:
    """``(input, other, out=None)`` as an ``inspect.Signature`` (parsed, never run)."""
    spec = ast.parse(f"def f{text}: pass").body[0].args
    params = []
    positional = spec.posonlyargs + spec.args
    defaults = [None] * (len(positional) - len(spec.defaults)) + list(spec.defaults)
    for kind, args in (("posonlyargs", spec.posonlyargs), ("args", spec.args)):
        for arg in args:
            node = defaults[positional.index(arg)]
            default = inspect.Parameter.empty if node is None else _default(node)
            params.append(inspect.Parameter(arg.arg, _KINDS[kind], default=default))
    if spec.vararg is not None:
        params.append(inspect.Parameter(spec.vararg.arg, inspect.Parameter.VAR_POSITIONAL))
    for arg, node in zip(spec.kwonlyargs, spec.kw_defaults):
        default = inspect.Parameter.empty if node is None else _default(node)
        params.append(inspect.Parameter(arg.arg, inspect.Parameter.KEYWORD_ONLY, default=default))
    if spec.kwarg is not None:
        params.append(inspect.Parameter(spec.kwarg.arg, inspect.Parameter.VAR_KEYWORD))
    return inspect.Signature(params)


@functools.lru_cache(maxsize=1)
def signatures() -> dict:
    """``{torch name: signature text}`` of PyTorch's table (``torch.add``: ``(input, other, out=None)``)."""
    lines = gzip.decompress(_TABLE.read_bytes()).decode().splitlines()
    return dict(line.split("\t", 1) for line in lines if line)


def torch_named(name: str):
    """Core's object for a torch name (``torch.Tensor.grad.__get__``: core's accessor), or None where core has
    none."""
    import core

    parts = name.split(".")[1:]
    if parts[0] == "functional" and not hasattr(core.functional, parts[1]):
        parts = parts[1:]  # (torch.functional.stft is torch.stft, which resolve_name names by its module)
    obj = core
    for part in parts:
        obj = getattr(obj, part, None)
        if obj is None:
            return None
    return obj if callable(obj) else None


def dummy(text: str):
    """A function with the signature ``text`` that checks its arguments against it and returns -1."""
    signature = _signature(text)

    def dummy(*args, **kwargs):
        signature.bind(*args, **kwargs)  # (a TypeError for a call the signature does not take, as a lambda's)
        return -1

    dummy.__signature__ = signature
    dummy.__name__ = dummy.__qualname__ = "<lambda>"
    return dummy
