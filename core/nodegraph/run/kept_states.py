"""What an edit made a session drop, set aside so that the edit's undo (or redo) gives it back exactly.

An edit that rebuilds a node's parameters (a layer's size, seed or bias set, a parameter node's shape or dtype,
a build that fails, the node deleted) drops the module or tensor the node had trained, and a changed parameter
set makes the optimizer be built again, without the state (momentum buffers, Adam's moments and step counts) of
the parameters it dropped (``OptimizerSlot.get``). The document's undo puts the recipe back; from the events'
``EditMark`` (the command's stamp, done or undone: ``core.nodegraph.model.document.Graph.editing``) the session
puts back what was trained:

- at each event of command ``k`` being done (or undone) that may drop a node's state (a parameter set, the node
  removed, a subgraph's inner graph replaced), ``KeptStates.note`` pushes the node's state as the event found it
  (a shallow copy of its state dict: the very module or tensor; a subgraph's inner states copied likewise) with
  the file's trained values still waiting for the node, on a stack for (``k``, done or undone, node); the first
  event of ``k`` also parks the optimizer the session had;
- at each event that reverts one (a parameter set back, the node added back) it pops the counterpart's stack: an
  undo's events come in the reverse order of the do's, a redo's in the same order, so the state the node had
  before the reverted event comes back, whatever it was built for (a parameter set without a run since kept the
  old weights: they come back too); the parked optimizer comes back when it is not the one in use.

What is set aside stays for the last ``LIMIT`` edits, fewer when the weights it keeps alive would take more than
``MEMORY_SHARE`` of the memory budget (``core.nodegraph.model.budget``); an undo older than that builds the node
from its seed, as before.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from core.nodegraph.model.budget import bytes_held, memory_budget
from core.nodegraph.model.document import EditMark, GraphEvent

if TYPE_CHECKING:
    from core.nodegraph.run.optimizer_slot import OptimizerSlot, Parked

__all__ = ["KeptStates", "LIMIT", "MEMORY_SHARE"]

LIMIT = 64  # edits whose dropped states are kept
MEMORY_SHARE = 0.25  # of the memory budget the set-aside weights may keep alive
_NODE_EVENTS = ("param_changed", "node_removed", "node_added")
_INNER_EDIT = ("node_changed", "graph")  # a subgraph's inner graph replaced: like a parameter set, for its inner nodes


@dataclass
class _Kept:
    """One node's state as an event found it (None: it had none) and the file's trained values that waited for it."""

    state: dict[str, Any] | None
    pending: dict[str, Any] | None
    nbytes: int


class KeptStates:
    """Per edit mark and node, the states set aside (a stack), and per mark the optimizer parked; ``note`` is
    called with every marked event."""

    def __init__(self) -> None:
        self._nodes: dict[EditMark, dict[str, list[_Kept]]] = {}
        self._optimizers: dict[EditMark, Parked] = {}
        self._marks: dict[EditMark, None] = {}  # every mark holding something, oldest first
        self._bytes = 0  # what the kept states hold alive (_state_bytes)

    def clear(self) -> None:
        self._nodes, self._optimizers, self._marks, self._bytes = {}, {}, {}, 0

    def note(self, event: GraphEvent, states: dict[str, dict[str, Any]], pending: dict[str, dict[str, Any]],
             slot: OptimizerSlot) -> bool:
        """Set aside what ``event`` (of a marked edit) may make the session drop and take back what the counterpart
        event set aside; ``states`` and ``pending`` (the file's trained values) are the session's, changed in place.
        True when a node's state came back.

        A parameter set pushes and pops; a removal only pushes (the node goes: nothing comes back to it), an
        addition only pops (a new node had nothing: a node added anew never takes a deleted one's weights)."""
        mark = event.edit
        if mark is None:
            return False
        self._note_optimizer(mark, EditMark(mark.stamp, not mark.undo), slot)
        nid = event.node_id
        if event.kind not in _NODE_EVENTS and (event.kind, event.detail) != _INNER_EDIT or nid is None:
            return False
        if event.kind != "node_added":
            state = states.get(nid)
            kept = _Kept(None if state is None else _snapshot(state), pending.get(nid), _state_bytes(state))
            self._nodes.setdefault(mark, {}).setdefault(nid, []).append(kept)
            self._grew(mark, kept.nbytes)
        if event.kind == "node_removed":
            pending.pop(nid, None)
            return False
        stack = self._nodes.get(EditMark(mark.stamp, not mark.undo), {}).get(nid)
        if not stack:
            return False
        back = stack.pop()
        self._bytes -= back.nbytes
        if back.state is None:
            states.pop(nid, None)
        else:
            now = states.setdefault(nid, {})
            now.clear()
            now.update(back.state)
        if back.pending is None:
            pending.pop(nid, None)
        else:
            pending[nid] = back.pending
        return True

    def removed(self, mark: EditMark, nid: str) -> tuple[dict[str, Any] | None, dict[str, Any] | None]:
        """``(state, trained values waiting)`` node ``nid`` had when an event of ``mark`` removed it last (both None
        when it did not): what a collapse or expand moves into or out of a subgraph (``run.regrouping``)."""
        stack = self._nodes.get(mark, {}).get(nid)
        if not stack:
            return None, None
        top = stack[-1]
        return None if top.state is None else _snapshot(top.state), top.pending

    def _note_optimizer(self, mark: EditMark, back: EditMark, slot: OptimizerSlot) -> None:
        """The optimizer in use parked under ``mark`` (at its first event), and the one ``back`` parked put back when
        it is not the one in use (an edit that rebuilt it is being undone or redone)."""
        if mark not in self._optimizers:
            parked = slot.park()
            if parked is not None:
                self._optimizers[mark] = parked
                self._grew(mark, 0)
        parked = self._optimizers.pop(back, None)
        if parked is not None and parked[0][1] is not slot.current:
            slot.unpark(parked)

    def _grew(self, mark: EditMark, nbytes: int) -> None:
        """``mark`` holds ``nbytes`` more: drop the oldest marks beyond ``LIMIT`` edits (two marks each, done and
        undone) or ``MEMORY_SHARE`` of the memory budget; the newest stays."""
        self._marks[mark] = None
        self._bytes += nbytes
        while len(self._marks) > 1 and (len(self._marks) > 2 * LIMIT
                                        or self._bytes and self._bytes > memory_budget() * MEMORY_SHARE):
            old = next(iter(self._marks))
            if old == mark:
                break
            del self._marks[old]
            self._bytes -= sum(k.nbytes for stack in self._nodes.pop(old, {}).values() for k in stack)
            self._optimizers.pop(old, None)


def _snapshot(state: dict[str, Any]) -> dict[str, Any]:
    """A node's state as it is now: a shallow copy (the very module or tensor), and for a subgraph a copy of each
    inner node's state too (its next run replaces an inner layer's module in the inner state dict, in place)."""
    out = dict(state)
    inner = out.get("inner")
    if isinstance(inner, dict):
        out["inner"] = {nid: _snapshot(sub) for nid, sub in inner.items()}
    return out


def _state_bytes(state: dict[str, Any] | None) -> int:
    """The bytes a set-aside state keeps alive: its module's parameters and buffers, or its tensor (a subgraph:
    its inner nodes')."""
    if not state:
        return 0
    inner = state.get("inner")
    if isinstance(inner, dict):
        return sum(_state_bytes(sub) for sub in inner.values())
    module = state.get("module")
    if module is not None:
        return sum(bytes_held(t) for t in (*module.parameters(), *module.buffers()))
    return bytes_held(state.get("tensor"))
