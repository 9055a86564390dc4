"""How a session follows its document's edits: ``EditFollowing``, a part of ``Session``.

Every ``GraphEvent`` reaches ``_on_graph_event``. An edit first lets ``core.nodegraph.run.kept_states`` set aside
what it may make the session drop (or, undone or redone, give it back), and ``core.nodegraph.run.regrouping`` moves
the trained state of the nodes a collapse or expand moves into or out of a subgraph. A structural change (a node or
edge added or removed, a reset) or a parameter set then drops the values, errors and plans of the node it touched and
of everything downstream, and abandons an unfinished backward; a rename or recolour drops nothing unless a consumer's
error names the node. When the edited nodes had run in this pass and the session is at the head of its history,
the small ones run again at once (``auto_recompute``), each with its own event; a large one waits for the next step.
An undone delete counts as such an edit for the nodes it dropped after they had run (``run.returning``): the node
comes back with its edges and runs again, and its consumers after it, so the canvas shows what it showed before.

It is a mixin rather than a separate object because it drops the session's own per-run state (values, errors,
the done set, the journal of changes) as the evaluation route writes it. The members it uses of ``Session`` are
declared below for the type checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from core.nodegraph.model.budget import quick
from core.nodegraph.run.regrouping import carry

if TYPE_CHECKING:
    from collections.abc import Iterable

    from core.nodegraph.model.document import Graph, GraphEvent
    from core.nodegraph.model.events import NodeError, SessionEvent
    from core.nodegraph.run.evaluation import Plan
    from core.nodegraph.run.history import History
    from core.nodegraph.run.kept_states import KeptStates
    from core.nodegraph.run.lean import StaticOutputs
    from core.nodegraph.run.optimizer_slot import OptimizerSlot
    from core.nodegraph.run.ownership import Ownership
    from core.nodegraph.run.returning import Returning
    from core.nodegraph.training.trainer import Training

__all__ = ["EditFollowing"]

_STRUCTURAL = ("node_added", "node_removed", "edge_added", "edge_removed", "node_changed", "reset")
_LOOKS = ("title", "color")  # node attributes that change nothing a node computes (a rename re-ran its descendants)


class EditFollowing:
    """Dropping what an edit made stale and re-running what is quick (``Session`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of Session (set in Session.__init__ and _init_run_state)
        graph: Graph
        states: dict[str, dict[str, Any]]
        values: dict[str, dict[str, Any]]
        errors: dict[str, NodeError]
        ownership: Ownership
        history: History
        trainer: Training
        auto_recompute: bool
        trained_revision: int
        _done: dict[str, None]
        _cursor: int
        _order: list[str] | None
        _plans: dict[str, Plan]
        _static: StaticOutputs
        _kept: KeptStates
        _returning: Returning
        _opt: OptimizerSlot
        _trained_pending: dict[str, dict[str, Any]]
        _trained_restored: set[str]

        @property
        def order(self) -> list[str]: ...
        def abandon_backward(self) -> None: ...
        def _touch(self, nid: str) -> None: ...
        def _run_keys(self, nid: str) -> list[str]: ...
        def emit(self, phase: str, node: str | None = None, changed: Iterable[str] = (),
                 detail: dict[str, Any] | None = None, snapshot: bool = True) -> SessionEvent | None: ...

    def _on_graph_event(self, event: GraphEvent) -> None:
        if event.edit is not None and self._kept.note(event, self.states, self._trained_pending, self._opt):
            self.trained_revision += 1  # an undo or redo gave a node back its trained weights
        elif event.kind == "node_added" and carry(event, self.graph, self._kept, self.states, self._trained_pending,
                                                  self._trained_restored, self._opt):
            self.trained_revision += 1  # a collapse or expand moved trained weights into or out of a subgraph
        if event.kind == "node_changed" and event.detail in _LOOKS and event.node_id in self.graph.nodes and not any(
                e.dst in self.errors for e in self.graph.outputs_of(event.node_id)):
            return  # (a consumer's error names its input's node: it runs again, to say the new name)
        if event.kind in _STRUCTURAL:
            self._order = None
            self.abandon_backward()
            dirty = self._dirty_from(event)
        elif event.kind == "param_changed" and event.node_id is not None:
            self.abandon_backward()
            state = self.states.get(event.node_id)
            if event.detail == "name" and state and "tensor" in state:  # NOTE: a parameter node keeps its tensor
                # under a new name; renamed now, as its next run would (after a training step the pass is not done
                # and it waits: trained_values saved it under the old name, and the reopened file lost the values)
                state["name"] = self.graph.nodes[event.node_id].params["name"]
            dirty = {event.node_id} | self.graph.descendants(event.node_id)
        else:
            return
        self._static.clear()
        self.trainer.forget_plans()
        if event.kind in _STRUCTURAL:
            self._plans = {}
        for nid in dirty:
            self._plans.pop(nid, None)
        was_done = {n for n in dirty if n in self._done}
        gone = {event.node_id} if event.kind == "node_removed" and event.node_id in self._done else set()
        was_done |= self._returning.follow(event, was_done | gone, dirty)  # an undone delete's nodes run again
        for nid in dirty:
            if nid in self._done or nid in self.values or nid in self.errors:
                self._touch(nid)
                self._done.pop(nid, None)
                self.values.pop(nid, None)
                self.errors.pop(nid, None)
        self._cursor = 0
        if event.kind == "node_removed" and event.node_id is not None:  # what the session kept of it goes too (an
            # error of an undone Add stayed in ``errors``: a node no longer in the document showed as failing)
            removed = event.node_id
            self.states.pop(removed, None)
            self._touch(removed)
            self.values.pop(removed, None)
            self.errors.pop(removed, None)
            self._done.pop(removed, None)
            self.ownership.forget(removed)
        if self.auto_recompute and was_done and self.history.at_head:
            for nid in [n for n in self.order if n in was_done]:
                if not self._inputs_done(nid) or not self._quick(nid):  # a large one waits for the next step
                    continue
                changed = self._run_keys(nid)
                self.emit("error" if nid in self.errors else "forward", nid, changed, {"recompute": True})

    def _quick(self, nid: str) -> bool:
        """Whether ``nid`` is small enough to re-run on an edit (``core.nodegraph.model.budget.quick``)."""
        node = self.graph.nodes[nid]
        inputs = {port: self.values.get(e.src, {}).get(e.src_port) for port, e in self.graph.inputs_of(nid).items()}
        return quick(node.type, inputs, node.params)

    def _inputs_done(self, nid: str) -> bool:
        return all(e.src in self._done for e in self.graph.inputs_of(nid).values())

    def _dirty_from(self, event: GraphEvent) -> set[str]:
        nid = event.node_id or (event.edge.dst if event.edge is not None else None)
        if nid is None or nid not in self.graph.nodes:
            return set(self._done) if event.kind == "reset" else set()
        return {nid} | self.graph.descendants(nid)
