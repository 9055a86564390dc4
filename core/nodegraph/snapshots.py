"""Time travel: a bounded history of step snapshots, copy-on-write.

Values are immutable per step except for in-place changes: ``.grad`` accumulation, optimizer updates
and in-place ops. So a snapshot keeps references to the step's values and copies only the arrays that
changed in that step (detected by version counters and ``.grad`` identity/version). The optimizer's state
(momentum buffers...) is copied after each optimizer step and shared by the snapshots until the next one. Restoring step
``k`` writes back, for each tracked tensor, its latest copy at or before ``k``. The oldest snapshot
folds its copies into the next one when the window slides, so every tensor keeps a base state.
"""

from __future__ import annotations

import copy
from collections import defaultdict
from dataclasses import dataclass, field

import core
from core.autograd.graph import grad_of, restore_tensor_state, set_saved_state, tensor_state
from core.nodegraph.events import SessionEvent

__all__ = ["Snapshot", "TensorTracker", "History", "TimeTravelMixin", "save_optimizer", "restore_optimizer"]


@dataclass
class Snapshot:
    """The session after one step: ``label`` = (phase, node id); ``state`` = the session's own fields;
    ``tensors`` = ``{id: (tensor, TensorState)}`` changed in this step (its ``data`` None when only the
    ``.grad`` changed)."""

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
            g = grad_of(t)
            key = (t._version, id(g), g._version if g is not None else -1)
            tid = id(t)
            old = seen.get(tid)
            if old is not None and old[0] is t and old[1] == key:
                continue
            seen[tid] = (t, key)
            out[tid] = (t, tensor_state(t, data=old is None or old[0] is not t or old[1][0] != key[0]))
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
                elif nxt.tensors[tid][1].data is None and rec[0] is nxt.tensors[tid][0]:
                    t, state = nxt.tensors[tid]
                    nxt.tensors[tid] = (t, state._replace(data=rec[1].data))
        self.position = len(self.snapshots) - 1

    def clear(self) -> None:
        self.snapshots = []
        self.position = -1

    @property
    def at_head(self) -> bool:
        return self.position == len(self.snapshots) - 1

    def tensor_states(self, index: int) -> dict:
        """``{id: (tensor, TensorState)}``: each tensor's latest recorded state at or before ``index``."""
        states: dict = {}
        for snap in self.snapshots[:index + 1]:
            for tid, rec in snap.tensors.items():
                old = states.get(tid)
                if rec[1].data is None and old is not None and old[0] is rec[0]:
                    rec = (rec[0], rec[1]._replace(data=old[1].data))  # only the grad changed: keep the data copy
                states[tid] = rec
        return states


def _clone(value):
    return value.detach().clone() if isinstance(value, core.Tensor) else copy.deepcopy(value)


def save_optimizer(entry) -> tuple | None:
    """A copy of the optimizer's state (momentum buffers, step counts), learning rates and schedule, taken after
    an optimizer step; snapshots share it until the next one (it only changes there)."""
    if entry is None:
        return None
    _, opt, scheduler = entry
    with core.no_grad():
        state = {p: {k: _clone(v) for k, v in st.items()} for p, st in opt.state.items()}
    lrs = [g.get("lr") for g in opt.param_groups]
    return opt, state, lrs, None if scheduler is None else copy.deepcopy(scheduler.state_dict())


def restore_optimizer(entry, saved) -> None:
    """Put the optimizer back as ``saved`` (None: before its first step, so no state); a rebuilt one is left."""
    if entry is None or (saved is not None and saved[0] is not entry[1]):
        return
    opt, scheduler = entry[1], entry[2]
    if saved is None:
        opt.state = defaultdict(dict)
        return
    with core.no_grad():
        opt.state = defaultdict(dict, {p: {k: _clone(v) for k, v in st.items()} for p, st in saved[1].items()})
    for g, lr in zip(opt.param_groups, saved[2]):
        g["lr"] = lr
    if scheduler is not None and saved[3] is not None:
        scheduler.load_state_dict(copy.deepcopy(saved[3]))


class TimeTravelMixin:
    """Snapshots after each step and the moves through them (mixed into ``Session``)."""

    def _snapshot(self, label) -> int:
        released = frozenset(a for a in self._saved_backup if a.is_released)
        bw = self._bw
        state = {"values": {k: dict(v) for k, v in self.values.items()}, "done": list(self._done),
                 "errors": dict(self.errors), "ledger": self.ledger.state(), "gen": self.generator.get_state(),
                 "step_count": self.step_count, "released": released, "no_gradient": list(self._no_gradient),
                 "bw": None if bw is None else (bw.start_index, bw.done, bw.retain_graph), "opt": self._opt_saved,
                 "maps": tuple(getattr(self, name) for name in self._MAPS)}
        self._maps_shared = True
        tensors = self._tracker.changes(self._tracked_tensors())
        self.history.push(Snapshot(label, state, tensors))
        return self.history.position

    def _tracked_tensors(self) -> list:
        seen = {id(t): t for t, _, _ in self._leaves.values()}
        for out in self.values.values():
            for t in out.values():
                if isinstance(t, core.Tensor):
                    seen.setdefault(id(t), t)
        return list(seen.values())

    def step_back(self) -> bool:
        """Show the state before the last step (values, grads, ledger restored exactly)."""
        if self.history.position <= 0:
            return False
        self._restore(self.history.position - 1)
        return True

    def step_forward(self) -> bool:
        """Redo: show the next recorded step again (False at the newest one)."""
        if self.history.at_head:
            return False
        self._restore(self.history.position + 1)
        return True

    def goto(self, index: int) -> None:
        """Show history entry ``index`` (0 = oldest kept)."""
        if not 0 <= index < len(self.history.snapshots):
            raise IndexError(f"history index {index} out of range (0..{len(self.history.snapshots) - 1})")
        self._restore(index)

    def _restore(self, index: int) -> None:
        self._close_backward()
        snap = self.history.snapshots[index]
        st = snap.state
        self.values = {k: dict(v) for k, v in st["values"].items()}
        self._done, self.errors = list(st["done"]), dict(st["errors"])
        self.ledger.restore(st["ledger"])
        self.generator.set_state(st["gen"])
        self.step_count, self._no_gradient = st["step_count"], list(st["no_gradient"])
        self._opt_saved = st["opt"]
        restore_optimizer(self._optimizer, self._opt_saved)
        for name, d in zip(self._MAPS, st["maps"]):
            setattr(self, name, d)
        self._maps_shared = True
        for t, state in self.history.tensor_states(index).values():
            restore_tensor_state(t, state)
        for anode, saved in self._saved_backup.items():
            set_saved_state(anode, None if anode in st["released"] else saved)
        self.history.position = index
        self._tracker.forget()
        self._tracker.changes(self._tracked_tensors())
        for listener in list(self._subscribers):
            listener(SessionEvent("history", snap.label[1], (), {"label": snap.label}, index))

    def _ensure_head(self, backward: bool = False) -> None:
        """Before a new step from a past position: drop the redo future; resume a half-run backward."""
        if self.history.at_head:
            return
        bw = self.history.snapshots[self.history.position].state["bw"]
        del self.history.snapshots[self.history.position + 1:]
        if bw is None or not backward:
            return
        start, done, retain = bw
        self._restore(start)
        del self.history.snapshots[start + 1:]
        self._start_backward(retain)
        for _ in range(done):
            self.backward_step()

