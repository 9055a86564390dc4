"""What a session saves with its document and takes back from a file: ``SavedTraining``, a part of ``Session``.

A file's ``trained`` section (``core.nodegraph.files.io``) holds each node's trained parameter values
(``core.nodegraph.run.trained``) and, under ``"@session"``, where training stood (``core.nodegraph.run.training_state``:
step count, generator, optimizer state, running statistics, the plotted runs, the watch list's points).
``trained_values`` gives what a save writes: the state the session's next step starts from, so a reopened file
trains on as the live session would (a node whose parameters were set since it last ran, ``stale_parameters``, is built
anew by both). A new session takes a file's position back at once (``_resume``) and each node's values when the
node first builds its parameters (``_restore_trained``, ``_restore_buffers``, called by the evaluation route).

It is a mixin rather than a separate object because it reads and writes the session's own state (its node states,
values, step count, the values still waiting for their nodes) as the evaluation route does. The members it uses of
``Session`` are declared below for the type checker.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import core
from core.nodegraph.files.schema import SESSION_KEY
from core.nodegraph.run import trained as _trained
from core.nodegraph.run import training_state as _position

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from core.nodegraph.run.optimizer_slot import OptimizerSlot
    from core.nodegraph.training.runs import RunHistory
    from core.nodegraph.training.watch import WatchList

__all__ = ["SavedTraining"]


class SavedTraining:
    """The trained values and training position between a session and its file (``Session`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of Session (set in Session.__init__ and _init_run_state)
        graph: Graph
        states: dict[str, dict[str, Any]]
        values: dict[str, dict[str, Any]]
        generator: core.Generator
        step_count: int
        run_history: RunHistory
        watch_list: WatchList | None
        _opt: OptimizerSlot
        _trained_pending: dict[str, dict[str, Any]]
        _trained_restored: set[str]
        _buffers_pending: dict[str, dict[str, Any]]

        @property
        def order(self) -> list[str]: ...
        def node_parameters(self, nid: str) -> dict[str, Any]: ...
        def parameters(self) -> dict[str, Any]: ...

    def trained_values(self) -> dict[str, dict[str, Any]]:
        """The parameter values to save with the document (``files.io.save``'s ``trained``): each node's current
        ones once the optimizer stepped or when they came from the file, and the file's own for the nodes not
        evaluated yet, and under ``"@session"`` where training stood (``training_position``). Empty for a graph
        that never trained: its file holds only the recipe."""
        out = {nid: v for nid, v in self._trained_pending.items() if nid in self.graph.nodes}
        stale = self.stale_parameters()
        for nid in self.order:
            if self.step_count or nid in self._trained_restored:
                # a tensor whose next run builds it anew: the saved file does not give it the old weights
                params = {name: t for name, t in self.node_parameters(nid).items() if f"{nid}.{name}" not in stale}
                if params:
                    out[nid] = _trained.values_of(params)
        position = self.training_position() if SESSION_KEY not in self.graph.nodes else {}
        if position:
            out[SESSION_KEY] = position
        return out

    def training_position(self) -> dict[str, Any]:
        """Where training stands, to save beside the parameter values (``core.nodegraph.run.training_state``):
        ``{"step", "generator", "optimizer", "buffers", "history", "watch"}`` (``history``: ``run_history``'s runs,
        what the plots drew; ``watch``: the attached watch list's points); empty before the first step, only
        ``history`` after a reset that left runs drawn."""
        history = self.run_history.state()
        watch = self.watch_list.state() if self.watch_list is not None else {}
        if not self.step_count:  # after a reset: the runs still drawn, nothing else
            return {"history": history} if history["runs"] else {}
        out: dict[str, Any] = {"step": self.step_count,
                               "generator": _position.array_of(self.generator.get_state())}
        if history["runs"]:
            out["history"] = history
        if watch:
            out["watch"] = watch
        opt = self._opt.file_state(self.parameters(), self.graph.training, self.stale_parameters())
        if opt is not None:
            out["optimizer"] = opt
        buffers: dict[str, dict[str, Any]] = dict(self._buffers_pending)
        for nid, port in _position.running_stat_sources(self.graph):
            t = self.values.get(nid, {}).get(port)
            if isinstance(t, core.Tensor):
                buffers.setdefault(nid, {})[port] = _position.array_of(t)
        if buffers:
            out["buffers"] = buffers
        return out

    def stale_parameters(self) -> set[str]:
        """The parameters (``"node.name"``, as ``parameters()`` names them) built for other parameters than their
        node's now (a layer's seed or size set since it last ran, also inside a subgraph): their next run builds
        them anew (``NodeSpec.build_key``), so what a save writes leaves their old values and optimizer state out,
        as the live session drops them."""
        from core.nodegraph.model.nodes import stale_parameters  # registers every node type on first use

        out: set[str] = set()
        for nid, state in self.states.items():
            node = self.graph.nodes.get(nid)
            if node is not None and state:
                out.update(f"{nid}.{name}" for name in stale_parameters(node.type, node.params, node.graph, state))
        return out

    def _resume(self, saved: dict[str, Any]) -> None:
        """Start where a file's training stood (``training_position``): step count, generator, the optimizer's
        state for when it is built, the running statistics for when their nodes first run."""
        self.step_count = int(saved.get("step") or 0)
        gen = saved.get("generator")
        if gen is not None:
            try:
                self.generator.set_state(_position.tensor_like(gen))
            except (RuntimeError, ValueError, TypeError):  # another generator's state: the seed's stays
                pass
        self._opt.pending = saved.get("optimizer")
        self._buffers_pending = {nid: dict(ports) for nid, ports in (saved.get("buffers") or {}).items()
                                 if nid in self.graph.nodes}
        self.run_history.restore(saved.get("history"))

    def _restore_buffers(self, nid: str, out: dict[str, Any]) -> None:
        """Put a file's running statistics into node ``nid``'s fresh outputs, in place (a batch norm updates them)."""
        with core.no_grad():
            for port, arr in self._buffers_pending.pop(nid).items():
                t = out.get(port)
                if isinstance(t, core.Tensor) and tuple(t.shape) == tuple(arr.shape):
                    t.copy_(_position.tensor_like(arr, t).to(t.dtype))

    def _restore_trained(self, nid: str) -> bool:
        """Put the file's trained values into node ``nid``'s parameters (after its first evaluation made them)."""
        self._trained_restored.add(nid)
        return _trained.restore(self.node_parameters(nid), self._trained_pending.pop(nid))
