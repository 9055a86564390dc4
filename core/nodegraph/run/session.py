"""A session runs a graph document: forward and backward one step at a time, with time travel.

The session keeps what the document does not: computed values per node and port, the nodes'
persistent state (layer modules, parameters), errors attached to nodes, a gradient ledger and a
bounded history of snapshots. Forward evaluates one graph node per step in topological order.
Backward runs ``core.autograd.backward_steps`` one autograd node per step; every autograd node is
mapped back to the graph node whose evaluation created it (recorded after each forward step by
walking from the node's outputs' ``grad_fn`` back to nodes owned by earlier graph nodes). Errors
never escape: they become ``NodeError`` records on the node (a backward error on the loss node).

Its helpers are composed, not mixed: ``history`` (``core.nodegraph.run.history.History``, time travel),
``trainer`` (``core.nodegraph.training.trainer.Training``, the ``train`` loop) and ``inspector``
(``core.nodegraph.run.inspection.PortInspector``, port facts) are separate objects that hold the session and use
only its public methods. One route evaluates a node: ``run_node`` (its ``lean`` and ``reuse`` options are
what a training step uses, ``core.nodegraph.run.lean``).

The session's own code spans six modules, one concern each, over one per-run state: this one (events, forward
stepping, values and parameters, the optimizer, device, reset), ``evaluation.NodeEvaluation`` (the route that
evaluates a node), ``backward_stepping.BackwardStepping`` (the stepped backward call), ``changes.ChangeJournal``
(what ``History`` reads and puts back), ``saved_training.SavedTraining`` (what a save writes and a file gives back)
and ``edit_following.EditFollowing`` (what a document edit drops and re-runs). ``Session`` inherits those five:
they read and write the same values, errors, done set and journal, which separate objects could only share by
reaching into each other.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterable
from typing import Any

import core
from core.autograd.graph import grad_of
from core.nodegraph.explain.chain_rule import ChainLog
from core.nodegraph.files.schema import SESSION_KEY
from core.nodegraph.model.document import Graph
from core.nodegraph.model.evaluate import Values
from core.nodegraph.model.events import NodeError, SessionEvent
from core.nodegraph.model.gc_pause import gc_paused
from core.nodegraph.run import lean as _lean
from core.nodegraph.run.backward_run import BackwardRun
from core.nodegraph.run.backward_stepping import BackwardStepping
from core.nodegraph.run.changes import ChangeJournal
from core.nodegraph.run.device_move import move_session
from core.nodegraph.run.edit_following import EditFollowing
from core.nodegraph.run.evaluation import NodeEvaluation, Plan
from core.nodegraph.run.history import History
from core.nodegraph.run.inspection import PortInspector
from core.nodegraph.run.kept_states import KeptStates
from core.nodegraph.run.ledger import GradLedger
from core.nodegraph.run.optimizer_slot import OptimizerSlot
from core.nodegraph.run.ownership import Ownership
from core.nodegraph.run.returning import Returning
from core.nodegraph.run.saved_training import SavedTraining
from core.nodegraph.run.step_owners import StepMarks, mark
from core.nodegraph.training.runs import RunHistory
from core.nodegraph.training.trainer import Training
from core.nodegraph.training.watch import WatchList

__all__ = ["Session"]

Listener = Callable[[SessionEvent], None]



class Session(NodeEvaluation, BackwardStepping, ChangeJournal, SavedTraining, EditFollowing):
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
        # the file's trained values of nodes not evaluated yet, and the nodes that got theirs (run.trained)
        self._trained_pending: dict[str, dict[str, Any]] = dict(graph.trained_values)
        self._trained_restored: set[str] = set()
        # where the file's training stood (run.training_state); its running statistics wait for their nodes
        saved = self._trained_pending.pop(SESSION_KEY, None) if SESSION_KEY not in graph.nodes else None
        self._buffers_pending: dict[str, dict[str, Any]] = {}
        # the runs the plots drew, saved with the position (whoever records the steps keeps them here: the GUI's
        # trainer); a file's come back in it
        self.run_history = RunHistory()
        self.watch_list: WatchList | None = None  # the watch list attached to it (its points are saved too)
        self.trained_revision = 0  # grows whenever what trained_values() gives changes (a step, a reset...)
        self._params = _lean.ParameterCache()  # per node: its trainable tensors (node_parameters)
        self._plans: dict[str, Plan] = {}  # per node: its context and input edges (see _plan)
        self._lean: dict[str, tuple[Any, ...] | None] = {}  # per node: its lean plan (run.lean.lean_plan)
        self._index: tuple[list[str], dict[str, int]] | None = None  # (order, {node: index}) for _position
        self._static = _lean.StaticOutputs()  # outputs of static nodes reused across training steps
        self._init_run_state()
        if saved:
            self._resume(saved)
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
        self._evaluated: str | None = None  # the node _run_keys evaluated last, until the next snapshot
        self._freed: list[tuple[Any, Any]] = []  # (autograd node, what it saved) freed since the last snapshot
        self._order: list[str] | None = None
        self.ownership = Ownership()  # which node made which autograd node and leaf (core.nodegraph.run.ownership)
        self._bw: BackwardRun | None = None
        self._trace = True
        self._opt = OptimizerSlot()  # the optimizer, its schedule and its state kept for time travel
        self._kept = KeptStates()  # what edits made it drop, for their undo and redo (run.kept_states)
        self._returning = Returning()  # the nodes that had run before an edit dropped them, for its undo
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
        changed = [f"{nid}.{p}" for p in (self.run_node(nid) or ())]
        self._evaluated = nid  # its error step's tensors are the ones it noted (step_tensors)
        return changed

    # ----- leaves and autograd ownership (core.nodegraph.run.ownership) ------------------------------
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
        for t in self.parameters().values():  # NOTE: a failing node's kept weights too (its leaves are forgotten
            t.grad = None  # while it fails): their last gradient showed, and the optimizer stepped with it again
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
        self.trained_revision += 1
        if self._journal is not None:
            for nid in self._done:
                self._touch(nid)
        self._done, self._cursor = {}, 0
        return info

    def keep_optimizer_state(self) -> None:
        """Copy the optimizer's state for time travel (steps recorded from now on go back to it at most)."""
        self._opt.keep_state()

    def train(self, n: int | None = None, zero_grad: bool = True) -> Generator[dict[str, Any], None, None]:
        """``trainer.train(n, zero_grad)`` (``core.nodegraph.training.trainer.Training``): yields one metrics dict per
        step; ``zero_grad=False`` runs the loop that forgets ``optimizer.zero_grad()``."""
        return self.trainer.train(n, zero_grad)

    # ----- device -------------------------------------------------------------------------------
    def to(self, device: str | core.device) -> Session:
        """Compute on ``device`` from now on, keeping values, gradients, step count and optimizer state: every
        tensor the session holds moves (``core.nodegraph.run.device_move``). Returns the session."""
        move_session(self, device)
        self._kept.clear()  # what edits set aside stayed where it was
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
        if self.step_count or self._trained_restored or self._trained_pending or self._buffers_pending:
            self.trained_revision += 1  # what a save writes changes: the file's trained values go
        if not keep_parameters:
            self.states = {}
            self._trained_pending, self._trained_restored = {}, set()
        self._buffers_pending = {}
        self._plans = {}
        self._init_run_state()
        self.trainer.forget_plans()
        self.history.clear()
        self.emit("reset")
