"""Activations' first derivatives as ops of their own, recorded under ``create_graph=True`` as PyTorch records its
``*_backward`` ops (``EluBackwardBackward0``, ``HardswishBackwardBackward0``, ``SoftplusBackwardBackward0``...).

A backward that records (``create_graph=True``, ``torch.func``'s transforms) calls ``recorded(Op, first, double, g,
x, *params)``: one node whose forward is the activation's own backward (``first(g, x, *params)``, which runs
PyTorch's kernel since nothing is recorded inside it) and whose backward is PyTorch's pair of formulas from
``derivatives.yaml``: d/d grad_output is the op itself, d/d self is ``double(gg, g, x, *params)`` (FunctionsManual's
``*_double_backward``). So ``x.grad``'s graph carries torch's node names, the second derivatives torch's values
(ELU's is 0 at x = 0: the ``x < 0`` factor), and a derivative torch does not implement raises as torch's does.
Every ``double`` is elementwise and linear in ``gg``, so the forward-mode rule is ``first(tg) + double(tx)``.
"""

from __future__ import annotations

import math

import core
from core.autograd.function import Function

__all__ = ["recorded", "grad_op", "elu_double", "hardswish_double", "softplus_double", "gelu_double",
           "logsigmoid_double", "zero_double", "not_implemented"]


class _ActivationGrad(Function):
    node_name = "ActivationBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, *, first, double, params):
        ctx.first, ctx.double, ctx.params = first, double, params
        ctx.save_for_backward(g, x)
        return first(g, x, *params)._data

    @classmethod
    def backward(cls, ctx, gg):
        g, x = ctx._unpacked
        return (recorded(cls, ctx.first, ctx.double, gg, x, *ctx.params) if ctx.needs_input_grad[0] else None,
                ctx.double(gg, g, x, *ctx.params) if ctx.needs_input_grad[1] else None)

    @classmethod
    def jvp(cls, ctx, tg, tx):
        g, x = ctx.inputs
        first, double, params = ctx.kw["first"], ctx.kw["double"], ctx.kw["params"]
        total = None if tg is None else recorded(cls, first, double, tg, x, *params)
        if tx is not None:
            extra = double(tx, g, x, *params)
            total = extra if total is None else total + extra
        return core.zeros_like(g) if total is None else total


def grad_op(name: str) -> type:
    """The op class recorded under PyTorch's node ``name``."""
    return type(name, (_ActivationGrad,), {"node_name": name})


def recorded(op, first, double, g, x, *params):
    """``first(g, x, *params)``, as one ``op`` node when a graph is recorded (same shapes and dtype; a broadcast
    incoming gradient, a batch of tangents, or mixed dtypes keep ``first``'s composite formula)."""
    if core.is_grad_enabled() and g.shape == x.shape and g.dtype == x.dtype:
        return op.apply(g, x, first=first, double=double, params=params)
    return first(g, x, *params)


def elu_double(gg, g, x, alpha, scale, input_scale):
    """FunctionsManual's ``elu_double_backward`` (not is_result): ``elu_backward(gg g input_scale, x) * (x < 0)``."""
    from core.nn.functional.activation import elu_backward

    return elu_backward(gg * g * input_scale, x, alpha, scale, input_scale) * (x < 0).type_as(gg)


def hardswish_double(gg, g, x):
    """derivatives.yaml's ``hardswish_backward`` self: ``where(-3 < x < 3, gg g / 3, 0)``."""
    return core.where(core.logical_and(x > -3.0, x < 3.0), gg * g / 3.0, core.zeros((), dtype=x.dtype,
                                                                                    device=x.device))


def softplus_double(gg, g, x, beta, threshold):
    """``softplus_double_backward(gg g, x)``: ``sigmoid_backward(gg g, sigmoid(x beta)) * (x beta < threshold) *
    beta``."""
    z = x * beta
    s = z.sigmoid()
    return gg * g * (1 - s) * s * (z < threshold).type_as(gg) * beta


def gelu_double(gg, g, x, approximate, *kernel):
    """FunctionsManual's ``gelu_double_backward``, both forms, term for term."""
    if approximate == "tanh":
        beta, kappa = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5, 0.044715
        inner = beta * (x + kappa * x.pow(3))
        tanh_inner, sech_inner = inner.tanh(), 1 / inner.cosh()
        f, q, h = 0.5 * x, 1 - tanh_inner * tanh_inner, beta * (1 + 3 * kappa * x * x)
        f_prime_qh = 0.5 * q * h
        q_prime_fh = f * h * ((2 * sech_inner) * (-sech_inner * tanh_inner) * h)
        h_prime_fq = f * q * (6 * kappa * x * beta)
        return gg * g * (f_prime_qh + f_prime_qh + q_prime_fh + h_prime_fq)
    beta = (2 / math.sqrt(math.pi)) * math.sqrt(0.5) * 0.5
    x_sq = x * x
    pdf = beta * (-0.5 * x_sq).exp()
    return gg * g * (2 * pdf - x_sq * pdf)


def logsigmoid_double(gg, g, x, *kernel):
    """``log_sigmoid_double_backward(gg g, x)``: ``gg g (sigmoid(x) - 1) sigmoid(x)``."""
    z = x.sigmoid()
    return gg * g * (z - 1) * z


def zero_double(gg, g, x, *params):
    """The shrink ops' d/d self: zeros (the gradient is connected to the input, as PyTorch's)."""
    return core.zeros_like(gg)


def not_implemented(name: str):
    """A d/d self that PyTorch does not implement: its error when the second derivative is asked for."""
    def double(gg, g, x, *params):
        raise RuntimeError(f"derivative for aten::{name} is not implemented")
    return double
