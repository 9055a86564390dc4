"""Time travel: ``History`` holds a session and a bounded list of snapshots of it, copy-on-write.

Values are immutable per step except for in-place changes: ``.grad`` accumulation, optimizer updates
and in-place ops. So a snapshot keeps references to the step's values and copies only the arrays that
changed in that step (detected by version counters and ``.grad`` identity/version). The optimizer's state
(momentum buffers...) is copied after each optimizer step (``core.nodegraph.run.optimizer_slot``) and shared by
the snapshots until the next one. Restoring step ``k`` writes back, for each tracked tensor, its latest copy
at or before ``k``. The oldest snapshot folds its copies into the next one when the window slides, so every
tensor keeps a base state.

``History`` talks to its session through the session's public methods only: ``capture()`` gives the
session's own fields after a step (``record`` keeps them with the tensors that changed), ``restore(state)``
puts them back, ``tracked_tensors()`` names the tensors to watch and ``notify`` tells the listeners.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from core.autograd.graph import grad_of, restore_tensor_state, tensor_state
from core.nodegraph.model.events import SessionEvent

__all__ = ["Snapshot", "TensorTracker", "History"]


@dataclass
class Snapshot:
    """The session after one step: ``label`` = (phase, node id); ``state`` = the session's own fields;
    ``tensors`` = ``{id: (tensor, TensorState)}`` changed in this step (its ``data`` None when only the
    ``.grad`` changed)."""

    label: tuple
    state: dict
    tensors: dict = field(default_factory=dict)

    def backward_state(self) -> tuple | None:
        """``(history index where the backward call began, steps done, retain_graph)`` of a backward call that was
        in progress at this step, else None."""
        return self.state["bw"]


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
    """The last ``limit`` snapshots of ``session`` and the index of the one it shows."""

    def __init__(self, session, limit: int = 100):
        self.session = session
        self.limit = max(1, int(limit))
        self.snapshots: list = []
        self.position = -1
        self._tracker = TensorTracker()

    # ----- recording -----------------------------------------------------------------------------
    def record(self, label: tuple) -> int:
        """Keep the session's state after a step labelled ``(phase, node)``; returns its index."""
        state = self.session.capture()
        tensors = self._tracker.changes(self.session.tracked_tensors())
        self._push(Snapshot(label, state, tensors))
        return self.position

    def _push(self, snap: Snapshot) -> None:
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
        """Forget every snapshot (training, a device move and reset start the history again)."""
        self.snapshots = []
        self.position = -1
        self._tracker.forget()

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

    # ----- moving ----------------------------------------------------------------------------------
    def step_back(self) -> bool:
        """Show the state before the last step (values, grads, ledger restored exactly)."""
        if self.position <= 0:
            return False
        self.restore(self.position - 1)
        return True

    def step_forward(self) -> bool:
        """Redo: show the next recorded step again (False at the newest one)."""
        if self.at_head:
            return False
        self.restore(self.position + 1)
        return True

    def goto(self, index: int) -> None:
        """Show history entry ``index`` (0 = oldest kept)."""
        if not 0 <= index < len(self.snapshots):
            raise IndexError(f"history index {index} out of range (0..{len(self.snapshots) - 1})")
        self.restore(index)

    def restore(self, index: int) -> None:
        """Put the session back as it was after step ``index`` and tell its listeners (a ``history`` event)."""
        session = self.session
        snap = self.snapshots[index]
        session.restore(snap.state)
        for t, state in self.tensor_states(index).values():
            restore_tensor_state(t, state)
        self.position = index
        self._tracker.forget()
        self._tracker.changes(session.tracked_tensors())
        session.notify(SessionEvent("history", snap.label[1], (), {"label": snap.label}, index))

    def ensure_head(self, backward: bool = False) -> None:
        """Before a new step from a past position: drop the redo future; resume a half-run backward (when the
        new step is a backward step) by replaying its steps from where it began."""
        if self.at_head:
            return
        bw = self.snapshots[self.position].backward_state()
        del self.snapshots[self.position + 1:]
        if bw is None or not backward:
            return
        start, done, retain = bw
        self.restore(start)
        del self.snapshots[start + 1:]
        for _ in range(done):
            self.session.backward_step(retain_graph=retain)
