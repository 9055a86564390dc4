"""``hardshrink``, ``softshrink``, ``rrelu`` and ``gumbel_softmax``, composed from core ops (so autograd
differentiates them) with PyTorch's defaults and argument errors."""

from __future__ import annotations

import core
from core.nn.functional.activation import leaky_relu, softmax

__all__ = ["hardshrink", "softshrink", "rrelu", "rrelu_", "gumbel_softmax"]


def hardshrink(input, lambd=0.5):
    """``x`` where ``|x| > lambd``, else 0."""
    return core.where(input.abs() > lambd, input, core.zeros_like(input))


def softshrink(input, lambd=0.5):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    zero = core.zeros_like(input)
    return core.where(input > lambd, input - lambd, core.where(input < -lambd, input + lambd, zero))


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU with a random slope in [lower, upper] per element while training, the mean slope otherwise."""
    if not training:
        return leaky_relu(input, (lower + upper) / 2, inplace=inplace)
    slope = core.empty_like(input).uniform_(lower, upper)
    out = core.where(input >= 0, input, input * slope)
    if inplace:
        with core.no_grad():
            input.copy_(out)
        return input
    return out


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """A differentiable sample from the categorical over ``logits``: softmax of Gumbel-perturbed logits.

    With ``hard=True`` the result is one-hot in forward and the soft sample's gradient in backward
    (the straight-through estimator).
    """
    gumbels = -core.empty_like(logits).exponential_().log()
    y_soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = core.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
