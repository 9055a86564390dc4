"""Backward, one autograd node at a time, in a session: ``BackwardStepping``, a part of ``Session``.

A backward call starts at the loss node (``loss_node``; the forward runs up to it first if needed) and runs
``core.autograd.backward_steps`` one step per ``backward_step``. Each step is mapped back to the graph node whose
evaluation created its autograd node (``Session.ownership``), hands the gradient paths on (``BackwardRun``), adds
what reached a leaf to the gradient ledger and emits a ``backward`` event. PyTorch's errors (a second backward
through a freed graph, a loss that is no tensor) go on the loss node as ``NodeError`` records, never raised.

It is a mixin rather than a separate object because each step writes the session's own per-run state (errors,
the journal of changes that time travel reads) and ``History`` replays a half-run call through
``backward_step``. The members it uses of ``Session`` are declared below for the type checker.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

import core
from core.autograd import BackwardStep, backward_steps
from core.autograd.graph import array_of, grad_accumulator
from core.nodegraph.model.events import NodeError
from core.nodegraph.model.gc_pause import gc_paused
from core.nodegraph.run.backward_run import BackwardRun

if TYPE_CHECKING:
    from core.nodegraph.explain.chain_rule import ChainLog
    from core.nodegraph.model.document import Graph
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.run.history import History
    from core.nodegraph.run.ledger import GradLedger
    from core.nodegraph.run.ownership import Ownership

__all__ = ["BackwardStepping", "PROBE_TYPE"]

PROBE_TYPE = "probe.gradient"


class BackwardStepping:
    """Stepping the backward call of the session's loss (``Session`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of Session (set in Session.__init__ and _init_run_state)
        graph: Graph
        history: History
        values: dict[str, dict[str, Any]]
        errors: dict[str, NodeError]
        ledger: GradLedger
        chain_log: ChainLog
        ownership: Ownership
        _bw: BackwardRun | None
        _done: dict[str, None]
        _journal: dict[str, tuple[Any, ...]] | None
        _step_tensors: list[core.Tensor]
        _freed: list[tuple[Any, Any]]
        _no_gradient: list[str]

        @property
        def order(self) -> list[str]: ...
        def forward(self, until: str | None = None) -> None: ...
        def emit(self, phase: str, node: str | None = None, changed: Iterable[str] = (),
                 detail: dict[str, Any] | None = None, snapshot: bool = True) -> SessionEvent | None: ...
        def run_node(self, nid: str, *, lean: bool = False, reuse: bool = False) -> dict[str, Any] | None: ...
        def value(self, nid: str, port: str = "out") -> Any: ...  # with saved_backup: what ChainLog.record reads
        def saved_backup(self, autograd_node: Any) -> Any: ...
        def leaves(self) -> dict[str, core.Tensor]: ...
        def leaf_key(self, tensor: core.Tensor) -> str | None: ...
        def tracked_tensors(self) -> list[core.Tensor]: ...
        def _touch(self, nid: str) -> None: ...

    def loss_node(self) -> str | None:
        """``graph.training["loss"]``, else the last node in topological order."""
        loss = self.graph.training.get("loss")
        if loss in self.graph.nodes:
            return loss
        return self.order[-1] if self.order else None

    def backward_step(self, retain_graph: bool = False, create_graph: bool = False) -> str | None:
        """Run one autograd node; returns the graph node it belongs to (None when nothing ran).

        The first step of a backward call runs the forward up to the loss if needed; ``retain_graph``
        and ``create_graph`` (record the backward itself, so gradients can be differentiated again)
        apply to the call that the first step starts.
        """
        self.history.ensure_head(backward=True)
        if self._bw is None and not self._start_backward(retain_graph, create_graph):
            return None
        bw = self._bw
        if bw is None:  # _start_backward made one
            return None
        try:
            step = next(bw.steps)
        except StopIteration:
            self._finish_backward()
            return None
        except Exception as exc:  # PyTorch's error goes on the loss node
            self._backward_error(bw, exc)
            return None
        return self._record_step(bw, step)

    def backward(self, until: str | None = None, retain_graph: bool = False, create_graph: bool = False) -> None:
        """Run backward to the end, or until a step of graph node ``until`` ran."""
        with gc_paused():  # what the steps record stays alive: no collection walks it meanwhile (gc_pause)
            if self._bw is None and not self._start_backward(retain_graph, create_graph):
                return
            while self._bw is not None:
                nid = self.backward_step()
                if until is not None and nid == until:
                    return

    @property
    def backward_in_progress(self) -> bool:
        return self._bw is not None

    def _start_backward(self, retain_graph: bool, create_graph: bool = False) -> bool:
        loss = self.loss_node()
        if loss is None:
            return False
        if loss not in self._done:
            self.forward(until=loss)
        self._touch(loss)
        if loss in self.errors and self.errors[loss].phase == "backward":
            del self.errors[loss]
        value = self._loss_tensor(loss)
        if value is None:
            return False
        call = self.ledger.begin_backward()
        self.chain_log.begin(call)
        try:
            steps = backward_steps(value, retain_graph=retain_graph or create_graph, create_graph=create_graph)
        except Exception as exc:
            self.ledger.backward_calls -= 1
            self.errors[loss] = NodeError.from_exception("backward", exc)
            self.emit("error", loss, (), {"error": self.errors[loss]})
            return False
        root = value.grad_fn if value.grad_fn is not None else grad_accumulator(value)
        self._bw = BackwardRun(steps, call, loss, retain_graph, root, self.history.position)
        return True

    def _loss_tensor(self, loss: str) -> core.Tensor | None:
        out = self.values.get(loss)
        if not out:
            return None
        port, value = next(iter(out.items()))
        if not isinstance(value, core.Tensor):
            self._touch(loss)
            start = "the Train tab's Loss node" if self.graph.training.get("loss") == loss else "the last node"
            self.errors[loss] = NodeError("backward", "TypeError",
                                          f"backward starts from {start}, and its output {port!r} is a "
                                          f"{type(value).__name__}, not a tensor: choose a node that outputs a "
                                          "tensor as Loss node in the Train tab")
            self.emit("error", loss, (), {"error": self.errors[loss]})
            return None
        return value

    def _record_step(self, bw: BackwardRun, step: BackwardStep) -> str | None:
        """Map one engine step of ``bw`` to its graph node, follow the gradient paths, fill the ledger, emit."""
        bw.done += 1
        anode = step.node
        nid = self.ownership.owner.get(anode)
        if self._journal is not None:
            self._note_step(step, nid)
        sent_by = bw.sent_by(step)
        paths = bw.follow(step, self.ownership.owner, nid)
        self.chain_log.record(self, step, bw.call, nid)
        changed: list[str] = []
        detail: dict[str, Any] = {"autograd_node": type(anode).__name__, "backward_call": bw.call}
        if bw.done == 1:
            detail["starts"] = True  # the first step of a backward call (after a finished one: a new pass)
        leaf = step.accumulated
        if leaf is not None and step.grad_outputs and step.grad_outputs[0] is not None:
            key = self.leaf_key(leaf) or f"{nid}.?"
            self.ledger.add(key, array_of(step.grad_outputs[0]), array_of(leaf.grad), paths, leaf)
            changed.append(key)
            detail["accumulated"] = key
            detail["sent_by"] = sent_by  # the autograd nodes that fed this AccumulateGrad
        changed.extend(self._retained_outputs(nid))
        if bw.done >= bw.total:
            self._finish_backward(emit=False)
            detail.update(done=True, no_gradient=list(self._no_gradient))
        self.emit("backward", nid, changed, detail)
        return nid

    def _note_step(self, step: BackwardStep, nid: str | None) -> None:
        """What a backward step changed: the saved tensors it freed, the leaf it accumulated into, the node's
        outputs (a retained ``.grad``)."""
        anode = step.node
        saved = self.ownership.saved.get(anode)
        if anode.is_released and saved is not None:
            self._freed.append((anode, saved))
        found = self._step_tensors
        if step.accumulated is not None:
            found.append(step.accumulated)
        if nid is None:  # an autograd node nobody recorded: look at everything
            found.extend(self.tracked_tensors())
        else:
            found.extend(t for t in (self.values.get(nid) or {}).values() if isinstance(t, core.Tensor))

    def _retained_outputs(self, nid: str | None) -> list[str]:
        out = self.values.get(nid) or {} if nid is not None else {}
        return [f"{nid}.{p}" for p, t in out.items()
                if isinstance(t, core.Tensor) and t.grad_fn is not None and t.retains_grad and t.grad is not None]

    def _finish_backward(self, emit: bool = True) -> None:
        bw = self._bw
        if bw is None:
            return
        self._bw = None
        self._refresh_probes()
        self._no_gradient = [k for k, t in self.leaves().items() if t.grad is None]
        if emit:
            self.emit("backward", bw.loss, (), {"done": True, "backward_call": bw.call,
                                                 "no_gradient": list(self._no_gradient)})

    def _refresh_probes(self) -> None:
        """Gradient probes show ``.grad``: re-evaluate them once a backward has finished."""
        nodes, done = self.graph.nodes, self._done
        for nid in self.order:
            if nid in done and nodes[nid].type == PROBE_TYPE:
                self.run_node(nid)

    def _backward_error(self, bw: BackwardRun, exc: Exception) -> None:
        self.abandon_backward()
        origin = bw.released_origin(self.ownership.owner)
        self._touch(bw.loss)
        self.errors[bw.loss] = NodeError.from_exception("backward", exc, origin[0], origin[1])
        self.emit("error", bw.loss, (), {"error": self.errors[bw.loss], "backward_call": bw.call})

    def abandon_backward(self) -> None:
        """Drop a backward call in progress (its remaining steps do not run)."""
        if self._bw is not None:
            self._bw.steps.close()
            self._bw = None

    def no_gradient_parameters(self) -> list[str]:
        """Leaves (parameters, grad-enabled sources) the last finished backward left without a gradient."""
        return list(self._no_gradient)

    def note_no_gradient(self, keys: Iterable[str]) -> None:
        """Record which leaves a backward run outside the stepping (a training step) left without a gradient."""
        self._no_gradient = list(keys)
