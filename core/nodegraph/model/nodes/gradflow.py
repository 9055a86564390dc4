"""Gradient-flow nodes: ``grad.detach``, ``grad.no_grad``, ``grad.autograd_grad`` and ``probe.gradient``.

Semantics:
- ``grad.no_grad`` is a flag node: its output is its input's value evaluated under ``core.no_grad()``
  and detached, so nothing downstream records a graph back through it (the upstream nodes have already
  run; in a dataflow graph a "region" is the set of nodes whose only consumers pass through this flag).
- ``grad.autograd_grad`` outputs ``core.autograd.grad(outputs, inputs)``; with ``create_graph`` (default on)
  the gradient is itself differentiable, for gradient penalties and second-order graphs. ``retain_graph``
  defaults to on so a later ``backward`` of the loss still finds the graph.
- ``probe.gradient`` returns the current ``.grad`` of its input, or None before any backward. Evaluating
  it also calls ``retain_grad()`` on a non-leaf input that requires grad, so the value exists after the
  next backward. Contract: a session must re-evaluate probes AFTER ``backward`` to read fresh gradients.
"""

from __future__ import annotations

import core
from core.nodegraph.model.spec import EvalContext, NamedValues, NodeSpec, Param, Port, register


def _no_grad(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor:
    with core.no_grad():
        return inputs["x"].detach()


def _autograd_grad(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor | None:
    grads = core.autograd.grad(inputs["outputs"], inputs["inputs"], grad_outputs=inputs.get("grad_outputs"),
                               retain_graph=p["retain_graph"], create_graph=p["create_graph"],
                               allow_unused=p["allow_unused"])
    return grads[0]


def _probe(ctx: EvalContext, inputs: NamedValues, p: NamedValues) -> core.Tensor | None:
    x = inputs["x"]
    if isinstance(x, core.Tensor) and x.requires_grad and not x.is_leaf:
        x.retain_grad()
    return x.grad


register(NodeSpec("grad.detach", "grad", "detach", "the same values, cut from the autograd graph",
                  lambda ctx, inputs, p: inputs["x"].detach(), inputs=(Port("x"),), code="{x}.detach()"))
register(NodeSpec("grad.no_grad", "grad", "no_grad", "input evaluated without recording a graph (detached)",
                  _no_grad, inputs=(Port("x"),), code="{x}.detach()"))
register(NodeSpec(
    "grad.autograd_grad", "grad", "autograd.grad", "d outputs / d inputs as a value that can be used further",
    _autograd_grad, inputs=(Port("outputs"), Port("inputs"), Port("grad_outputs", optional=True)),
    outputs=(Port("out", "gradient"),),
    params=(Param("create_graph", "bool", True, doc="make the gradient differentiable (higher order)"),
            Param("retain_graph", "bool", True, doc="keep the graph for a later backward"),
            Param("allow_unused", "bool", False, doc="give None instead of an error for an unused input")),
    code="torch.autograd.grad({outputs}, {inputs}, grad_outputs={grad_outputs}, retain_graph={retain_graph}, "
         "create_graph={create_graph}, allow_unused={allow_unused})[0]"))
register(NodeSpec("probe.gradient", "probe", "Gradient", "the input's .grad (None before backward)", _probe,
                  inputs=(Port("x"),), outputs=(Port("out", "gradient"),), code="_probe({x})"))
