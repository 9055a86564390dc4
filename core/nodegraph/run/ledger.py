"""The gradient ledger: every contribution to a leaf's ``.grad`` since the last ``zero_grad``.

PyTorch accumulates into ``.grad``; the ledger makes the accumulation visible. Each entry says which
backward call brought it (1, 2, ... since the last zero_grad), the chain of graph nodes the gradient
came along from the loss (several chains when paths merged before reaching the leaf), the gradient
itself and the running sum after it was added. Entries are immutable, so a snapshot of the ledger is
the tuple of entry counts per leaf.
"""

from __future__ import annotations

import math
from typing import Any, NamedTuple

__all__ = ["Contribution", "GradLedger"]


class Contribution(NamedTuple):
    """One gradient added into a leaf: ``grad`` and ``total`` are NumPy/CuPy array copies."""

    backward_call: int
    paths: tuple  # tuples of graph node ids, loss first, the leaf's node last; () when not traced
    grad: Any
    total: Any

    @property
    def path(self) -> tuple:
        """The first path (the only one unless gradients merged on the way)."""
        return self.paths[0] if self.paths else ()


class GradLedger:
    """Contributions per leaf key (``"node_id.port"`` or ``"node_id.param_name"``)."""

    def __init__(self):
        self._entries: dict = {}
        self._whole = None  # a training step's gradients, split into entries when first read (add_whole)
        self.backward_calls = 0

    @property
    def entries(self) -> dict:
        """``{key: [Contribution, ...]}``."""
        if self._whole is not None:
            self._split_whole()
        return self._entries

    @entries.setter
    def entries(self, value: dict) -> None:
        self._whole, self._entries = None, value

    def begin_backward(self) -> int:
        self.backward_calls += 1
        return self.backward_calls

    def add(self, key: str, grad_array, total_array=None, paths=()) -> Contribution:
        """Record a contribution; ``total_array`` None means the gradient is the whole ``.grad`` (one copy)."""
        grad = grad_array.copy()
        total = grad if total_array is None else total_array.copy()
        c = Contribution(self.backward_calls, tuple(tuple(p) for p in paths) if paths else (), grad, total)
        self.entries.setdefault(key, []).append(c)
        return c

    def add_copy(self, key: str, grad) -> None:
        """Record a whole ``.grad`` already copied by the caller."""
        self.entries.setdefault(key, []).append(Contribution(self.backward_calls, (), grad, grad))

    def add_whole(self, keys: list, flat, shapes: list) -> None:
        """Record whole ``.grad`` copies laid one after the other in the 1-d array ``flat`` (a training step
        copies all of them at once); they become entries (views of ``flat``) only when the ledger is read,
        so a training loop that nobody inspects never splits them."""
        if self._whole is not None:
            self._split_whole()
        self._whole = (self.backward_calls, keys, flat, shapes)

    def _split_whole(self) -> None:
        call, keys, flat, shapes = self._whole
        self._whole = None
        start, entries = 0, self._entries
        for key, shape in zip(keys, shapes):
            size = math.prod(shape)
            grad = flat[start:start + size].reshape(shape)
            start += size
            entries.setdefault(key, []).append(Contribution(call, (), grad, grad))

    def contributions(self, key: str) -> list:
        return list(self.entries.get(key, ()))

    def running_sum(self, key: str):
        """The sum of every contribution so far (equals the leaf's ``.grad``), or None."""
        entries = self.entries.get(key)
        return entries[-1].total if entries else None

    def clear(self) -> None:
        self._whole, self._entries = None, {}
        self.backward_calls = 0

    def state(self) -> tuple:
        """A cheap snapshot: entries are immutable, so counts per key are enough to restore."""
        return self.backward_calls, {k: len(v) for k, v in self.entries.items()}, dict(self.entries)

    def restore(self, state: tuple) -> None:
        calls, counts, entries = state
        self.backward_calls = calls
        self.entries = {k: list(entries[k][:n]) for k, n in counts.items() if n}
