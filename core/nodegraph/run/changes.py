"""What ``History`` reads from and puts back into a session: ``ChangeJournal``, a part of ``Session``.

``History`` (``core.nodegraph.run.history``) talks to its session only through the public methods here:
``capture``/``restore`` for the session's scalar fields, ``take_changes``/``forget_changes`` for what the steps
since the last snapshot changed per node (the journal that ``_touch`` fills), ``step_tensors``/``tracked_tensors``
for the tensors to compare, and ``undo_changes``/``redo_changes`` to move between snapshots.

It is a mixin rather than a separate object because the journal is the session's own per-run state: it reads and
puts back the very dicts the evaluation route and the backward stepping write (values, errors, the done set and
the cursor). The members it uses of ``Session`` are declared below for the type checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import core
from core.autograd.graph import set_saved_state

if TYPE_CHECKING:
    from core.nodegraph.model.events import NodeError
    from core.nodegraph.run.backward_run import BackwardRun
    from core.nodegraph.run.ledger import GradLedger
    from core.nodegraph.run.optimizer_slot import Copies, OptimizerSlot
    from core.nodegraph.run.ownership import Ownership

__all__ = ["ChangeJournal"]


class ChangeJournal:
    """The session's snapshots and changes for time travel (``Session`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of Session (set in Session._init_run_state)
        values: dict[str, dict[str, Any]]
        errors: dict[str, NodeError]
        ledger: GradLedger
        ownership: Ownership
        generator: core.Generator
        step_count: int
        trained_revision: int
        _gen_state: core.Tensor | None
        _journal: dict[str, tuple[Any, ...]] | None
        _step_tensors: list[core.Tensor]
        _evaluated: str | None
        _freed: list[tuple[Any, Any]]
        _done: dict[str, None]
        _cursor: int
        _order: list[str] | None
        _index: tuple[list[str], dict[str, int]] | None
        _no_gradient: list[str]
        _opt: OptimizerSlot
        _bw: BackwardRun | None

        @property
        def order(self) -> list[str]: ...
        def abandon_backward(self) -> None: ...

    # ----- history's view of the session -----------------------------------------------------------
    def capture(self) -> dict[str, Any]:
        """The session's scalar fields after a step, for ``History`` (what changed per node: ``take_changes``)."""
        bw, gen = self._bw, self._gen_state
        if gen is None:  # only evaluating a node draws from the generator: a backward step reuses the last state
            gen = self._gen_state = self.generator.get_state()
        return {"gen": gen, "step_count": self.step_count, "no_gradient": self._no_gradient,
                "bw": None if bw is None else (bw.start_index, bw.done, bw.retain_graph), "opt": self._opt.saved,
                "cursor": (self._order, self._cursor)}

    def restore_copies(self, state: dict[str, Any]) -> Copies:
        """The copies ``restore(state)`` needs (the optimizer's state), made before time travel changes anything:
        MemoryError here leaves the session as it was."""
        return self._opt.copies_for(state["opt"])

    def restore(self, state: dict[str, Any], copies: Copies = None) -> None:
        """Put back a ``capture()``: generator, step count, optimizer state (``copies``: ``restore_copies(state)``,
        else made here). The per-node entries, the ledger and the tensors are put back by
        ``undo_changes``/``redo_changes`` (``History``'s part)."""
        self.abandon_backward()
        if state["step_count"] != self.step_count:
            self.trained_revision += 1  # the parameters are those of another step
        self.generator.set_state(state["gen"])
        self._gen_state = state["gen"]
        self.step_count, self._no_gradient = state["step_count"], state["no_gradient"]
        self._opt.restore_state(state["opt"], copies)
        order, cursor = state["cursor"]
        self._cursor = cursor if order is self._order else 0
        self.forget_changes()

    def take_changes(self) -> tuple[Any, ...]:
        """What changed since the last call: ``({node: (before, after)}, ledger changes, freed autograd nodes)``."""
        journal: dict[str, tuple[Any, ...]] = self._journal or {}
        self._journal = {}
        nodes = {nid: (old, self._node_entries(nid)) for nid, old in journal.items()}
        freed, self._freed = self._freed, []
        return nodes, self.ledger.take_changes(), tuple(freed)

    def forget_changes(self, keep: bool = True) -> None:
        """Start what ``take_changes`` reports afresh; ``keep`` False stops keeping changes (no history now)."""
        self._journal = {} if keep else None
        self._step_tensors, self._freed, self._evaluated = [], [], None
        self.ledger.forget_changes(keep)

    def step_tensors(self, phase: str, node: str | None = None) -> list[core.Tensor] | None:
        """The tensors a ``forward``/``backward`` step may have changed (its node's inputs, outputs, leaves; the
        leaf it accumulated into), or an ``error`` step that is the evaluation of ``node`` just run (``_run_keys``);
        None for any other step (every tracked tensor is checked). NOTE: an edit that cut a long chain re-ran the
        nodes after the cut, each an ``error`` step that checked every tensor of the session: quadratic (deleting
        a node in the middle of a 2,000-node chain took 50 s)."""
        found, self._step_tensors = self._step_tensors, []
        evaluated, self._evaluated = self._evaluated, None
        if phase in ("forward", "backward") or (phase == "error" and node is not None and node == evaluated):
            return found
        return None

    def undo_changes(self, changes: tuple[Any, ...]) -> None:
        """Undo a ``take_changes()`` (the session must be as those changes left it)."""
        nodes, ledger, freed = changes
        self._put_entries({nid: old for nid, (old, _) in nodes.items()})
        self.ledger.undo(ledger)
        for anode, saved in freed:
            set_saved_state(anode, saved)

    def redo_changes(self, changes: tuple[Any, ...]) -> None:
        """Apply a ``take_changes()`` again (the session must be as it was before them)."""
        nodes, ledger, freed = changes
        self._put_entries({nid: new for nid, (_, new) in nodes.items()})
        self.ledger.redo(ledger)
        for anode, _ in freed:
            set_saved_state(anode, None)

    def _touch(self, nid: str) -> None:
        """Keep node ``nid``'s entries as they were before this step changes them (when a history is kept)."""
        journal = self._journal
        if journal is not None and nid not in journal:
            journal[nid] = self._node_entries(nid)

    def _node_entries(self, nid: str) -> tuple[Any, ...]:
        """Everything the session keeps per node: value, error, done flag, autograd nodes it created (with what
        they saved), leaves it registered."""
        return (self.values.get(nid), self.errors.get(nid), nid in self._done, *self.ownership.entries(nid))

    def _put_entries(self, entries: dict[str, tuple[Any, ...]]) -> None:
        """Set each node's entries (``_node_entries``): every node's old ones go first, then the new ones come."""
        for nid in entries:
            self.ownership.forget(nid)
        for nid, (value, error, done, created, leaves) in entries.items():
            for d, v in ((self.values, value), (self.errors, error)):
                if v is None:
                    d.pop(nid, None)
                else:
                    d[nid] = v
            if done:
                self._done[nid] = None
            elif self._done.pop(nid, 0) is None:
                self._cursor = min(self._cursor, self._position(nid))
            self.ownership.put(nid, created, leaves)

    def _position(self, nid: str) -> int:
        """``nid``'s index in ``order`` (0 when it has none: ``next_node`` then scans from the start)."""
        index = self._index
        if index is None or index[0] is not self._order:
            index = self._index = (self.order, {n: i for i, n in enumerate(self.order)})
        return index[1].get(nid, 0)

    def tracked_tensors(self) -> list[core.Tensor]:
        """The tensors whose data or gradient a step may change: leaves and every port value."""
        seen = {id(t): t for t, _, _ in self.ownership.leaves.values()}
        for out in self.values.values():
            for t in out.values():
                if isinstance(t, core.Tensor):
                    seen.setdefault(id(t), t)
        return list(seen.values())
