"""The gradient ledger: every contribution to a leaf's ``.grad`` since the last ``zero_grad`` (or since the leaf
was made anew: a node that runs again makes a new tensor, whose ``.grad`` starts from None).

PyTorch accumulates into ``.grad``; the ledger makes the accumulation visible. Each entry says which
backward call brought it (1, 2, ... since the last zero_grad), the chain of graph nodes the gradient
came along from the loss (several chains when paths merged before reaching the leaf), the gradient
itself and the running sum after it was added. The chains are kept as ``PathLink`` objects that share their
common beginnings (a step extends its sender's chains by one link, so stepping stays linear in the graph's size)
and become tuples of node ids only when read (``Contribution.paths``). Entries are immutable; time travel keeps
what each step changed (``take_changes``: the contributions it added, the entries a ``clear`` replaced) and undoes
or redoes exactly that (``undo``/``redo``), so a step's record is as small as the step.
"""

from __future__ import annotations

import math
import weakref
from collections.abc import Iterable
from typing import Any, NamedTuple

__all__ = ["Contribution", "GradLedger", "PathLink"]

Path = tuple[str | None, ...]  # graph node ids from the loss to a leaf's node


class PathLink:
    """The last graph node ``node`` of a gradient path and the link ``before`` it (None at the loss).

    Links are shared: every path that begins the same way holds the same earlier links, so extending a path is
    one new link instead of a copy of the whole chain. ``PathLinks`` interns them, so equal paths are one object.
    """

    __slots__ = ("before", "node")

    def __init__(self, before: PathLink | None, node: str | None) -> None:
        self.before, self.node = before, node

    def nodes(self) -> Path:
        """The graph node ids from the loss to this link."""
        out: list[str | None] = []
        link: PathLink | None = self
        while link is not None:
            out.append(link.node)
            link = link.before
        return tuple(reversed(out))


class PathLinks:
    """The interned links of one backward call: ``extend(link, node)`` gives the same object for the same path."""

    __slots__ = ("_links",)

    def __init__(self) -> None:
        self._links: dict[tuple[PathLink | None, str | None], PathLink] = {}

    def root(self, node: str | None) -> PathLink:
        """The one-node path ``(node,)``."""
        return self.extend(None, node)

    def extend(self, before: PathLink | None, node: str | None) -> PathLink:
        """The path ``before`` followed by ``node``."""
        key = (before, node)
        link = self._links.get(key)
        if link is None:
            link = self._links[key] = PathLink(before, node)
        return link


class Contribution(NamedTuple):
    """One gradient added into a leaf: ``grad`` and ``total`` are NumPy/CuPy array copies."""

    backward_call: int
    links: tuple[PathLink, ...]  # the last ``PathLink`` of each path the gradient came along; () when not traced
    grad: Any
    total: Any

    @property
    def paths(self) -> tuple[Path, ...]:
        """Tuples of graph node ids, loss first, the leaf's node last (several when paths merged); () when not
        traced. Built from the links when asked."""
        return tuple(link.nodes() for link in self.links)

    @property
    def path(self) -> Path:
        """The first path (the only one unless gradients merged on the way)."""
        return self.links[0].nodes() if self.links else ()


Entries = dict[str, list[Contribution]]  # per leaf key, its contributions in order
Op = tuple[str, Any, Any]  # ("add", key, Contribution), ("restart", key, (old list, Contribution)) or
# ("replace", old Entries, new Entries)
Changes = tuple[int, int, tuple[Op, ...]]  # backward calls before and after, and the operations between
State = tuple[int, dict[str, int], Entries]  # backward calls, entries per key, and the entries
Whole = tuple[int, list[str], Any, list[tuple[int, ...]]]  # a training step's call, keys, flat array and shapes


class GradLedger:
    """Contributions per leaf key (``"node_id.port"`` or ``"node_id.param_name"``)."""

    def __init__(self) -> None:
        self._entries: Entries = {}
        self._whole: Whole | None = None  # a training step's gradients, split into entries when first read (add_whole)
        self.backward_calls = 0
        self._ops: list[Op] | None = None  # since take_changes (None: not kept)
        self._leaves: dict[str, weakref.ref[Any]] = {}  # key -> the tensor its last contribution went into
        self._calls_before = 0

    @property
    def entries(self) -> Entries:
        """``{key: [Contribution, ...]}``."""
        if self._whole is not None:
            self._split_whole()
        return self._entries

    @entries.setter
    def entries(self, value: Entries) -> None:
        self._whole, self._entries = None, value

    def begin_backward(self) -> int:
        self.backward_calls += 1
        return self.backward_calls

    def add(self, key: str, grad_array: Any, total_array: Any = None, links: Iterable[PathLink] = (),
            leaf: object = None) -> Contribution:
        """Record a contribution that came along the paths ending in ``links`` (``PathLink``); ``total_array`` None
        means the gradient is the whole ``.grad`` (one copy). ``leaf``, the tensor it went into: when it is another
        tensor than the key's last one and its ``.grad`` is this gradient alone, the leaf was made anew (its node
        ran again after an edit) and the key's history starts over, as the new tensor's ``.grad`` did."""
        grad = grad_array.copy()
        total = grad if total_array is None else total_array.copy()
        c = Contribution(self.backward_calls, tuple(links), grad, total)
        if leaf is not None and self._made_anew(key, leaf, grad, total):
            self._restart(key, c)
        else:
            self._append(key, c)
        return c

    def _made_anew(self, key: str, leaf: object, grad: Any, total: Any) -> bool:
        """Whether ``leaf`` is another tensor than the one ``key``'s history went into, with a ``.grad`` that is this
        gradient alone (it started from None)."""
        last = self._leaves.get(key)
        if last is not None and last() is leaf:
            return False
        self._leaves[key] = weakref.ref(leaf)
        if last is None or not self.entries.get(key):
            return False
        return grad.shape == total.shape and bool((grad == total).all())  # NOTE: a NaN total keeps the history

    def _restart(self, key: str, c: Contribution) -> None:
        """``key``'s history becomes ``c`` alone; one operation, so a step's record stays one entry."""
        old = self.entries.get(key)
        self._entries[key] = [c]
        if self._ops is not None:
            self._ops.append(("restart", key, (old, c)))

    def add_copy(self, key: str, grad: Any) -> None:
        """Record a whole ``.grad`` already copied by the caller."""
        self._append(key, Contribution(self.backward_calls, (), grad, grad))

    def _append(self, key: str, c: Contribution) -> None:
        self.entries.setdefault(key, []).append(c)
        if self._ops is not None:
            self._ops.append(("add", key, c))

    def add_whole(self, keys: list[str], flat: Any, shapes: list[tuple[int, ...]]) -> None:
        """Record whole ``.grad`` copies laid one after the other in the 1-d array ``flat`` (a training step
        copies all of them at once); they become entries (views of ``flat``) only when the ledger is read,
        so a training loop that nobody inspects never splits them."""
        if self._whole is not None:
            self._split_whole()
        self._whole = (self.backward_calls, keys, flat, shapes)

    def _split_whole(self) -> None:
        whole, self._whole = self._whole, None
        if whole is None:
            return
        call, keys, flat, shapes = whole
        start, entries = 0, self._entries
        for key, shape in zip(keys, shapes):
            size = math.prod(shape)
            grad = flat[start:start + size].reshape(shape)
            start += size
            entries.setdefault(key, []).append(Contribution(call, (), grad, grad))

    def contributions(self, key: str) -> list[Contribution]:
        return list(self.entries.get(key, ()))

    def running_sum(self, key: str) -> Any:
        """The sum of every contribution so far (equals the leaf's ``.grad``), or None."""
        entries = self.entries.get(key)
        return entries[-1].total if entries else None

    def clear(self) -> None:
        if self._ops is None:
            self._whole, self._entries = None, {}
        else:
            old = self.entries  # splits a pending training step's entries: undoing the clear gives them back
            self._entries = {}
            self._ops.append(("replace", old, self._entries))
        self.backward_calls = 0

    # ----- time travel -----------------------------------------------------------------------------
    def take_changes(self) -> Changes:
        """What changed since the last call: ``(calls before, calls after, operations)``, for ``undo``/``redo``."""
        ops, self._ops = self._ops or (), []
        before, self._calls_before = self._calls_before, self.backward_calls
        return before, self.backward_calls, tuple(ops)

    def forget_changes(self, keep: bool = True) -> None:
        """The ledger as it is now is the base of what ``take_changes`` reports next; ``keep`` False stops keeping
        changes (until the next ``take_changes``)."""
        self._ops, self._calls_before = [] if keep else None, self.backward_calls

    def undo(self, changes: Changes) -> None:
        """Put the ledger back as it was before ``changes`` (it must be as they left it)."""
        before, _, ops = changes
        for op in reversed(ops):
            if op[0] == "add":
                entries = self._entries[op[1]]
                entries.pop()
                if not entries:
                    del self._entries[op[1]]
            elif op[0] == "restart":
                self._entries[op[1]] = op[2][0]
            else:
                self._whole, self._entries = None, op[1]
        self.backward_calls = self._calls_before = before

    def redo(self, changes: Changes) -> None:
        """Apply ``changes`` again (the ledger must be as it was before them)."""
        _, after, ops = changes
        for op in ops:
            if op[0] == "add":
                self._entries.setdefault(op[1], []).append(op[2])
            elif op[0] == "restart":
                self._entries[op[1]] = [op[2][1]]
            else:
                self._whole, self._entries = None, op[2]
        self.backward_calls = self._calls_before = after

    def state(self) -> State:
        """A cheap snapshot: entries are immutable, so counts per key are enough to restore."""
        return self.backward_calls, {k: len(v) for k, v in self.entries.items()}, dict(self.entries)

    def restore(self, state: State) -> None:
        calls, counts, entries = state
        self.backward_calls = calls
        self.entries = {k: list(entries[k][:n]) for k, n in counts.items() if n}
