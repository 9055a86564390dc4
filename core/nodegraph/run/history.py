"""Time travel: ``History`` holds a session and a bounded list of snapshots of it, each as small as its step.

A snapshot keeps the session's few scalar fields after a step (generator, step count, optimizer state...)
and what the step changed: per graph node it touched, the node's entries before and after (values, error,
done flag, the autograd nodes and leaves it owns); the gradient ledger's additions; the autograd nodes
whose saved tensors the step freed; and, per tensor whose data or ``.grad`` changed (detected by version
counters and ``.grad`` identity/version among the tensors the step could change), its state before and
after. Moving through the history undoes or redoes those changes one step at a time, so recording a step
costs what the step changed, not the size of the graph, and memory stays flat once the window is full:
the oldest snapshot just drops its changes when the window slides (it becomes the base, never undone). The
window holds ``limit`` steps, fewer when what they keep alive would take more than ``MEMORY_SHARE`` of the memory
budget (``core.nodegraph.model.budget``): stepping through a graph of large tensors no longer keeps 100 passes.

``History`` talks to its session through the session's public methods only: ``capture()`` gives the
session's scalar fields, ``take_changes()`` what changed since the last call, ``step_tensors(phase)`` the
tensors the step may have changed, ``undo_changes``/``redo_changes`` and ``restore(state)`` put them back,
``forget_changes`` starts afresh, and ``notify`` tells the listeners.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import core
from core.autograd.graph import TensorState, grad_of, restore_tensor_state, tensor_state
from core.nodegraph.model.budget import bytes_held, memory_budget
from core.nodegraph.model.events import SessionEvent

if TYPE_CHECKING:
    from core.nodegraph.run.session import Session

__all__ = ["Snapshot", "TensorTracker", "History", "MEMORY_SHARE"]

MEMORY_SHARE = 0.5  # of the memory budget (core.nodegraph.model.budget) the time-travel snapshots may keep

TensorChange = tuple[core.Tensor, TensorState | None, TensorState, bool]  # tensor, before, after, data changed
_Key = tuple[int, int, int]  # a tensor's version, its .grad's id and version


@dataclass
class Snapshot:
    """The session after one step: ``label`` = (phase, node id); ``state`` = the session's scalar fields;
    ``changes`` = the session's changes in this step; ``tensors`` = ``[(tensor, before, after, data changed)]``
    (``TensorState`` records, ``before`` None for a tensor first seen). The oldest kept snapshot has no
    changes (it is never undone)."""

    label: tuple[str, str | None]
    state: dict[str, Any]
    changes: tuple[Any, ...] | None = None
    tensors: list[TensorChange] | None = None
    nbytes: int = 0  # what it keeps alive: the values its step replaced, the tensor copies (``_kept_bytes``)

    def backward_state(self) -> tuple[int, int, bool] | None:
        """``(history index where the backward call began, steps done, retain_graph)`` of a backward call that was
        in progress at this step, else None."""
        return self.state["bw"]


def _key(t: core.Tensor) -> _Key:
    g = grad_of(t)
    return t._version, id(g), g._version if g is not None else -1


def _kept_bytes(changes: tuple[Any, ...] | None, tensors: list[TensorChange] | None) -> int:
    """The bytes a snapshot keeps alive: the values its step replaced (each node's outputs before it) and the
    copies of the tensors it changed."""
    total = 0
    for before, _ in (changes[0].values() if changes else ()):
        outputs = before[0] if before else None
        for value in (outputs.values() if isinstance(outputs, dict) else ()):
            total += bytes_held(value)
    for _, _, after, _ in tensors or ():
        total += bytes_held(after.data) + bytes_held(after.grad)
    return total


class TensorTracker:
    """Finds the tensors whose data or ``.grad`` changed since they were last seen, keeping each one's last
    state (its data copy) as the ``before`` of its next change."""

    def __init__(self) -> None:
        self._seen: dict[int, tuple[core.Tensor, _Key, TensorState]] = {}  # id -> (tensor, key, TensorState with data)
        self._pruned_at = 0

    def changes(self, tensors: Iterable[core.Tensor]) -> list[TensorChange]:
        """``[(tensor, before, after, data changed)]`` for those of ``tensors`` that changed."""
        out: list[TensorChange] = []
        seen = self._seen
        for t in tensors:
            key = _key(t)
            tid = id(t)
            old = seen.get(tid)
            if old is not None and old[0] is t and old[1] == key:
                continue
            if old is not None and old[0] is t:
                before, data = old[2], old[1][0] != key[0]
            else:
                before, data = None, True
            state = tensor_state(t, data=data)
            if before is not None and not data:  # only .grad changed: the data copy carries over
                state = state._replace(data=before.data)
            seen[tid] = (t, key, state)
            out.append((t, before, state, data))
        return out

    def prune(self, live: Callable[[], Iterable[core.Tensor]]) -> None:
        """Forget the tensors not in ``live()`` once the record has doubled since the last pruning (amortized O(1)
        per tensor seen): what the session no longer holds is not kept alive."""
        if len(self._seen) > 2 * self._pruned_at + 64:
            keep = {id(t) for t in live()}
            self._seen = {tid: rec for tid, rec in self._seen.items() if tid in keep}
            self._pruned_at = len(self._seen)

    def put(self, t: core.Tensor, state: TensorState | None) -> None:
        """``t`` is now in ``state`` (None: forget it)."""
        if state is None:
            self._seen.pop(id(t), None)
        else:
            self._seen[id(t)] = (t, _key(t), state)

    def forget(self) -> None:
        self._seen = {}
        self._pruned_at = 0


class History:
    """The last ``limit`` snapshots of ``session`` and the index of the one it shows."""

    def __init__(self, session: Session, limit: int = 100) -> None:
        self.session = session
        self.limit = max(1, int(limit))
        self.snapshots: list[Snapshot] = []
        self.position = -1
        self._tracker = TensorTracker()

    # ----- recording -----------------------------------------------------------------------------
    def record(self, label: tuple[str, str | None]) -> int:
        """Keep the session's state after a step labelled ``(phase, node)``; returns its index."""
        session = self.session
        state = session.capture()
        changes: tuple[Any, ...] | None = session.take_changes()
        tensors = session.step_tensors(*label)
        if tensors is None:
            tensors = session.tracked_tensors()
        found = self._tracker.changes(tensors)
        self._tracker.prune(session.tracked_tensors)
        kept: list[TensorChange] | None = found
        if not self.snapshots:
            changes, kept = None, None  # the base: never undone
        self._push(Snapshot(label, state, changes, kept, _kept_bytes(changes, kept)))
        return self.position

    def _push(self, snap: Snapshot) -> None:
        """Record a new step; any redo future beyond the current position is dropped. The oldest snapshots beyond
        the limit, or beyond half the memory budget (``MEMORY_SHARE``: stepping through a graph of large tensors
        kept every pass's values), go; the next one becomes the base and drops its changes."""
        del self.snapshots[self.position + 1:]
        self.snapshots.append(snap)
        kept, most = sum(s.nbytes for s in self.snapshots), memory_budget() * MEMORY_SHARE
        while len(self.snapshots) > self.limit or (kept > most and len(self.snapshots) > 1):
            kept -= self.snapshots[0].nbytes
            del self.snapshots[0]
            base = self.snapshots[0]
            kept -= base.nbytes
            base.changes, base.tensors, base.nbytes = None, None, 0
        self.position = len(self.snapshots) - 1

    def clear(self) -> None:
        """Forget every snapshot (training, a device move and reset start the history again)."""
        self.snapshots = []
        self.position = -1
        self._tracker.forget()
        self.session.forget_changes(keep=False)

    @property
    def at_head(self) -> bool:
        return self.position == len(self.snapshots) - 1

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
        """Put the session back as it was after step ``index`` and tell its listeners (a ``history`` event): undo
        (or redo) the steps between, one at a time. The optimizer's state is copied first: with no memory for the
        copy a MemoryError says so and the session is left as it was (its weights, optimizer and position)."""
        session = self.session
        snap = self.snapshots[index]
        try:
            copies = session.restore_copies(snap.state)  # before anything changes: no memory leaves all as it was
        except MemoryError as exc:
            raise MemoryError(f"no memory to copy the optimizer's state (momentum, Adam's moments) of history entry "
                              f"{index}: the session stays at entry {self.position}, nothing changed ({exc})") from None
        session.abandon_backward()
        while self.position > index:
            self._undo(self.snapshots[self.position])
            self.position -= 1
        while self.position < index:
            self.position += 1
            self._redo(self.snapshots[self.position])
        session.restore(snap.state, copies)
        session.notify(SessionEvent("history", snap.label[1], (), {"label": snap.label}, index))

    def _undo(self, snap: Snapshot) -> None:
        if snap.changes is not None:  # only the base has none, and it is never undone
            self.session.undo_changes(snap.changes)
        for t, before, _, data in reversed(snap.tensors or ()):
            if before is not None:
                restore_tensor_state(t, before if data else before._replace(data=None))
            self._tracker.put(t, before)

    def _redo(self, snap: Snapshot) -> None:
        if snap.changes is not None:  # only the base has none, and it is never redone
            self.session.redo_changes(snap.changes)
        for t, _, after, data in snap.tensors or ():
            restore_tensor_state(t, after if data else after._replace(data=None))
            self._tracker.put(t, after)

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
