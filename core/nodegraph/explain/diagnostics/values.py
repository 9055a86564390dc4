"""Value rules: the first node where NaN/Inf appears, and a loss that stays flat or diverges."""

from __future__ import annotations

import math
from collections.abc import Iterator

import core
from core.nodegraph.explain.diagnostics._base import Hint, RuleContext, rule
from core.nodegraph.model.numtext import scalar

FLAT_STEPS = 10  # a loss trajectory this long that barely moves is "flat"
FLAT_CHANGE = 1e-4  # relative change below which the loss counts as not moving
DIVERGE_STEPS = 5
_UNSAFE = {"math.log": "clamp the input above 0 (x.clamp_min(1e-12)) or work in log-space (log_softmax)",
           "math.sqrt": "clamp the input to >= 0 (and add a small eps before sqrt if it is differentiated at 0)",
           "math.div": "keep the denominator away from 0 (add a small eps)",
           "math.pow": "check the base's sign and size (negative ** fraction is nan; large powers overflow)",
           "math.exp": "subtract the maximum before exp (logsumexp, softmax) or use the log-space form",
           "loss.bce": "feed probabilities strictly inside (0, 1), or use bce_with_logits on the logits"}


def _finite(t: core.Tensor) -> bool:
    if not (t.is_floating_point() or t.is_complex()) or t.numel() == 0:
        return True
    with core.no_grad():
        return bool(core.isfinite(t.detach()).all())


@rule("non_finite")
def non_finite(ctx: RuleContext) -> Iterator[Hint]:
    """The first node (topological order) that turns finite inputs into NaN/Inf; and non-finite gradients."""
    for nid in ctx.order:
        bad = [p for p, t in ctx.tensors(nid).items() if not _finite(t)]
        if not bad:
            continue
        ins = [t for t in ctx.inputs(nid).values() if isinstance(t, core.Tensor)]
        if all(_finite(t) for t in ins):
            kind = "nan" if any(bool(core.isnan(ctx.tensors(nid)[p].detach()).any()) for p in bad) else "inf"
            origin = "from finite inputs" if ins else "in its values"
            fix = _UNSAFE.get(ctx.type_of(nid), "check this op's input range; lower the learning rate if it only "
                                                "appears after some training steps")
            yield Hint(nid, "non_finite", "error", f"{kind} first appears here ({', '.join(bad)}), {origin}", fix)
            break
    for key, t in ctx.session.parameters().items():
        if t.grad is not None and not _finite(t.grad):
            yield Hint(ctx.node_of_key(key), "non_finite", "error",
                       f"the gradient of {ctx.parameter_label(key)} holds nan or inf",
                       "find the first nan in the forward values; lower the learning rate or clip gradients")
            break


def _lr_text(ctx: RuleContext, factor: float) -> str:
    lr = ctx.lr()
    return f" (now {lr:g}; try {lr * factor:g})" if lr else ""


@rule("loss_diverging")
def loss_diverging(ctx: RuleContext) -> Iterator[Hint]:
    losses = ctx.losses
    if not losses:
        return
    if not all(math.isfinite(v) for v in losses):
        yield Hint(ctx.loss_id(), "loss_diverging", "error", "the loss became nan or inf during training",
                   "lower the learning rate" + _lr_text(ctx, 0.1))
        return
    if len(losses) >= DIVERGE_STEPS and losses[-1] > losses[0] and losses[-1] > 2 * min(losses) + 1e-12:
        yield Hint(ctx.loss_id(), "loss_diverging", "warning",
                   f"the loss is growing: {scalar(losses[0])} at the start, {scalar(losses[-1])} now",
                   "lower the learning rate" + _lr_text(ctx, 0.1))


@rule("loss_flat")
def loss_flat(ctx: RuleContext) -> Iterator[Hint]:
    window = ctx.losses[-FLAT_STEPS:]
    if len(window) < FLAT_STEPS or not all(math.isfinite(v) for v in window):
        return
    scale = max(abs(window[0]), 1e-12)
    if abs(window[0]) > 1e-8 and (max(window) - min(window)) / scale < FLAT_CHANGE:
        yield Hint(ctx.loss_id(), "loss_flat", "warning",
                   f"the loss has not moved over the last {FLAT_STEPS} steps (about {scalar(window[-1])})",
                   "raise the learning rate" + _lr_text(ctx, 10.0) + ", and check that gradients reach the "
                   "parameters (no detach, zero_grad/step in the loop)")
