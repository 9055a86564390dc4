"""One backward call as a session steps it (``Session.backward_step``): the engine's step iterator, how far it
got, and the gradient paths so far.

A path is the chain of graph nodes a gradient came along from the loss. Each autograd node that has received a
gradient and not yet run keeps the paths that reached it (at most ``MAX_PATHS``, as interned ``PathLink``s of
``core.nodegraph.run.ledger``); when it runs, ``follow`` hands them on along every edge that carried a gradient,
one new link where the edge enters another graph node, so a backward call costs time linear in its steps.
"""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from core.autograd import BackwardStep
from core.nodegraph.run.ledger import PathLink, PathLinks

__all__ = ["BackwardRun", "MAX_PATHS", "count_reachable"]

MAX_PATHS = 16  # gradient paths kept per autograd node (the ledger shows the first ones)


class BackwardRun:
    """Backward call number ``call`` from the loss node ``loss`` (its autograd root ``root``), started at history
    index ``start_index``; ``done`` of ``total`` steps have run."""

    __slots__ = ("steps", "call", "loss", "retain_graph", "done", "total", "paths", "start_index", "links", "start",
                 "senders")

    def __init__(self, steps: Generator[BackwardStep, None, None], call: int, loss: str, retain_graph: bool, root: Any,
                 start_index: int) -> None:
        self.steps, self.call, self.loss, self.retain_graph = steps, call, loss, retain_graph
        self.done, self.total, self.start_index = 0, count_reachable(root), start_index
        self.links = PathLinks()
        self.start = [self.links.root(loss)]
        self.paths: dict[Any, list[PathLink]] = {root: self.start}  # per autograd node waiting to run
        self.senders: dict[Any, list[str]] = {}  # per autograd node waiting to run: who sent it gradients

    def follow(self, step: BackwardStep, owner: dict[Any, str], nid: str | None) -> list[PathLink]:
        """The paths that reached ``step``'s autograd node (owned by graph node ``nid``), handed on to the nodes
        its gradients go to (``owner``: autograd node -> graph node; an unowned one counts as ``nid``'s)."""
        paths = self.paths.pop(step.node, None) or self.start
        pending, extend = self.paths, self.links.extend
        for e, g in zip(step.edges, step.grad_inputs):
            if e is None or g is None:
                continue
            sent = self.senders.setdefault(e[0], [])
            if type(step.node).__name__ not in sent:
                sent.append(type(step.node).__name__)
            nxt_owner = owner.get(e[0], nid)
            bucket = pending.setdefault(e[0], [])
            for p in paths:  # links are interned: equal paths are the same object, ``in`` compares identities
                np_ = p if p.node == nxt_owner else extend(p, nxt_owner)
                if len(bucket) < MAX_PATHS and np_ not in bucket:
                    bucket.append(np_)
        return paths

    def sent_by(self, step: BackwardStep) -> list[str]:
        """The names of the autograd nodes whose gradients ``step``'s node received (call before ``follow``):
        what fed a leaf's AccumulateGrad, e.g. ``["TBackward0"]`` for a Linear layer's weight."""
        return self.senders.pop(step.node, [])

    def released_origin(self, owner: dict[Any, str]) -> tuple[str | None, str | None]:
        """The graph node and the name of an autograd node still waiting to run whose saved tensors were freed (what
        a failed backward needed), or ``(None, None)``."""
        for anode, nid in owner.items():
            if anode.is_released and anode in self.paths:
                return nid, type(anode).__name__
        return None, None


def count_reachable(root: Any) -> int:
    """The number of autograd nodes a backward from ``root`` executes (every reachable one)."""
    if root is None:
        return 0
    seen, stack = {root}, [root]
    while stack:
        for fn, _ in stack.pop().next_functions:
            if fn is not None and fn not in seen:
                seen.add(fn)
                stack.append(fn)
    return len(seen)
