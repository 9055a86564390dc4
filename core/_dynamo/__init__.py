"""``torch._dynamo``'s names that scripts touch: ``config`` (``suppress_errors``, ``cache_size_limit``...),
``reset()`` and ``OptimizedModule`` (what ``torch.compile`` gives for a module, in ``eval_frame``), the decorators
libraries put on functions for the compiler (``allow_in_graph``, ``disable``: eagerly, the function itself),
``mark_static_address`` (a hint, nothing to do) and ``exc.Unsupported``.

core has no dynamo: ``core.compile`` captures and replays ops (``core.autograd.capture``); the flags are kept
so that ``torch._dynamo.config.suppress_errors = True`` runs as written.
"""

from __future__ import annotations

from core._dynamo import config, exc
from core._dynamo.eval_frame import OptimizedModule

__all__ = ["OptimizedModule", "allow_in_graph", "config", "disable", "exc", "mark_static_address", "reset"]


def allow_in_graph(fn):
    """Lets dynamo put ``fn`` in its graph as one call; run eagerly, ``fn`` is returned as it is (Hugging Face
    transformers decorates ``PreTrainedModel`` methods with it)."""
    if isinstance(fn, (list, tuple)):
        return [allow_in_graph(x) for x in fn]
    if not callable(fn):
        raise AssertionError("allow_in_graph expects a callable")  # PyTorch's check
    return fn


def disable(fn=None, recursive: bool = True, *, reason=None, wrapping: bool = True):
    """Keeps dynamo out of ``fn``: eagerly ``fn`` itself (``@disable`` and ``@disable()`` both)."""
    if fn is None:
        return lambda f: disable(f, recursive, reason=reason, wrapping=wrapping)
    return fn


def mark_static_address(t, guard: bool = False) -> None:
    """Tells the compiler ``t``'s storage will not move (static KV caches); nothing to record without dynamo."""


def reset() -> None:
    """PyTorch clears dynamo's caches; core's captures live in each compiled function and need no reset."""
