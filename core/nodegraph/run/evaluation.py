"""The one route that evaluates a graph node in a session: ``NodeEvaluation``, a part of ``Session``.

``run_node`` evaluates one node and does the session's bookkeeping: it stores the outputs (or the error, a
``NodeError`` on the node), registers the leaves the node made or owns, and records the autograd nodes it created.
Stepping forward, re-running after an edit or a device switch, and a training step all come through it; a
training step takes its ``lean`` and ``reuse`` options (``core.nodegraph.run.lean``).

It is a mixin rather than a separate object because it writes the session's own per-run state (values, errors, the
done set, the journal of changes that time travel reads). The members it uses of ``Session`` are declared below
for the type checker.
"""

from __future__ import annotations

from operator import is_
from typing import TYPE_CHECKING, Any

import core
from core.nodegraph.model.budget import BudgetError, check
from core.nodegraph.model.document import Edge
from core.nodegraph.model.evaluate import NodeError as EvalError
from core.nodegraph.model.evaluate import evaluate_node, input_ports
from core.nodegraph.model.events import NodeError
from core.nodegraph.model.names import node_label
from core.nodegraph.model.spec import EvalContext
from core.nodegraph.run import lean as _lean

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph
    from core.nodegraph.model.evaluate import Values
    from core.nodegraph.run.lean import StaticOutputs
    from core.nodegraph.run.ownership import Ownership

__all__ = ["NodeEvaluation", "Plan"]

Plan = tuple[EvalContext, dict[str, Edge], list[Any]]  # a node's context, input edges and checked parameters


_BUILT_FOR = "built_for"  # a node state's entry: the parameter values its module or tensor was built for


def _built(state: dict[str, Any]) -> tuple[Any, Any]:
    """What a node state holds that it built (a layer's module, a parameter node's tensor)."""
    return state.get("module"), state.get("tensor")


def _note_build(state: dict[str, Any], raw: dict[str, Any], before: tuple[Any, Any], ok: bool) -> None:
    """After a node's run, keep with its state the parameters its module or tensor belongs to; forget what it
    built when it failed with other parameters without building again.

    NOTE: a node refused before its evaluate ran (invalid parameters, over the memory budget) or failing with
    new parameters keeps no weights built for the old ones, as a fresh session of the saved file builds none:
    they went into ``parameters()``, the optimizer and the saved trained values with the wrong shape. A node
    that fails with the parameters it was built for (an input disconnected or failing) keeps its trained
    weights: a disconnect loses no training.
    """
    now = _built(state)
    if now == (None, None):
        return
    if ok or now[0] is not before[0] or now[1] is not before[1]:  # it ran, or built again for these parameters
        state[_BUILT_FOR] = (tuple(raw), tuple(raw.values()))
        return
    kept = state.get(_BUILT_FOR)
    if kept is None or kept[0] != tuple(raw) or not all(map(_same, kept[1], raw.values())):
        state.clear()


def _same(a: Any, b: Any) -> bool:
    """The parameter value a state was built for and the node's: the very object, or an equal one (an undone
    delete puts back copies: run.kept_states gives the node its weights back, a failing input must not drop them)."""
    try:
        return a is b or bool(type(a) is type(b) and a == b)
    except (TypeError, ValueError):  # a value without one truth (an array)
        return False


class NodeEvaluation:
    """Evaluating one node of the session's graph (``Session`` inherits it)."""

    if TYPE_CHECKING:  # what it uses of Session (set in Session.__init__ and _init_run_state)
        graph: Graph
        device: str
        seed: int
        training: bool
        retain_grad_nodes: set[str]
        states: dict[str, dict[str, Any]]
        values: dict[str, dict[str, Any]]
        errors: dict[str, NodeError]
        ownership: Ownership
        generator: core.Generator
        step_count: int
        _gen_state: core.Tensor | None
        _journal: dict[str, tuple[Any, ...]] | None
        _step_tensors: list[core.Tensor]
        _done: dict[str, None]
        _store: Values
        _trace: bool
        _static: StaticOutputs
        _plans: dict[str, Plan]
        _lean: dict[str, tuple[Any, ...] | None]

        _trained_pending: dict[str, dict[str, Any]]
        _buffers_pending: dict[str, dict[str, Any]]

        def node_parameters(self, nid: str) -> dict[str, Any]: ...
        def _touch(self, nid: str) -> None: ...
        def _restore_trained(self, nid: str) -> bool: ...
        def _restore_buffers(self, nid: str, out: dict[str, Any]) -> None: ...

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
        # the inputs' forward errors (evaluate_node skips a node they feed); NOTE: only the inputs', as every error
        # of the session made re-running the nodes after a cut in a long chain, each failing, quadratic
        errors = self.errors
        store.errors = {e.src: EvalError(e.src, bad.message, bad.type) for e in incoming.values()
                        if (bad := errors.get(e.src)) is not None and bad.phase == "forward"} if errors else {}
        params = self._checked_params(nid, checked)
        built = _built(ctx.state)
        ok = evaluate_node(self.graph, nid, store, ctx, incoming, params=params,
                           ports=None if params is None else checked[2])
        _note_build(ctx.state, self.graph.nodes[nid].params, built, ok)
        if ok:
            out = self.values[nid]
            self._retain_grads(nid, out)
            self.ownership.register_leaves(nid, self._found_leaves(nid, out))
            if self._trace:
                self.ownership.record(nid, out, self._touch)
            if nid in self._trained_pending and self._restore_trained(nid):
                return self._evaluate(nid)  # its outputs again, from the values the file kept
            if nid in self._buffers_pending:
                self._restore_buffers(nid, out)
        else:
            err = store.errors[nid]
            self.errors[nid] = NodeError("forward", err.type, err.message)
            out = None
            if nid in self._trained_pending and self.node_parameters(nid):  # NOTE: built, then failed on its input:
                self._restore_trained(nid)  # it holds the file's trained values, not its seed's (a save kept those)
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
        held = self._store.held
        held.drop(nid)
        try:  # the memory and FLOP budgets, as on the full route
            check(lean[_lean.SPEC], inputs, lean[_lean.PARAMS], held.total)
        except BudgetError:  # the full route refuses it with the message that names the node
            return self._evaluate(nid)
        ctx = plan[0]
        ctx.device, ctx.training, ctx.generator, ctx.step, ctx.node = (self.device, self.training, self.generator,
                                                                       self.step_count, node)
        values.pop(nid, None)
        out, self._gen_state = None, None
        try:
            result = lean[_lean.EVALUATE](ctx, inputs, lean[_lean.PARAMS])
            made = result if type(result) is dict else _lean.lean_outputs(lean[_lean.OUTPUTS], result)
            held.add(nid, made)
        except BudgetError as exc:  # its outputs took the graph over the memory budget: named as evaluate_node does
            self.errors[nid] = NodeError("forward", type(exc).__name__, f"{node_label(self.graph, nid)}: {exc}")
        except Exception as exc:  # attached to the node as evaluate_node does
            self.errors[nid] = NodeError("forward", type(exc).__name__, str(exc) or type(exc).__name__)
        else:
            out = values[nid] = made
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

    # ----- leaves a node made or owns ------------------------------------------------------------------
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
