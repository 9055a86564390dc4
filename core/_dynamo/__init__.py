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

__all__ = ["ExplainOutput", "OptimizedModule", "allow_in_graph", "config", "disable", "exc", "explain",
           "mark_static_address", "reset"]


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


class ExplainOutput:
    """What ``torch._dynamo.explain`` reports: the graphs dynamo captured and where it broke them. core has no
    dynamo and breaks nothing: no graph, no break, no op, no guard."""

    def __init__(self, graphs=(), graph_count=0, graph_break_count=0, break_reasons=(), op_count=0,
                 ops_per_graph=None, out_guards=None, compile_times=None):
        self.graphs, self.graph_count, self.graph_break_count = list(graphs), graph_count, graph_break_count
        self.break_reasons, self.op_count, self.ops_per_graph = list(break_reasons), op_count, ops_per_graph
        self.out_guards, self.compile_times = out_guards, compile_times

    def __str__(self) -> str:
        return (f"Graph Count: {self.graph_count}\nGraph Break Count: {self.graph_break_count}\n"
                f"Op Count: {self.op_count}\nBreak Reasons:\n")


def explain(f, *extra_args, **extra_kwargs):
    """``torch._dynamo.explain(f)(*args)``: runs ``f`` (eagerly, as core's compile does) and reports what dynamo
    would have captured: with no dynamo, nothing and no graph break (PyG's tests assert ``graph_break_count == 0``
    before compiling a layer)."""
    def inner(*args, **kwargs):
        f(*extra_args, *args, **extra_kwargs, **kwargs)
        return ExplainOutput(ops_per_graph=[], out_guards=[], compile_times="")

    if extra_args or extra_kwargs:  # (torch's older form, explain(f, *args), deprecated)
        return inner()
    return inner
