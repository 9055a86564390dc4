"""The lean evaluation of a node in a training step through the autograd engine.

A training step evaluates every node once, with the same inputs, spec and parameters as the step before
(unless the document changed). ``LeanEvalMixin._train_eval`` does what ``Session._eval_node`` does for such a
step with what it planned the first time: the input sources, the spec's evaluate, the validated parameters
and the output names; it re-registers the node's leaves only when they are other tensors than last step's.
The plan is rebuilt when the session drops the node's ``_plans`` entry (graph edits, reset) or when the node's
parameters dict holds other values (a parameter set without an event); anything unusual (autograd ownership
being traced, an error in this pass, autograd nodes recorded while stepping,
invalid parameters, a missing input) takes ``_eval_node``, so errors and messages are the same.
"""

from __future__ import annotations

from operator import is_

import core
from core.nodegraph.events import NodeError

__all__ = ["LeanEvalMixin"]

# a lean plan: (session plan, spec, parameter names, parameter values, validated parameters, evaluate,
#               ((port, source node, source port), ...), output names)
_PLAN, _SPEC, _KEYS, _VALUES, _PARAMS, _EVALUATE, _SOURCES, _OUTPUTS = range(8)


class LeanEvalMixin:
    """``_train_eval`` and the leaf bookkeeping it shares with ``_eval_node`` (mixed into ``Session``; ``_lean``
    holds the plans)."""

    def _train_eval(self, nid: str) -> None:
        """Evaluate ``nid`` in a training step as ``_eval_node`` would, from its lean plan."""
        plan = self._plans.get(nid)
        if plan is None or self._trace or self.errors or self._maps_shared or nid in self._created:
            self._eval_node(nid)
            return
        node = self.graph.nodes[nid]
        raw, lean = node.params, self._lean.get(nid)
        if (lean is None or lean[_PLAN] is not plan or lean[_SPEC] is not node.spec
                or lean[_KEYS] != tuple(raw) or not all(map(is_, lean[_VALUES], raw.values()))):
            lean = self._lean_plan(nid, plan)
            if lean is None:
                self._eval_node(nid)
                return
        values = self.values
        try:
            inputs = {name: values[src][port] for name, src, port in lean[_SOURCES]}
        except KeyError:  # an input without a value: _eval_node reports it
            self._eval_node(nid)
            return
        ctx = plan[0]
        ctx.device, ctx.training, ctx.generator, ctx.step, ctx.node = (self.device, self.training, self.generator,
                                                                       self.step_count, node)
        values.pop(nid, None)
        try:
            result = lean[_EVALUATE](ctx, inputs, lean[_PARAMS])
        except Exception as exc:  # attached to the node as evaluate_node does
            self.errors[nid] = NodeError("forward", type(exc).__name__, str(exc) or type(exc).__name__)
        else:
            out = values[nid] = result if type(result) is dict else _outputs(lean[_OUTPUTS], result)
            if self.retain_grad_nodes:
                self._retain_grads(nid, out)
            self._keep_leaves(nid, out)
        self._done.append(nid)

    def _lean_plan(self, nid: str, plan: tuple):
        """The node's lean plan (see ``_PLAN``...), or None for a node ``_eval_node`` must run (no spec, a
        subgraph, invalid parameters, a required input not connected)."""
        node = self.graph.nodes[nid]
        self._lean.pop(nid, None)
        params = self._checked_params(nid, plan[2])
        if params is None:
            return None
        sources = []
        for port in plan[2][2]:
            edge = plan[1].get(port.name)
            if edge is not None:
                sources.append((port.name, edge.src, edge.src_port))
            elif not port.optional:
                return None
        spec = node.spec
        lean = self._lean[nid] = (plan, spec, tuple(node.params), tuple(node.params.values()), params, spec.evaluate,
                                  tuple(sources), tuple(p.name for p in spec.outputs))
        return lean

    def _retain_grads(self, nid: str, out: dict) -> None:
        """``retain_grad()`` on the node's non-leaf outputs when ``retain_grad_nodes`` names it (or ``"*"``)."""
        if nid in self.retain_grad_nodes or "*" in self.retain_grad_nodes:
            for t in out.values():
                if isinstance(t, core.Tensor) and t.requires_grad and t.grad_fn is not None:
                    t.retain_grad()

    def _keep_leaves(self, nid: str, out: dict) -> None:
        """``_register_leaves`` unless the node's leaves are the very tensors registered last step (the usual
        case: a layer's parameters), which keeps them without popping and re-adding each one."""
        found = [(port, t) for port, t in out.items()
                 if isinstance(t, core.Tensor) and t.requires_grad and t.grad_fn is None]
        params = self._node_parameters(nid)
        if params:
            found += params.items()
        ids = self._node_leaves.get(nid)
        if not found and not ids:
            return
        leaves = self._leaves
        if ids is not None and len(ids) == len(found):
            for tid, (name, t) in zip(ids, found):
                rec = leaves.get(tid)
                if rec is None or rec[0] is not t or rec[2] != name:
                    break
            else:
                return
        for tid in self._node_leaves.pop(nid, ()):
            leaves.pop(tid, None)
        self._register_leaves(nid, out)


def _outputs(names: tuple, result) -> dict:
    """``evaluate._as_outputs`` with the output names planned."""
    if isinstance(result, dict):
        return result
    if isinstance(result, tuple) and len(names) > 1 and len(result) == len(names):
        return dict(zip(names, result))
    return {names[0] if names else "out": result}
