"""``hardshrink``, ``softshrink``, ``rrelu`` and ``gumbel_softmax``, composed from core ops (so autograd
differentiates them) with PyTorch's defaults and argument errors."""

from __future__ import annotations

import numpy as np

import core
from core._scalar_fit import check_scalar_fits
from core.autograd.function import Function
from core.nn.functional import activation_kernels as kernels
from core.nn.functional.activation import (
    LeakyRelu,
    _float_check,
    _grad_op,
    _Inplace,
    leaky_relu,
    nn_out,
    slope_activation,
    softmax,
)
from core.ops._strided import row_major
from core.ops._util import xp_of
from core.ops.elementwise import check_inplace, write_inplace

__all__ = ["hardshrink", "softshrink", "rrelu", "rrelu_", "gumbel_softmax"]


def hardshrink(input, lambd=0.5, *, out=None):
    """``x`` where ``|x| > lambd``, else 0."""
    _float_check(input, "hardshrink_cpu")
    check_scalar_fits(lambd, input.dtype)
    return nn_out(kernels.Hardshrink.apply(input, lambd=lambd), out, input)


def _check_lambda_fits(lambd, dtype) -> None:
    """torch's softshrink refuses a lambda past its input dtype's largest value, in its own words."""
    limits = {"float32": (3.4028234663852886e38, "Float"), "float16": (65504.0, "Half"),
              "bfloat16": (3.3895313892515355e38, "BFloat16")}
    if dtype.name in limits and isinstance(lambd, (int, float)) and lambd > limits[dtype.name][0]:
        top, name = limits[dtype.name]
        raise RuntimeError(f"lambda must be in range [0, {top:g}] for input dtype {name}, but found {lambd:g}")


def softshrink(input, lambd=0.5, *, out=None):
    """``x - lambd`` above ``lambd``, ``x + lambd`` below ``-lambd``, else 0."""
    if lambd < 0:
        raise RuntimeError(f"lambda must be greater or equal to 0, but found to be {lambd}.")
    _float_check(input, "softshrink_check")
    _check_lambda_fits(lambd, input.dtype)
    return nn_out(kernels.Softshrink.apply(input, lambd=lambd), out, input)


class _RreluWithNoise(Function):
    """``input * noise`` (the drawn slopes, 1 for positive elements): PyTorch's node, named as PyTorch names it."""

    node_name = "RreluWithNoiseBackward0"

    @staticmethod
    def forward(ctx, input, noise):
        ctx.save_for_backward(noise)
        out = input._data * noise._data
        flags = getattr(out, "flags", None)  # torch's kernel writes a contiguous output (a channels-last input too)
        return out.copy(order="C") if flags is not None and not flags.c_contiguous else out

    @staticmethod
    def backward(ctx, g):
        (noise,) = ctx._unpacked
        return g * noise, None


class _RreluWithNoiseInplace(Function):
    """``rrelu_`` while training: ``input *= noise``, recorded as PyTorch's in-place overload's node."""

    node_name = "RreluWithNoiseBackward1"

    @staticmethod
    def forward(ctx, input, noise):
        ctx.save_for_backward(noise)
        xp_of(input._data).copyto(input._data, input._data * noise._data, casting="unsafe")
        ctx.mark_dirty(input)
        return input

    @staticmethod
    def backward(ctx, g):
        (noise,) = ctx._unpacked
        return g * noise, None


class _RreluEval(LeakyRelu):
    """``rrelu`` in eval: leaky_relu with the mean slope, as PyTorch's ``rrelu_with_noise`` node (a recorded
    backward: its ``rrelu_with_noise_backward`` op, d/d self zeros as leaky_relu_backward's)."""

    node_name = "RreluWithNoiseBackward0"
    grad_op = _grad_op("RreluWithNoiseBackwardBackward0")
    _saved_negative_slope = None  # (torch's node keeps lower, upper, training and its noise buffer instead)

    @staticmethod
    def forward(ctx, x, *, fn, keep=()):  # NOTE: torch's kernel writes into a contiguous output (LEGACY_CONTIGUOUS
        return row_major(LeakyRelu.forward(ctx, x, fn=fn, keep=keep))  # empty_like)


class _RreluEvalInplace(_Inplace):
    """``rrelu_`` in eval: leaky_relu_ with the mean slope, under PyTorch's rrelu_with_noise_ node."""

    inner = LeakyRelu
    node_name = "RreluWithNoiseBackward1"


def _records(input) -> bool:
    return input.requires_grad and core.is_grad_enabled()


def rrelu(input, lower=1.0 / 8, upper=1.0 / 3, training=False, inplace=False):
    """Leaky ReLU with a random slope in [lower, upper] per element while training, the mean slope otherwise."""
    if not training:  # the mean slope, through PyTorch's rrelu_with_noise node
        if inplace and _records(input):
            _float_check(input, "leaky_relu_cpu")
            check_inplace(input)
            mid = (lower + upper) / 2

            def fn(a):
                slope = xp_of(a).where(a > 0, 1, mid).astype(a.dtype)
                return a * slope, slope
            return _RreluEvalInplace.apply(input, fn=fn)
        if inplace:
            return leaky_relu(input, (lower + upper) / 2, inplace=True)
        return slope_activation(_RreluEval, input, (lower + upper) / 2, False)
    if inplace:
        check_inplace(input)
    # NOTE: as PyTorch's CPU kernel: one float64 draw (lower + u * (upper - lower)) per element <= 0, in memory order,
    # rounded to the input's dtype, with lower and upper first rounded to float32 for a float32 (or half) input;
    # positive elements draw nothing and keep a slope of 1
    if input.dtype != core.float64:
        lower, upper = float(np.float32(lower)), float(np.float32(upper))
    with core.no_grad():
        negative = input <= 0
        draws = core.rand(int(negative.sum()), dtype=core.float64, device=input.device) * (upper - lower) + lower
        slope = core.ones_like(input)
        slope[negative] = draws.to(input.dtype)
    if not inplace:
        return _RreluWithNoise.apply(input, slope)
    if _records(input):
        return _RreluWithNoiseInplace.apply(input, slope)
    write_inplace(input, input._data * slope._data)
    return input


def rrelu_(input, lower=1.0 / 8, upper=1.0 / 3, training=False):
    return rrelu(input, lower, upper, training, inplace=True)


def gumbel_softmax(logits, tau=1.0, hard=False, eps=1e-10, dim=-1):
    """A differentiable sample from the categorical over ``logits``: softmax of Gumbel-perturbed logits.

    With ``hard=True`` the result is one-hot in forward and the soft sample's gradient in backward
    (the straight-through estimator).
    """
    gumbels = -core.empty_like(logits, memory_format=core.contiguous_format).exponential_().log()  # (legacy_contiguous)
    y_soft = softmax((logits + gumbels) / tau, dim)
    if not hard:
        return y_soft
    index = y_soft.max(dim, keepdim=True)[1]
    y_hard = core.zeros_like(logits).scatter_(dim, index, 1.0)
    return y_hard - y_soft.detach() + y_soft
