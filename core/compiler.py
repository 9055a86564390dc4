"""``torch.compiler``: the calls model code makes around ``torch.compile``.

core's ``compile`` captures and replays ops (``core.autograd.capture``); there is no tracer to steer, so
``is_compiling()`` is always False (a replay runs recorded ops, never the Python around them), the decorators
that mark code for dynamo return the function itself, and ``set_stance`` is a context manager and decorator
that changes nothing. A region marked ``disable`` inside a compiled function is recorded like any other code:
its ops replay with the same values, and whatever it does that a replay cannot repeat (``item()``, a random draw
outside an op) makes that call run eagerly, as dynamo's graph break would.
"""

from __future__ import annotations

import contextlib

from core.jit import compile

__all__ = ["compile", "is_compiling", "is_dynamo_compiling", "is_exporting", "reset", "disable", "allow_in_graph",
           "assume_constant_result", "cudagraph_mark_step_begin", "set_stance", "list_backends",
           "get_default_backend", "wrap_numpy"]


def is_compiling() -> bool:
    return False


def is_dynamo_compiling() -> bool:
    return False


def is_exporting() -> bool:
    return False


def reset() -> None:
    """Nothing to clear: each compiled function keeps its own captures."""


def disable(fn=None, recursive: bool = True, *, reason=None):
    """``@torch.compiler.disable`` (with or without arguments): the function, run as written."""
    if fn is None:
        return lambda f: f
    return fn


def allow_in_graph(fn):
    return fn


def assume_constant_result(fn):
    return fn


def wrap_numpy(fn):
    """Outside a compiled region PyTorch's wrapper calls ``fn`` as is; so does core's everywhere."""
    return fn


def cudagraph_mark_step_begin() -> None:
    """No CUDA graphs to mark."""


class set_stance(contextlib.ContextDecorator):
    """``with torch.compiler.set_stance("force_eager"):`` or as a decorator; core's capture has one stance."""

    def __init__(self, stance: str = "default", *, skip_guard_eval_unsafe: bool = False, force_backend=None):
        self.stance = stance

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False


def list_backends(exclude_tags=("debug", "experimental")) -> list:
    """The one backend name core's ``compile`` answers to (its capture)."""
    return ["inductor"]


def get_default_backend() -> str:
    return "inductor"
