"""``torch.autograd.graph.register_multi_grad_hook``: one hook over the gradients of several tensors.

PyTorch's implementation, on core's engine: a tensor hook on each tensor collects its gradient per backward
run (``current_graph_task_id``); in ``"all"`` mode the hook runs once every tensor whose node the run will
execute (``will_engine_execute_node``) has its gradient, with None for the others; in ``"any"`` mode it
runs with the first gradient of each run.
"""

from __future__ import annotations

import functools
import threading
from collections import defaultdict

from core.autograd import engine
from core.autograd.function import accumulate_node
from core.autograd.hooks import RemovableHandle


class _MultiHandle(RemovableHandle):
    """The handles of the per-tensor hooks, removed together."""

    __module__ = "core.autograd.graph"  # PyTorch's path in its repr

    def __init__(self, handles: tuple) -> None:
        self.handles = handles

    def remove(self) -> None:
        for handle in self.handles:
            handle.remove()

    def __getstate__(self):
        return self.handles

    def __setstate__(self, state) -> None:
        self.handles = state


def _grad_fn_or_grad_acc(t):
    node = t.grad_fn if t.grad_fn is not None else (accumulate_node(t) if t.requires_grad else None)
    if node is None:
        raise AssertionError("Expected gradient function to be set")
    return node


def _task_id() -> int:
    task = engine.current_graph_task_id()
    if task == -1:
        raise AssertionError("expected this hook to be called inside a backward call")
    return task


def register_multi_grad_hook(tensors, fn, *, mode="all") -> _MultiHandle:
    supported = ("all", "any")
    if mode not in supported:
        raise ValueError(f"Expects mode to be one of {supported} but got {mode}")
    lock = threading.Lock()
    if mode == "all":
        count: dict = {}
        buffer: dict = {}
        expected: dict = {}
        grad_fns = [_grad_fn_or_grad_acc(t) for t in tensors]

        def inner(idx):
            def hook(grad):
                task = _task_id()
                with lock:
                    done = count.get(task, 0)
                    count[task] = done + 1
                    if done == 0:  # the first gradient of this run: how many will come
                        expected[task] = sum(map(engine.will_engine_execute_node, grad_fns))
                        buffer[task] = [None] * len(grad_fns)
                buffer[task][idx] = grad
                if done == expected[task] - 1:
                    grads = buffer.pop(task)
                    del count[task], expected[task]
                    fn(grads)
            return hook

        handles = tuple(t.register_hook(inner(i)) for i, t in enumerate(tensors))
    else:
        ran: dict = defaultdict(bool)

        @functools.wraps(fn)
        def wrapped(grad):
            task = _task_id()
            with lock:
                before, ran[task] = ran[task], True
            if not before:
                fn(grad)

        handles = tuple(t.register_hook(wrapped) for t in tensors if t.requires_grad)
    return _MultiHandle(handles)
