"""Which graph node made what, in a session: the autograd nodes each evaluation created (with what each saved for
backward, kept so it can be shown, and put back by time travel, after a backward freed it) and the leaves
requiring grad that each node made or owns (the keys of the gradient ledger and of ``zero_grad``).

``Session`` holds one ``Ownership`` per run: it records each evaluation (``record``, ``register_leaves``,
``keep_leaves``), forgets a node's share when the node runs again (``forget``), and time travel reads and puts
back one node's share (``entries``, ``put``). A training step records nothing node by node; its creation marks
(``step_marks``, ``core.nodegraph.run.step_owners``) answer ``owner_of`` instead.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import core
from core.autograd.graph import AccumulateGrad, saved_state
from core.nodegraph.run.step_owners import StepMarks

__all__ = ["Ownership", "Leaf"]

Leaf = tuple[core.Tensor, str, str]  # a leaf, the graph node that made or owns it, its port or parameter name


class Ownership:
    """The maps, all empty at first: ``owner`` (autograd node -> graph node), ``created`` (graph node -> the
    autograd nodes it created, and the AccumulateGrad nodes of the leaves it owns), ``saved`` (autograd node -> what
    it saved), ``leaves`` (id of a leaf -> ``Leaf``), ``node_leaves`` (graph node -> ids of its leaves)."""

    def __init__(self) -> None:
        self.owner: dict[Any, str] = {}
        self.created: dict[str, list[Any]] = {}
        self.saved: dict[Any, Any] = {}
        self.leaves: dict[int, Leaf] = {}
        self.node_leaves: dict[str, list[int]] = {}
        self.step_marks: StepMarks | None = None  # the last training step's creation marks

    # ----- recording --------------------------------------------------------------------------------
    def forget(self, nid: str) -> None:
        """Drop what node ``nid`` created and registered (it runs again, or goes)."""
        for anode in self.created.pop(nid, ()):
            self.owner.pop(anode, None)
            self.saved.pop(anode, None)
        for tid in self.node_leaves.pop(nid, ()):
            self.leaves.pop(tid, None)

    def register_leaves(self, nid: str, found: Iterable[tuple[str, core.Tensor]]) -> None:
        """Remember the leaves ``found`` (``(name, tensor)``) as node ``nid``'s, unless another node has them."""
        ids = self.node_leaves.setdefault(nid, [])
        for name, t in found:
            if id(t) not in self.leaves:
                self.leaves[id(t)] = (t, nid, name)
                ids.append(id(t))

    def keep_leaves(self, nid: str, found: list[tuple[str, core.Tensor]]) -> None:
        """``register_leaves`` unless they are the very tensors registered last time (the usual case in training: a
        layer's parameters), which keeps them without popping and re-adding each one."""
        ids = self.node_leaves.get(nid)
        if not found and not ids:
            return
        leaves = self.leaves
        if ids is not None and len(ids) == len(found):
            for tid, (name, t) in zip(ids, found):
                rec = leaves.get(tid)
                if rec is None or rec[0] is not t or rec[2] != name:
                    break
            else:
                return
        for tid in self.node_leaves.pop(nid, ()):
            leaves.pop(tid, None)
        self.register_leaves(nid, found)

    def record(self, nid: str, out: dict[str, Any], touch: Callable[[str], None]) -> None:
        """Own the autograd nodes the evaluation of ``nid`` (outputs ``out``) introduced, walking back to those
        earlier nodes own; the AccumulateGrad of another node's leaf goes to that node (``touch``ed first, so time
        travel keeps its entries as they were)."""
        created = []
        stack = [t.grad_fn for t in out.values() if isinstance(t, core.Tensor) and t.grad_fn is not None]
        owner = self.owner
        while stack:
            anode = stack.pop()
            if anode in owner:
                continue
            if type(anode) is AccumulateGrad:
                leaf = self.leaves.get(id(anode.variable))
                if leaf is not None and leaf[1] != nid:
                    touch(leaf[1])
                    owner[anode] = leaf[1]
                    self.created.setdefault(leaf[1], []).append(anode)
                    continue
            owner[anode] = nid
            created.append(anode)
            saved = saved_state(anode)
            if saved is not None:
                self.saved[anode] = saved
            stack.extend(fn for fn, _ in anode.next_functions if fn is not None)
        self.created.setdefault(nid, []).extend(created)

    # ----- reading ----------------------------------------------------------------------------------
    def owner_of(self, autograd_node: Any) -> str | None:
        """The graph node whose evaluation created ``autograd_node`` (in a stepped pass or the last training step)."""
        owner = self.owner.get(autograd_node)
        if owner is None and self.step_marks is not None:
            owner = self.step_marks.owner(autograd_node, self.leaves)
        return owner

    def origin(self, autograd_node: Any) -> str:
        """``"forward"`` when a stepped forward recorded ``autograd_node``, ``"train"`` when the last training step
        made it."""
        return "forward" if autograd_node in self.owner or self.step_marks is None else "train"

    def leaf_key(self, tensor: core.Tensor) -> str | None:
        """``"node.name"`` of a registered leaf, else None."""
        rec = self.leaves.get(id(tensor))
        return f"{rec[1]}.{rec[2]}" if rec is not None and rec[0] is tensor else None

    def leaf_tensors(self, nid: str) -> list[core.Tensor]:
        """The leaves node ``nid`` made or owns."""
        return [self.leaves[tid][0] for tid in self.node_leaves.get(nid, ())]

    # ----- time travel ------------------------------------------------------------------------------
    def entries(self, nid: str) -> tuple[tuple[tuple[Any, Any], ...] | None, tuple[tuple[int, Leaf], ...] | None]:
        """Node ``nid``'s share: its autograd nodes with what they saved, and its leaves (None: none recorded)."""
        created, leaves, saved = self.created.get(nid), self.node_leaves.get(nid), self.saved
        return (None if created is None else tuple((a, saved.get(a)) for a in created),
                None if leaves is None else tuple((tid, self.leaves[tid]) for tid in leaves))

    def put(self, nid: str, created: tuple[tuple[Any, Any], ...] | None,
            leaves: tuple[tuple[int, Leaf], ...] | None) -> None:
        """Give node ``nid`` the share ``entries`` gave (after ``forget``)."""
        if created is not None:
            self.created[nid] = [a for a, _ in created]
            for a, saved in created:
                self.owner[a] = nid
                if saved is not None:
                    self.saved[a] = saved
        if leaves is not None:
            self.node_leaves[nid] = [tid for tid, _ in leaves]
            self.leaves.update(leaves)
