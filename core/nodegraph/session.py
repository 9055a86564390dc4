"""A session runs a graph document: forward and backward one step at a time, with time travel.

The session keeps what the document does not: computed values per node and port, the nodes'
persistent state (layer modules, parameters), errors attached to nodes, a gradient ledger and a
bounded history of snapshots. Forward evaluates one graph node per step in topological order.
Backward runs ``core.autograd.backward_steps`` one autograd node per step; every autograd node is
mapped back to the graph node whose evaluation created it (recorded after each forward step by
walking from the node's outputs' ``grad_fn`` back to nodes owned by earlier graph nodes). Errors
never escape: they become ``NodeError`` records on the node (a backward error on the loss node).

Training (zero_grad, optimizer_step, train) lives in ``core.nodegraph.training``; inspection of ports
in ``core.nodegraph.inspect``.
"""

from __future__ import annotations

from operator import is_

import core
from core.autograd import backward_steps
from core.autograd.graph import AccumulateGrad, array_of, grad_accumulator, saved_state
from core.nodegraph.chain_rule import ChainLog
from core.nodegraph.device_move import move_session
from core.nodegraph.evaluate import Values, evaluate_node, input_ports
from core.nodegraph.events import NodeError, SessionEvent
from core.nodegraph.lean import LeanEvalMixin
from core.nodegraph.ledger import GradLedger
from core.nodegraph.portinfo import InspectMixin
from core.nodegraph.snapshots import History, TensorTracker, TimeTravelMixin
from core.nodegraph.spec import EvalContext
from core.nodegraph.stepnorms import StepNorms
from core.nodegraph.training import TrainingMixin

__all__ = ["Session"]

PROBE_TYPE = "probe.gradient"
_STRUCTURAL = ("node_added", "node_removed", "edge_added", "edge_removed", "node_changed", "reset")


class _BackwardRun:
    """One backward call in progress: the engine's step iterator and the gradient paths so far."""

    __slots__ = ("steps", "call", "loss", "retain_graph", "done", "total", "paths", "start_index")

    def __init__(self, steps, call, loss, retain_graph, total, root, start_index):
        self.steps, self.call, self.loss, self.retain_graph = steps, call, loss, retain_graph
        self.done, self.total, self.start_index = 0, total, start_index
        self.paths = {root: [(loss,)]}


class Session(TrainingMixin, LeanEvalMixin, InspectMixin, TimeTravelMixin):
    """Runs ``graph`` on ``device``; ``seed`` seeds the generator random nodes draw from."""

    def __init__(self, graph, device: str = "cpu", seed: int = 0, history_limit: int = 100):
        self.graph = graph
        self.device = device
        self.seed = seed
        self.training = True
        self.auto_recompute = True
        self.retain_grad_nodes: set = set()  # node ids (or "*") whose non-leaf outputs keep .grad
        self.history = History(history_limit)
        self._subscribers: list = []
        self.states: dict = {}
        self._param_cache: dict = {}  # per node: its trainable tensors (see _node_parameters)
        self._plans: dict = {}  # per node: its context and input edges (see _plan)
        self._lean: dict = {}  # per node: what a training step evaluates it with (see lean._lean_plan)
        self._metric_norms = StepNorms()  # the training metrics' weight, update and gradient norms
        self._init_run_state()
        graph.subscribe(self._on_graph_event)
        self._snapshot(("reset", None))

    def _init_run_state(self) -> None:
        self.generator = core.Generator().manual_seed(self.seed)
        self.values: dict = {}
        self.errors: dict = {}
        self._store = Values(self.device, self.seed)  # evaluate_node's output holder; outputs is self.values
        self.ledger = GradLedger()
        self.chain_log = ChainLog()  # what each stepped backward call sent where (core.nodegraph.chain_rule)
        self.step_count = 0
        self._done: list = []
        self._order = None
        self._owner: dict = {}
        self._created: dict = {}
        self._saved_backup: dict = {}
        self._step_marks = None  # the last training step's creation marks (core.nodegraph.step_owners)
        self._leaves: dict = {}
        self._node_leaves: dict = {}
        self._maps_shared = False
        self._bw = None
        self._tracker = TensorTracker()
        self._trace = True
        self._optimizer = None
        self._opt_saved = None  # the optimizer's state after its last step (snapshots.save_optimizer)
        self._static_flags: dict = {}  # per node: is_static (training's reuse of unchanged outputs)
        self._static_cache: dict = {}  # training: outputs of static nodes kept across steps (_run_cached)
        self._acc_plan = None  # (loss node, what _accuracy reads), see training._accuracy_plan
        self._no_gradient: list = []

    def close(self) -> None:
        """Stop listening to the document."""
        self.graph.unsubscribe(self._on_graph_event)

    # ----- events -------------------------------------------------------------------------------
    def subscribe(self, listener) -> None:
        """``listener(SessionEvent)`` is called after every step."""
        self._subscribers.append(listener)

    def unsubscribe(self, listener) -> None:
        if listener in self._subscribers:
            self._subscribers.remove(listener)

    def _emit(self, phase, node=None, changed=(), detail=None, snapshot=True) -> SessionEvent:
        self._event_count = getattr(self, "_event_count", 0) + 1  # invalidates cached storage maps
        index = self._snapshot((phase, node)) if snapshot else -1
        event = SessionEvent(phase, node, tuple(changed), detail or {}, index)
        for listener in list(self._subscribers):
            listener(event)
        return event

    # ----- forward --------------------------------------------------------------------------------
    @property
    def order(self) -> list:
        if self._order is None:
            self._order = self.graph.topological_order()
        return self._order

    @property
    def next_node(self) -> str | None:
        """The node ``forward_step`` evaluates next (None when the pass is complete)."""
        done = set(self._done)
        return next((n for n in self.order if n not in done), None)

    @property
    def forward_complete(self) -> bool:
        return self.next_node is None

    def forward_step(self) -> str | None:
        """Evaluate the next node in topological order; a complete pass starts a new one. Returns its id."""
        self._ensure_head()
        if self.forward_complete:
            self._new_pass()
        nid = self.next_node
        if nid is None:
            return None
        changed = self._run_node(nid)
        error = self.errors.get(nid)
        self._emit("error" if error else "forward", nid, changed, {"error": error} if error else {})
        return nid

    def forward(self, until: str | None = None) -> None:
        """Evaluate the rest of the pass, or up to and including ``until``."""
        if until is not None:
            self.graph.node(until)
        if self.forward_complete:
            self._ensure_head()
            self._new_pass()
        while not self.forward_complete:
            nid = self.forward_step()
            if nid == until:
                return

    def _new_pass(self) -> None:
        """Start a new forward pass: every value is recomputed; an unfinished backward is dropped."""
        self._done = []
        self._close_backward()
        for nid in list(self.errors):
            self.errors.pop(nid)

    def _run_node(self, nid: str) -> list:
        """Evaluate one node (``_eval_node``); the ``"node.port"`` keys it changed."""
        return [f"{nid}.{p}" for p in (self._eval_node(nid) or ())]

    def _eval_node(self, nid: str) -> dict | None:
        """Evaluate one node (``evaluate.evaluate_node``), store its outputs or its error, record its autograd."""
        if self._maps_shared:
            self._unshare_maps()
        self._forget_autograd(nid)
        self.errors.pop(nid, None)
        ctx, incoming, checked = self._plans.get(nid) or self._plan(nid)
        ctx.device, ctx.training, ctx.generator, ctx.step = self.device, self.training, self.generator, self.step_count
        store = self._store
        store.outputs = self.values
        store.errors = {k: e for k, e in self.errors.items() if e.phase == "forward"} if self.errors else {}
        params = self._checked_params(nid, checked)
        if evaluate_node(self.graph, nid, store, ctx, incoming, params=params,
                         ports=None if params is None else checked[2]):
            out = self.values[nid]
            self._retain_grads(nid, out)
            self._register_leaves(nid, out)
            if self._trace:
                self._record_autograd(nid, out)
        else:
            err = store.errors[nid]
            self.errors[nid] = NodeError("forward", err.type, err.message)
            out = None
        if nid not in self._done:
            self._done.append(nid)
        return out

    def _plan(self, nid: str) -> tuple:
        """The node's EvalContext (kept: its state and the session's generator), its input edges and a slot
        for its validated parameters (``_checked_params``)."""
        ctx = EvalContext(nid, self.device, self.training, self.generator, self.states.setdefault(nid, {}),
                          seed=self.seed)
        plan = self._plans[nid] = (ctx, self.graph.inputs_of(nid), [None, None, None])
        return plan

    def _checked_params(self, nid: str, checked: list) -> dict | None:
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

    # ----- autograd ownership -----------------------------------------------------------------
    _MAPS = ("_leaves", "_node_leaves", "_created", "_owner", "_saved_backup")

    def _unshare_maps(self) -> None:
        """Copy-on-write of the ownership maps a snapshot refers to."""
        for name in self._MAPS:
            d = getattr(self, name)
            setattr(self, name, {k: list(v) for k, v in d.items()} if name in ("_node_leaves", "_created")
                    else dict(d))
        self._maps_shared = False

    def _forget_autograd(self, nid: str) -> None:
        for anode in self._created.pop(nid, ()):
            self._owner.pop(anode, None)
            self._saved_backup.pop(anode, None)
        for tid in self._node_leaves.pop(nid, ()):
            self._leaves.pop(tid, None)

    def _register_leaves(self, nid: str, out: dict) -> None:
        """Remember the leaves requiring grad that the node output or owns (ledger and zero_grad keys)."""
        found = [(port, t) for port, t in out.items()
                 if isinstance(t, core.Tensor) and t.requires_grad and t.grad_fn is None]
        found += list(self._node_parameters(nid).items())
        ids = self._node_leaves.setdefault(nid, [])
        for name, t in found:
            if id(t) not in self._leaves:
                self._leaves[id(t)] = (t, nid, name)
                ids.append(id(t))

    def _record_autograd(self, nid: str, out: dict) -> None:
        """Own the autograd nodes this evaluation introduced (walking back to earlier nodes' ones)."""
        created = []
        stack = [t.grad_fn for t in out.values() if isinstance(t, core.Tensor) and t.grad_fn is not None]
        owner = self._owner
        while stack:
            anode = stack.pop()
            if anode in owner:
                continue
            if type(anode) is AccumulateGrad:
                leaf = self._leaves.get(id(anode.variable))
                if leaf is not None and leaf[1] != nid:
                    owner[anode] = leaf[1]
                    self._created.setdefault(leaf[1], []).append(anode)
                    continue
            owner[anode] = nid
            created.append(anode)
            saved = saved_state(anode)
            if saved is not None:
                self._saved_backup[anode] = saved
            stack.extend(fn for fn, _ in anode.next_functions if fn is not None)
        self._created.setdefault(nid, []).extend(created)

    def owner_of(self, autograd_node) -> str | None:
        """The graph node whose evaluation created ``autograd_node`` (in a stepped pass or the last training step)."""
        owner = self._owner.get(autograd_node)
        if owner is None and self._step_marks is not None:
            owner = self._step_marks.owner(autograd_node, self._leaves)
        return owner

    def autograd_origin(self, autograd_node) -> str:
        """``"forward"`` when a stepped forward recorded ``autograd_node``, ``"train"`` when the last training step
        made it (its owner then comes from the step's creation marks)."""
        return "forward" if autograd_node in self._owner or self._step_marks is None else "train"

    def saved_backup(self, autograd_node):
        """What ``autograd_node`` saved for backward, as the session kept it (``core.autograd.graph.saved_state``)
        so that it can be shown, and put back by time travel, after a backward freed it; None if not kept."""
        return self._saved_backup.get(autograd_node)

    def autograd_nodes(self, nid: str) -> list:
        """The autograd nodes (``grad_fn`` objects, AccumulateGrad of owned leaves) a graph node created."""
        return list(self._created.get(nid, ()))

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
        self._ensure_head(backward=True)
        if self._bw is None and not self._start_backward(retain_graph, create_graph):
            return None
        bw = self._bw
        try:
            step = next(bw.steps)
        except StopIteration:
            self._finish_backward()
            return None
        except Exception as exc:  # PyTorch's error goes on the loss node
            self._backward_error(exc)
            return None
        return self._record_step(step)

    def backward(self, until: str | None = None, retain_graph: bool = False, create_graph: bool = False) -> None:
        """Run backward to the end, or until a step of graph node ``until`` ran."""
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
            self._emit("error", loss, (), {"error": self.errors[loss]})
            return False
        root = value.grad_fn if value.grad_fn is not None else grad_accumulator(value)
        self._bw = _BackwardRun(steps, call, loss, retain_graph, _count_reachable(root), root,
                                self.history.position)
        return True

    def _loss_tensor(self, loss: str):
        out = self.values.get(loss)
        if not out:
            return None
        value = next(iter(out.values()))
        if not isinstance(value, core.Tensor):
            self.errors[loss] = NodeError("backward", "TypeError",
                                          f"backward needs a tensor, got {type(value).__name__}")
            self._emit("error", loss, (), {"error": self.errors[loss]})
            return None
        return value

    def _record_step(self, step) -> str | None:
        """Map one engine step to its graph node, follow the gradient paths, fill the ledger, emit."""
        bw = self._bw
        bw.done += 1
        anode = step.node
        nid = self._owner.get(anode)
        paths = bw.paths.pop(anode, None) or [(bw.loss,)]
        self.chain_log.record(self, step, bw.call, nid)
        for e, g in zip(step.edges, step.grad_inputs):
            if e is None or g is None:
                continue
            nxt_owner = self._owner.get(e[0], nid)
            bucket = bw.paths.setdefault(e[0], [])
            for p in paths:
                np_ = p if p[-1] == nxt_owner else p + (nxt_owner,)
                if np_ not in bucket and len(bucket) < 16:
                    bucket.append(np_)
        changed = []
        detail = {"autograd_node": anode.name(), "backward_call": bw.call}
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
        self._emit("backward", nid, changed, detail)
        return nid

    def _retained_outputs(self, nid) -> list:
        out = self.values.get(nid) or {}
        return [f"{nid}.{p}" for p, t in out.items()
                if isinstance(t, core.Tensor) and t.grad_fn is not None and t.retains_grad and t.grad is not None]

    def _finish_backward(self, emit: bool = True) -> None:
        bw = self._bw
        self._bw = None
        self._refresh_probes()
        self._no_gradient = [k for k, t in self.leaves().items() if t.grad is None]
        if emit:
            self._emit("backward", bw.loss, (), {"done": True, "backward_call": bw.call,
                                                 "no_gradient": list(self._no_gradient)})

    def _refresh_probes(self) -> None:
        """Gradient probes show ``.grad``: re-evaluate them once a backward has finished."""
        for nid in self.order:
            if self.graph.nodes[nid].type == PROBE_TYPE and nid in self._done:
                self._run_node(nid)

    def _backward_error(self, exc) -> None:
        bw = self._bw
        self._close_backward()
        origin = self._released_origin(bw)
        self.errors[bw.loss] = NodeError.from_exception("backward", exc, origin[0], origin[1])
        self._emit("error", bw.loss, (), {"error": self.errors[bw.loss], "backward_call": bw.call})

    def _released_origin(self, bw) -> tuple:
        """The graph node and autograd node whose freed saved tensors a failed backward needed."""
        for anode, owner in self._owner.items():
            if anode.is_released and anode in bw.paths:
                return owner, anode.name()
        return None, None

    def _close_backward(self) -> None:
        if self._bw is not None:
            self._bw.steps.close()
            self._bw = None

    def no_gradient_parameters(self) -> list:
        """Leaves (parameters, grad-enabled sources) the last finished backward left without a gradient."""
        return list(self._no_gradient)

    # ----- graph edits ------------------------------------------------------------------------------
    def _on_graph_event(self, event) -> None:
        if event.kind in _STRUCTURAL:
            self._order = None
            self._close_backward()
            dirty = self._dirty_from(event)
        elif event.kind == "param_changed":
            self._close_backward()
            dirty = {event.node_id} | self.graph.descendants(event.node_id)
        else:
            return
        self._static_cache, self._static_flags, self._acc_plan = {}, {}, None
        if event.kind in _STRUCTURAL:
            self._plans = {}
        for nid in dirty:
            self._plans.pop(nid, None)
        was_done = [n for n in self._done if n in dirty]
        self._done = [n for n in self._done if n not in dirty]
        for nid in dirty:
            self.values.pop(nid, None)
            self.errors.pop(nid, None)
        if event.kind == "node_removed":
            self.states.pop(event.node_id, None)
            self._forget_autograd(event.node_id)
        if self.auto_recompute and was_done and self.history.at_head:
            for nid in [n for n in self.order if n in was_done]:
                if not self._inputs_done(nid):
                    continue
                changed = self._run_node(nid)
                self._emit("error" if nid in self.errors else "forward", nid, changed, {"recompute": True})

    def _inputs_done(self, nid) -> bool:
        return all(e.src in self._done for e in self.graph.inputs_of(nid).values())

    def _dirty_from(self, event) -> set:
        nid = event.node_id or (event.edge.dst if event.edge is not None else None)
        if nid is None or nid not in self.graph.nodes:
            return set(self._done) if event.kind == "reset" else set()
        return {nid} | self.graph.descendants(nid)

    # ----- device -------------------------------------------------------------------------------
    def to(self, device) -> Session:
        """Compute on ``device`` from now on, keeping values, gradients, step count and optimizer state: every
        tensor the session holds moves (``core.nodegraph.device_move``). Returns the session."""
        move_session(self, device)
        return self

    # ----- reset --------------------------------------------------------------------------------
    def reset(self, keep_parameters: bool = False) -> None:
        """Forget values, gradients, ledger and history; parameters are rebuilt from their seeds
        unless ``keep_parameters``."""
        self._close_backward()
        if not keep_parameters:
            self.states = {}
        self._plans = {}
        self._init_run_state()
        self.history.clear()
        self._emit("reset")


def _count_reachable(root) -> int:
    """The number of autograd nodes a backward from ``root`` executes (every reachable one)."""
    if root is None:
        return 0
    seen, stack = {root}, [root]
    while stack:
        for fn, _ in stack.pop().next_functions:
            if fn is not None and fn not in seen:
                seen.add(fn)
                stack.append(fn)
    return len(seen)
