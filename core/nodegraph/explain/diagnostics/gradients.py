"""Gradient rules: no gradient path, accumulation without zero_grad, exploding or vanishing gradient
norms, and a second backward without ``retain_graph``."""

from __future__ import annotations

import math
from collections.abc import Iterator

from core.nodegraph.explain.diagnostics._base import Hint, RuleContext, rule, tensor_norm

CUTTING_TYPES = ("grad.detach", "grad.no_grad")
EXPLODING = 1e3  # a gradient norm above this is "exploding"
VANISHING = 1e-7  # below this (with a loss that is not ~0) it is "vanishing"
_SECOND_BACKWARD = "backward through the graph a second time"


def _cut_on_path(ctx: RuleContext, nid: str, loss: str) -> str | None:
    """A detach/no_grad node between ``nid`` and the loss, if any."""
    between = ctx.graph.descendants(nid) & (ctx.graph.ancestors(loss) | {loss})
    return next((n for n in ctx.order if n in between and ctx.type_of(n) in CUTTING_TYPES), None)


@rule("no_gradient_path")
def no_gradient_path(ctx: RuleContext) -> Iterator[Hint]:
    """After a finished backward: parameters (and grad-enabled sources) that got no gradient."""
    s = ctx.session
    if s.backward_in_progress or s.ledger.backward_calls == 0:
        return
    loss = ctx.loss_id()
    for key in s.no_gradient_parameters():
        nid = ctx.node_of_key(key)
        if nid is None:
            continue
        cut = _cut_on_path(ctx, nid, loss) if loss else None
        if cut is not None:
            why = f"the path to the loss is cut at node '{ctx.label(cut)}' ({ctx.type_of(cut)})"
            fix = f"remove the {ctx.type_of(cut).split('.')[1]} on its path if it should train"
        elif loss is None or loss not in ctx.graph.descendants(nid):
            why = "it is not connected to the loss"
            fix = "connect it to the computation that leads to the loss, or remove it"
        else:
            why = "no differentiable path from the loss reaches it (an integer or non-differentiable op?)"
            fix = "check the ops between it and the loss (argmax, comparisons, casts cut gradients)"
        yield Hint(nid, "no_gradient_path", "warning",
                   f"{ctx.parameter_label(key)} got no gradient from the last backward: {why}", fix)


@rule("grad_accumulation")
def grad_accumulation(ctx: RuleContext) -> Iterator[Hint]:
    """A leaf whose .grad sums several backward calls since the last zero_grad."""
    for key, entries in ctx.session.ledger.entries.items():
        calls = sorted({c.backward_call for c in entries})
        if len(calls) > 1:
            nid = ctx.node_of_key(key)
            yield Hint(nid, "grad_accumulation", "warning",
                       f"{ctx.parameter_label(key)}.grad is the sum of {len(calls)} backward calls since the last "
                       "zero_grad (gradients accumulate)",
                       "call zero_grad() before each backward (optimizer.zero_grad() at the top of the training loop)")


def _grad_norms(ctx: RuleContext) -> dict[str, float]:
    out = {}
    for key, t in ctx.session.parameters().items():
        if t.grad is not None:
            out[key] = tensor_norm(t.grad)
    return out


@rule("exploding_gradient")
def exploding_gradient(ctx: RuleContext) -> Iterator[Hint]:
    for key, norm in _grad_norms(ctx).items():
        if math.isfinite(norm) and norm > EXPLODING:
            lr = ctx.lr()
            yield Hint(ctx.node_of_key(key), "exploding_gradient", "warning",
                       f"gradient norm of {ctx.parameter_label(key)} is {norm:.3g} (above {EXPLODING:g})",
                       "lower the learning rate" + (f" (now {lr:g})" if lr else "") + ", normalise the inputs, "
                       "or clip with clip_grad_norm_")


@rule("vanishing_gradient")
def vanishing_gradient(ctx: RuleContext) -> Iterator[Hint]:
    loss = ctx.loss_value()
    if loss is None or abs(loss) <= 1e-6:
        return
    for key, norm in _grad_norms(ctx).items():
        if norm < VANISHING:
            yield Hint(ctx.node_of_key(key), "vanishing_gradient", "warning",
                       f"gradient norm of {ctx.parameter_label(key)} is {norm:.3g} while the loss is {loss:.3g}",
                       "check for saturated activations (sigmoid/tanh) or dead ReLUs; try ReLU/GELU, a better "
                       "initialisation or normalisation")


@rule("backward_twice")
def backward_twice(ctx: RuleContext) -> Iterator[Hint]:
    for nid in ctx.order:
        err = ctx.error(nid)
        if err is not None and err.phase == "backward" and _SECOND_BACKWARD in err.message:
            where = f" (needed by {ctx.label(err.origin)}, {err.autograd_node})" if err.origin else ""
            yield Hint(nid, "backward_twice", "error",
                       f"backward ran a second time through a graph whose saved tensors were freed{where}",
                       "run forward again before each backward (Forward all), or switch on Retain graph "
                       "(retain_graph=True) before the first backward")
