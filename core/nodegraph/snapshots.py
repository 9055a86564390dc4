"""Time travel: a bounded history of step snapshots, copy-on-write.

Values are immutable per step except for in-place changes: ``.grad`` accumulation, optimizer updates
and in-place ops. So a snapshot keeps references to the step's values and copies only the arrays that
changed in that step (detected by version counters and ``.grad`` identity/version). Restoring step
``k`` writes back, for each tracked tensor, its latest copy at or before ``k``. The oldest snapshot
folds its copies into the next one when the window slides, so every tensor keeps a base state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

__all__ = ["Snapshot", "TensorTracker", "History"]


@dataclass
class Snapshot:
    """The session after one step: ``label`` = (phase, node id); ``state`` = the session's own fields;
    ``tensors`` = ``{id: (tensor, data copy or None, version, grad copy or None)}`` changed in this step."""

    label: tuple
    state: dict
    tensors: dict = field(default_factory=dict)


class TensorTracker:
    """Finds the tensors whose data or ``.grad`` changed since the last call."""

    def __init__(self):
        self._seen: dict = {}

    def changes(self, tensors) -> dict:
        out = {}
        seen = self._seen
        for t in tensors:
            g = t._grad
            key = (t._vc[0], id(g), g._vc[0] if g is not None else -1)
            tid = id(t)
            old = seen.get(tid)
            if old is not None and old[0] is t and old[1] == key:
                continue
            data_changed = old is None or old[0] is not t or old[1][0] != key[0]
            seen[tid] = (t, key)
            out[tid] = (t, t._data.copy() if data_changed else None, key[0],
                        g._data.copy() if g is not None else None)
        return out

    def forget(self) -> None:
        self._seen = {}


class History:
    """The last ``limit`` snapshots and the index of the one the session shows."""

    def __init__(self, limit: int = 100):
        self.limit = max(1, int(limit))
        self.snapshots: list = []
        self.position = -1

    def push(self, snap: Snapshot) -> None:
        """Record a new step; any redo future beyond the current position is dropped."""
        del self.snapshots[self.position + 1:]
        self.snapshots.append(snap)
        if len(self.snapshots) > self.limit:
            oldest = self.snapshots.pop(0)
            nxt = self.snapshots[0]
            for tid, rec in oldest.tensors.items():
                if tid not in nxt.tensors:
                    nxt.tensors[tid] = rec
                elif nxt.tensors[tid][1] is None and rec[0] is nxt.tensors[tid][0]:
                    t, _, version, grad = nxt.tensors[tid]
                    nxt.tensors[tid] = (t, rec[1], version, grad)
        self.position = len(self.snapshots) - 1

    def clear(self) -> None:
        self.snapshots = []
        self.position = -1

    @property
    def at_head(self) -> bool:
        return self.position == len(self.snapshots) - 1

    def tensor_states(self, index: int) -> dict:
        """``{id: (tensor, data, version, grad)}``: each tensor's latest recorded state at or before ``index``."""
        states: dict = {}
        for snap in self.snapshots[:index + 1]:
            for tid, rec in snap.tensors.items():
                old = states.get(tid)
                if rec[1] is None and old is not None and old[0] is rec[0]:
                    rec = (rec[0], old[1], rec[2], rec[3])  # only the grad changed: keep the data copy
                states[tid] = rec
        return states


def write_back(tensor, data: Any, version: int, grad: Any) -> None:
    """Restore a tensor's contents, version counter and ``.grad`` in place (views stay consistent)."""
    from core._tensor import Tensor  # noqa: PLC0415

    if data is not None and tensor._data.shape == data.shape:
        tensor._data[...] = data
    tensor._vc[0] = version
    if grad is None:
        tensor._grad = None
    elif tensor._grad is not None and tensor._grad._data.shape == grad.shape and not tensor._grad._requires_grad:
        tensor._grad._data[...] = grad
    else:
        tensor._grad = Tensor._wrap(grad.copy())
