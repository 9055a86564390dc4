"""A session runs a graph document: forward and backward one step at a time, with time travel.

The session keeps what the document does not: computed values per node and port, the nodes'
persistent state (layer modules, parameters), errors attached to nodes, a gradient ledger and a
bounded history of snapshots. Forward evaluates one graph node per step in topological order.
Backward runs ``core.autograd.backward_steps`` one autograd node per step; every autograd node is
mapped back to the graph node whose evaluation created it (recorded after each forward step by
walking from the node's outputs' ``grad_fn`` back to nodes owned by earlier graph nodes). Errors
never escape: they become ``NodeError`` records on the node (a backward error on the loss node).

The session is composed, not mixed: ``history`` (``core.nodegraph.run.history.History``, time travel),
``trainer`` (``core.nodegraph.training.trainer.Training``, the ``train`` loop) and ``inspector``
(``core.nodegraph.run.inspection.PortInspector``, port facts) are separate objects that hold the session and use
only its public methods. One route evaluates a node: ``run_node`` (its ``lean`` and ``reuse`` options are
what a training step uses, ``core.nodegraph.run.lean``).
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from operator import is_
from typing import Any

import core
from core.autograd import BackwardStep, backward_steps
from core.autograd.graph import array_of, grad_accumulator, grad_of, set_saved_state
from core.nodegraph.explain.chain_rule import ChainLog
from core.nodegraph.model.budget import BudgetError, check, quick
from core.nodegraph.model.document import Edge, Graph, GraphEvent
from core.nodegraph.model.evaluate import NodeError as EvalError
from core.nodegraph.model.evaluate import Values, evaluate_node, input_ports
from core.nodegraph.model.events import NodeError, SessionEvent
from core.nodegraph.model.gc_pause import gc_paused
from core.nodegraph.model.spec import EvalContext
from core.nodegraph.run import lean as _lean
from core.nodegraph.run.backward_run import BackwardRun
from core.nodegraph.run.device_move import move_session
from core.nodegraph.run.history import History
from core.nodegraph.run.inspection import PortInspector
from core.nodegraph.run.ledger import GradLedger
from core.nodegraph.run.optimizer_slot import OptimizerSlot
from core.nodegraph.run.ownership import Ownership
from core.nodegraph.run.step_owners import StepMarks, mark
from core.nodegraph.training.trainer import Training

__all__ = ["Session"]

Listener = Callable[[SessionEvent], None]
Plan = tuple[EvalContext, dict[str, Edge], list[Any]]  # a node's context, input edges and checked parameters

PROBE_TYPE = "probe.gradient"
_STRUCTURAL = ("node_added", "node_removed", "edge_added", "edge_removed", "node_changed", "reset")


class Session:
    """Runs ``graph`` on ``device``; ``seed`` seeds the generator random nodes draw from."""

    def __init__(self, graph: Graph, device: str = "cpu", seed: int = 0, history_limit: int = 100) -> None:
        self.graph = graph
        self.device = device
        self.seed = seed
        self.training = True
        self.auto_recompute = True
        self.retain_grad_nodes: set[str] = set()  # node ids (or "*") whose non-leaf outputs keep .grad
        self.history = History(self, history_limit)
        self.trainer = Training(self)
        self.inspector = PortInspector(self)
        self._subscribers: list[Listener] = []
        self._event_count = 0
        self.states: dict[str, dict[str, Any]] = {}
        self._params = _lean.ParameterCache()  # per node: its trainable tensors (node_parameters)
        self._plans: dict[str, Plan] = {}  # per node: its context and input edges (see _plan)
        self._lean: dict[str, tuple[Any, ...] | None] = {}  # per node: its lean plan (run.lean.lean_plan)
        self._index: tuple[list[str], dict[str, int]] | None = None  # (order, {node: index}) for _position
        self._static = _lean.StaticOutputs()  # outputs of static nodes reused across training steps
        self._init_run_state()
        graph.subscribe(self._on_graph_event)
        self.history.record(("reset", None))

    def _init_run_state(self) -> None:
        self.generator = core.Generator().manual_seed(self.seed)
        self._gen_state: core.Tensor | None = None  # the generator's at the last capture; None once a node ran
        self.values: dict[str, dict[str, Any]] = {}
        self.errors: dict[str, NodeError] = {}
        self._store = Values(self.device, self.seed)  # evaluate_node's output holder; outputs is self.values
        self.ledger = GradLedger()
        self.chain_log = ChainLog()  # what each stepped backward call sent where (core.nodegraph.explain.chain_rule)
        self.step_count = 0
        self._done: dict[str, None] = {}  # the nodes evaluated in this pass, in the order they ran (an ordered set)
        self._cursor = 0  # every node before it in ``order`` is done (next_node starts there)
        self._journal: dict[str, tuple[Any, ...]] | None = None  # per node touched since the last snapshot: its
        # entries before (see _touch)
        self._step_tensors: list[core.Tensor] = []  # the tensors the steps since the last snapshot may have changed
        self._freed: list[tuple[Any, Any]] = []  # (autograd node, what it saved) freed since the last snapshot
        self._order: list[str] | None = None
        self.ownership = Ownership()  # which node made which autograd node and leaf (core.nodegraph.run.ownership)
        self._bw: BackwardRun | None = None
        self._trace = True
        self._opt = OptimizerSlot()  # the optimizer, its schedule and its state kept for time travel
        self._static.clear()
        self._no_gradient: list[str] = []

    def close(self) -> None:
        """Stop listening to the document."""
        self.graph.unsubscribe(self._on_graph_event)

    # ----- events -------------------------------------------------------------------------------
    def subscribe(self, listener: Listener) -> None:
        """``listener(SessionEvent)`` is called after every step."""
        self._subscribers.append(listener)

    def unsubscribe(self, listener: Listener) -> None:
        if listener in self._subscribers:
            self._subscribers.remove(listener)

    @property
    def listeners(self) -> tuple[Listener, ...]:
        """The subscribed listeners, in the order they are called."""
        return tuple(self._subscribers)

    @property
    def event_count(self) -> int:
        """How many step events the session has emitted (what was computed from its values is stale when it grew)."""
        return self._event_count

    def emit(self, phase: str, node: str | None = None, changed: Iterable[str] = (),
             detail: dict[str, Any] | None = None, snapshot: bool = True) -> SessionEvent | None:
        """Tell the listeners that a step ``phase`` of ``node`` changed the ``"node.port"`` keys ``changed``; with
        ``snapshot`` the history records the state first. Without listeners nor snapshot no event is built."""
        self._event_count += 1  # invalidates what was computed from the values (the inspector's storage map)
        if not snapshot and not self._subscribers:
            return None
        index = self.history.record((phase, node)) if snapshot else -1
        event = SessionEvent(phase, node, tuple(changed), detail or {}, index)
        self.notify(event)
        return event

    def notify(self, event: SessionEvent) -> None:
        """Call every listener with ``event``."""
        for listener in list(self._subscribers):
            listener(event)

    # ----- history's view of the session -----------------------------------------------------------
    def capture(self) -> dict[str, Any]:
        """The session's scalar fields after a step, for ``History`` (what changed per node: ``take_changes``)."""
        bw, gen = self._bw, self._gen_state
        if gen is None:  # only evaluating a node draws from the generator: a backward step reuses the last state
            gen = self._gen_state = self.generator.get_state()
        return {"gen": gen, "step_count": self.step_count, "no_gradient": self._no_gradient,
                "bw": None if bw is None else (bw.start_index, bw.done, bw.retain_graph), "opt": self._opt.saved,
                "cursor": (self._order, self._cursor)}

    def restore(self, state: dict[str, Any]) -> None:
        """Put back a ``capture()``: generator, step count, optimizer state. The per-node entries, the ledger and
        the tensors are put back by ``undo_changes``/``redo_changes`` (``History``'s part)."""
        self.abandon_backward()
        self.generator.set_state(state["gen"])
        self._gen_state = state["gen"]
        self.step_count, self._no_gradient = state["step_count"], state["no_gradient"]
        self._opt.restore_state(state["opt"])
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
        self._step_tensors, self._freed = [], []
        self.ledger.forget_changes(keep)

    def step_tensors(self, phase: str) -> list[core.Tensor] | None:
        """The tensors a ``forward``/``backward`` step may have changed (its node's inputs, outputs, leaves; the
        leaf it accumulated into); None for any other step (every tracked tensor is checked)."""
        found, self._step_tensors = self._step_tensors, []
        return found if phase in ("forward", "backward") else None

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

    # ----- forward --------------------------------------------------------------------------------
    @property
    def order(self) -> list[str]:
        """The graph's topological order, kept until the structure changes."""
        if self._order is None:
            self._order = self.graph.topological_order()
        return self._order

    @property
    def next_node(self) -> str | None:
        """The node ``forward_step`` evaluates next (None when the pass is complete)."""
        order, done, i = self.order, self._done, self._cursor
        while i < len(order) and order[i] in done:
            i += 1
        self._cursor = i
        return order[i] if i < len(order) else None

    @property
    def forward_complete(self) -> bool:
        return self.next_node is None

    def forward_step(self) -> str | None:
        """Evaluate the next node in topological order; a complete pass starts a new one. Returns its id."""
        self.history.ensure_head()
        if self.forward_complete:
            self.new_pass()
        nid = self.next_node
        if nid is None:
            return None
        changed = self._run_keys(nid)
        error = self.errors.get(nid)
        self.emit("error" if error else "forward", nid, changed, {"error": error} if error else {})
        return nid

    def forward(self, until: str | None = None) -> None:
        """Evaluate the rest of the pass, or up to and including ``until``."""
        if until is not None:
            self.graph.node(until)
        if self.forward_complete:
            self.history.ensure_head()
            self.new_pass()
        with gc_paused():  # the pass's objects all stay alive: no collection walks them meanwhile (gc_pause)
            while not self.forward_complete:
                nid = self.forward_step()
                if nid == until:
                    return

    def run_forward(self) -> None:
        """Evaluate every node once in order, as a training step does: lean, reusing static outputs, without
        events or snapshots. Autograd nodes are attributed afterwards from creation marks (``owner_of``)."""
        trace, self._trace = self._trace, False
        reusable, order, marks = self._static.flags, self.order, []
        try:
            for nid in order:
                marks.append(mark())  # who made which autograd node, for the autograd view (step_owners)
                if reusable.get(nid) is False:  # run_node(nid, lean=True) without the reuse check it would skip
                    self._evaluate_lean(nid)
                else:
                    self.run_node(nid, lean=True, reuse=True)
        finally:
            self._trace = trace
            marks.append(mark())
            self.ownership.step_marks = StepMarks(order, marks)

    def new_pass(self) -> None:
        """Start a new forward pass: every value is recomputed; an unfinished backward is dropped."""
        for nid in (*self._done, *self.errors):
            self._touch(nid)
        self._done, self._cursor = {}, 0
        self.abandon_backward()
        self.errors.clear()

    def _run_keys(self, nid: str) -> list[str]:
        """Evaluate one node (``run_node``); the ``"node.port"`` keys it changed."""
        return [f"{nid}.{p}" for p in (self.run_node(nid) or ())]

    # ----- the one route that evaluates a node -------------------------------------------------------
    def run_node(self, nid: str, *, lean: bool = False, reuse: bool = False) -> dict[str, Any] | None:
        """Evaluate node ``nid``: store its outputs (or its error, a ``NodeError`` on the node), register the
        leaves it made or owns, record the autograd nodes it created. Returns its outputs, None on error.

        ``lean`` (a training step) calls the spec from the node's lean plan, skipping the checks that gave the
        same answer last step; anything unusual takes the full route, so errors read the same. ``reuse`` keeps
        the outputs of a static node when its inputs are the very objects of last step and were not changed in
        place (``core.nodegraph.run.lean.StaticOutputs``).
        """
        static = self._static
        if not reuse or not (static.flags.get(nid) or static.reusable(self.graph, nid)):
            return self._evaluate_lean(nid) if lean else self._evaluate(nid)
        values = self.values
        ins = self._plans[nid][1] if nid in self._plans else self.graph.inputs_of(nid)
        inputs = [values.get(e.src, {}).get(e.src_port) for e in ins.values()]
        out = static.lookup(nid, inputs)
        if out is not None:
            self._touch(nid)
            values[nid] = out
            self._done[nid] = None
            return out
        out = self._evaluate_lean(nid) if lean else self._evaluate(nid)
        static.keep(nid, inputs, out)
        return out

    def _evaluate(self, nid: str) -> dict[str, Any] | None:
        """The full route: ``evaluate.evaluate_node`` with the node's plan, then the session's bookkeeping."""
        self._touch(nid)
        self._gen_state = None
        self.ownership.forget(nid)
        self.errors.pop(nid, None)
        ctx, incoming, checked = self._plans.get(nid) or self._plan(nid)
        ctx.device, ctx.training, ctx.generator, ctx.step = self.device, self.training, self.generator, self.step_count
        store = self._store
        store.outputs = self.values
        store.errors = {k: EvalError(k, e.message, e.type) for k, e in self.errors.items()
                        if e.phase == "forward"} if self.errors else {}  # (evaluate_node skips the nodes they feed)
        params = self._checked_params(nid, checked)
        if evaluate_node(self.graph, nid, store, ctx, incoming, params=params,
                         ports=None if params is None else checked[2]):
            out = self.values[nid]
            self._retain_grads(nid, out)
            self.ownership.register_leaves(nid, self._found_leaves(nid, out))
            if self._trace:
                self.ownership.record(nid, out, self._touch)
        else:
            err = store.errors[nid]
            self.errors[nid] = NodeError("forward", err.type, err.message)
            out = None
        self._done[nid] = None
        if self._journal is not None:
            self._note_tensors(nid, incoming, out)
        return out

    def _note_tensors(self, nid: str, incoming: dict[str, Edge], out: dict[str, Any] | None) -> None:
        """The tensors evaluating ``nid`` may have changed: its inputs (in-place ops), outputs and leaves."""
        found = self._step_tensors
        values = self.values
        for e in incoming.values():
            t = values.get(e.src, {}).get(e.src_port)
            if isinstance(t, core.Tensor):
                found.append(t)
        found.extend(t for t in (out or {}).values() if isinstance(t, core.Tensor))
        found.extend(self.ownership.leaf_tensors(nid))

    def _evaluate_lean(self, nid: str) -> dict[str, Any] | None:
        """The route with the checks planned away (``core.nodegraph.run.lean``); the full one when anything is unusual:
        no plan yet, ownership being traced, an error in this pass, a history kept, autograd recorded by stepping."""
        plan = self._plans.get(nid)
        if plan is None or self._trace or self.errors or self._journal is not None or nid in self.ownership.created:
            return self._evaluate(nid)
        node = self.graph.nodes[nid]
        raw, lean = node.params, self._lean.get(nid)
        # the lean plan holds while the session plan, the spec and the parameter values are the same objects
        if (lean is None or lean[_lean.PLAN] is not plan or lean[_lean.SPEC] is not node.spec
                or lean[_lean.KEYS] != tuple(raw) or not all(map(is_, lean[_lean.VALUES], raw.values()))):
            lean = self._lean[nid] = _lean.lean_plan(node, plan, self._checked_params(nid, plan[2]))
            if lean is None:
                return self._evaluate(nid)
        values = self.values
        try:
            inputs = {name: values[src][port] for name, src, port in lean[_lean.SOURCES]}
        except KeyError:  # an input without a value: the full route reports it
            return self._evaluate(nid)
        try:
            check(lean[_lean.SPEC], inputs, lean[_lean.PARAMS])  # the memory and FLOP budgets, as on the full route
        except BudgetError:  # the full route refuses it with the message that names the node
            return self._evaluate(nid)
        ctx = plan[0]
        ctx.device, ctx.training, ctx.generator, ctx.step, ctx.node = (self.device, self.training, self.generator,
                                                                       self.step_count, node)
        values.pop(nid, None)
        out, self._gen_state = None, None
        try:
            result = lean[_lean.EVALUATE](ctx, inputs, lean[_lean.PARAMS])
        except Exception as exc:  # attached to the node as evaluate_node does
            self.errors[nid] = NodeError("forward", type(exc).__name__, str(exc) or type(exc).__name__)
        else:
            out = values[nid] = result if type(result) is dict else _lean.lean_outputs(lean[_lean.OUTPUTS], result)
            if self.retain_grad_nodes:
                self._retain_grads(nid, out)
            self.ownership.keep_leaves(nid, self._found_leaves(nid, out))
        self._done[nid] = None
        return out

    def _plan(self, nid: str) -> Plan:
        """The node's EvalContext (kept: its state and the session's generator), its input edges and a slot
        for its validated parameters (``_checked_params``)."""
        ctx = EvalContext(nid, self.device, self.training, self.generator, self.states.setdefault(nid, {}),
                          seed=self.seed)
        plan = self._plans[nid] = (ctx, self.graph.inputs_of(nid), [None, None, None])
        return plan

    def _checked_params(self, nid: str, checked: list[Any]) -> dict[str, Any] | None:
        """The node's validated parameters (and in ``checked[2]`` its input ports), validated again only when a
        value was replaced (None when they are invalid or the node has no spec: ``evaluate_node`` then validates
        and reports the error)."""
        node = self.graph.nodes[nid]
        raw, spec = node.params, node.spec
        seen = checked[0]
        if seen is not None and seen[0] is spec and seen[1] == tuple(raw) and all(map(is_, seen[2], raw.values())):
            return checked[1]
        checked[0] = checked[1] = None
        if spec is None or node.graph is not None:
            return None
        try:
            checked[1] = spec.validate_params(raw)
        except Exception:  # evaluate_node validates again and attaches the error to the node
            return None
        checked[0], checked[2] = (spec, tuple(raw), tuple(raw.values())), input_ports(node)
        return checked[1]

    # ----- leaves and autograd ownership (core.nodegraph.run.ownership) ------------------------------
    def _retain_grads(self, nid: str, out: dict[str, Any]) -> None:
        """``retain_grad()`` on the node's non-leaf outputs when ``retain_grad_nodes`` names it (or ``"*"``)."""
        if nid in self.retain_grad_nodes or "*" in self.retain_grad_nodes:
            for t in out.values():
                if isinstance(t, core.Tensor) and t.requires_grad and t.grad_fn is not None:
                    t.retain_grad()

    def _found_leaves(self, nid: str, out: dict[str, Any]) -> list[tuple[str, core.Tensor]]:
        """The leaves requiring grad that the node output (by port) or owns (by parameter name)."""
        found = [(port, t) for port, t in out.items()
                 if isinstance(t, core.Tensor) and t.requires_grad and t.grad_fn is None]
        params = self.node_parameters(nid)
        if params:
            found += params.items()
        return found

    def owner_of(self, autograd_node: Any) -> str | None:
        """The graph node whose evaluation created ``autograd_node`` (in a stepped pass or the last training step)."""
        return self.ownership.owner_of(autograd_node)

    def autograd_origin(self, autograd_node: Any) -> str:
        """``"forward"`` when a stepped forward recorded ``autograd_node``, ``"train"`` when the last training step
        made it (its owner then comes from the step's creation marks)."""
        return self.ownership.origin(autograd_node)

    def saved_backup(self, autograd_node: Any) -> Any:
        """What ``autograd_node`` saved for backward, as the session kept it (``core.autograd.graph.saved_state``)
        so that it can be shown, and put back by time travel, after a backward freed it; None if not kept."""
        return self.ownership.saved.get(autograd_node)

    def autograd_nodes(self, nid: str) -> list[Any]:
        """The autograd nodes (``grad_fn`` objects, AccumulateGrad of owned leaves) a graph node created."""
        return list(self.ownership.created.get(nid, ()))

    # ----- backward -----------------------------------------------------------------------------
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
        value = next(iter(out.values()))
        if not isinstance(value, core.Tensor):
            self._touch(loss)
            self.errors[loss] = NodeError("backward", "TypeError",
                                          f"backward needs a tensor, got {type(value).__name__}")
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
        paths = bw.follow(step, self.ownership.owner, nid)
        self.chain_log.record(self, step, bw.call, nid)
        changed: list[str] = []
        detail: dict[str, Any] = {"autograd_node": anode.name(), "backward_call": bw.call}
        if bw.done == 1:
            detail["starts"] = True  # the first step of a backward call (after a finished one: a new pass)
        leaf = step.accumulated
        if leaf is not None and step.grad_outputs and step.grad_outputs[0] is not None:
            key = self.leaf_key(leaf) or f"{nid}.?"
            self.ledger.add(key, array_of(step.grad_outputs[0]), array_of(leaf.grad), paths)
            changed.append(key)
            detail["accumulated"] = key
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


    # ----- values, gradients, parameters ------------------------------------------------------------
    def node_parameters(self, nid: str) -> dict[str, Any]:
        """The trainable tensors node ``nid`` owns (a layer's weights, a parameter node's tensor)."""
        state = self.states.get(nid)
        if not state or "module" not in state and "tensor" not in state and "inner" not in state:
            return {}  # ParameterCache.of's first test, here: most nodes own nothing and this runs per node per step
        return self._params.of(nid, state)

    def parameters(self) -> dict[str, Any]:
        """The trainable tensors, ``{"node.name": tensor}`` in topological order (what the optimizer gets)."""
        out = {}
        for nid in self.order:
            for name, t in self.node_parameters(nid).items():
                out[f"{nid}.{name}"] = t
        return out

    def leaves(self) -> dict[str, core.Tensor]:
        """Every leaf that requires grad and that a node made or owns (parameters and grad-enabled sources)."""
        return {f"{nid}.{name}": t for t, nid, name in self.ownership.leaves.values()}

    def leaf_key(self, tensor: core.Tensor) -> str | None:
        """``"node.name"`` of a leaf a node made or owns, else None."""
        return self.ownership.leaf_key(tensor)

    def value(self, nid: str, port: str = "out") -> Any:
        """A port's value, or a node parameter by name (``"weight"`` of a layer node); None if absent."""
        out = self.values.get(nid) or {}
        if port in out:
            return out[port]
        return self.node_parameters(nid).get(port)

    def grad(self, nid: str, port: str = "out") -> core.Tensor | None:
        """The ``.grad`` of a port's tensor as PyTorch shows it (None for non-leaves without retain_grad)."""
        t = self.value(nid, port)
        return grad_of(t) if isinstance(t, core.Tensor) else None

    # ----- zero_grad and the optimizer ---------------------------------------------------------------
    def zero_grad(self, emit: bool = True) -> None:
        """Set every leaf's ``.grad`` to None (PyTorch 2's default) and clear the ledger; ``emit`` a step event."""
        changed = [k for k, t in self.leaves().items() if t.grad is not None] if emit else ()
        for t, _, _ in self.ownership.leaves.values():
            t.grad = None
        self.ledger.clear()
        if emit:
            self.emit("zero_grad", None, changed)

    def optimizer(self, params: dict[str, Any] | None = None) -> Any:
        """The optimizer over ``parameters()``, rebuilt when the parameters or the settings change."""
        return self._opt.get(self.parameters() if params is None else params, self.graph.training)

    @property
    def current_optimizer(self) -> Any:
        """The optimizer the last step used (None before the first), without building one."""
        return self._opt.current

    def retune_optimizer(self) -> bool:
        """Put the document's current ``optimizer_params`` on the live optimizer's param groups, keeping its state
        (momentum...), and keep that optimizer; False when there is none yet or its type changed."""
        return self._opt.retune(self.parameters(), self.graph.training)

    def optimizer_step(self) -> dict[str, Any]:
        """One optimizer (and schedule) step; returns ``{"lr", "update_ratio": {param: |dw|/|w|}}``."""
        try:
            opt = self.optimizer()
        except Exception as exc:  # reported as an error event, never raised
            self.emit("error", None, (), {"error": NodeError.from_exception("optimizer", exc)})
            return {}
        info = self.optimizer_update(opt)
        self.keep_optimizer_state()
        self.emit("optimizer", None, list(info["update_ratio"]), info)
        return info

    def optimizer_update(self, opt: Any, params: dict[str, Any] | None = None, grads: dict[str, Any] | None = None,
                         gflat: Any = None) -> dict[str, Any]:
        """``opt.step()`` then the schedule, without an event; the pass ends (the next forward starts a new one).
        Returns ``{"lr", "update_ratio"}`` and, when ``grads`` (``{param key: gradient array}``; ``gflat``: them
        concatenated) are given, their norms as ``"grad_norm"`` (``OptimizerSlot.step``)."""
        info = self._opt.step(opt, self.parameters() if params is None else params, grads, gflat)
        self.step_count += 1
        if self._journal is not None:
            for nid in self._done:
                self._touch(nid)
        self._done, self._cursor = {}, 0
        return info

    def keep_optimizer_state(self) -> None:
        """Copy the optimizer's state for time travel (steps recorded from now on go back to it at most)."""
        self._opt.keep_state()

    def train(self, n: int | None = None) -> Generator[dict[str, Any], None, None]:
        """``trainer.train(n)`` (``core.nodegraph.training.trainer.Training``): yields one metrics dict per step."""
        return self.trainer.train(n)

    # ----- graph edits ------------------------------------------------------------------------------
    def _on_graph_event(self, event: GraphEvent) -> None:
        if event.kind in _STRUCTURAL:
            self._order = None
            self.abandon_backward()
            dirty = self._dirty_from(event)
        elif event.kind == "param_changed" and event.node_id is not None:
            self.abandon_backward()
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
        for nid in dirty:
            if nid in self._done or nid in self.values or nid in self.errors:
                self._touch(nid)
                self._done.pop(nid, None)
                self.values.pop(nid, None)
                self.errors.pop(nid, None)
        self._cursor = 0
        if event.kind == "node_removed" and event.node_id is not None:
            self.states.pop(event.node_id, None)
            self._touch(event.node_id)
            self.ownership.forget(event.node_id)
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

    # ----- device -------------------------------------------------------------------------------
    def to(self, device: str | core.device) -> Session:
        """Compute on ``device`` from now on, keeping values, gradients, step count and optimizer state: every
        tensor the session holds moves (``core.nodegraph.run.device_move``). Returns the session."""
        move_session(self, device)
        return self

    def switch_device(self, device: str) -> None:
        """Evaluate on ``device`` from now on: plans and caches are dropped and the nodes the pass had evaluated
        run again there, without events (``core.nodegraph.run.device_move`` moves the tensors first)."""
        self.abandon_backward()
        self.device = self._store.device = str(device)
        self._plans = {}
        self._params.clear()
        self._static.clear()
        self.trainer.forget_plans()
        done = set(self._done)
        for nid in (*done, *self.values):
            self._touch(nid)
        self._done, self.values, self._cursor = {}, {}, 0
        for nid in [n for n in self.order if n in done]:
            self.run_node(nid)

    # ----- reset --------------------------------------------------------------------------------
    def reset(self, keep_parameters: bool = False) -> None:
        """Forget values, gradients, ledger and history; parameters are rebuilt from their seeds
        unless ``keep_parameters``."""
        self.abandon_backward()
        if not keep_parameters:
            self.states = {}
        self._plans = {}
        self._init_run_state()
        self.trainer.forget_plans()
        self.history.clear()
        self.emit("reset")

