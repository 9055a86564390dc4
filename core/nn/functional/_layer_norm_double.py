"""Layer norm's gradients under ``create_graph=True`` as one node, PyTorch's ``NativeLayerNormBackwardBackward0``:
its forward gives ``native_layer_norm_backward``'s kernel values (PyTorch computes the first-order gradients with the
kernel even while recording), its backward is FunctionsManual's ``layer_norm_double_backward`` term for term, with
core ops, so second-order gradients (a transformer's MAML meta-gradient, a gradient penalty through a LayerNorm)
round as PyTorch's and can be differentiated again.

The node's edges are ``native_layer_norm_backward``'s differentiable arguments in order: ``(grad_out, input, mean,
rstd, weight, bias)``; the statistics never require grad, and the bias gets no gradient (``bias: Tensor()``).

NOTE: the formula's in-place steps (``div_``, ``sub_``, ``add_``, ``mul_``) are the same values and node names out of
place; a C++ Scalar operand is ``core.ops.scalar_forms``' (``MulBackward1``/``DivBackward1``); an undefined incoming
gradient (None) leaves its terms out, as PyTorch's.
"""

from __future__ import annotations

import math

from core._tensor import Tensor
from core.autograd import forward_ad
from core.autograd.function import Function
from core.ops.scalar_forms import div_s, mul_s

__all__ = ["recorded_gradients"]


def _input_terms(gO, gamma_e, ggI, ggG_e, xmu, rstd, sig1, n):
    """``gI``: the gradient w.r.t. the input, from ``ggI`` and (with affine parameters) ``ggG``; None if neither."""
    sig3 = rstd.pow(3)
    xmu_sig3 = xmu * sig3
    gI = None
    if ggI is not None:
        gxhat = gO * gamma_e
        gxhat_mu_sum = (gxhat * xmu).sum(1, True)
        gxhat_sum = gxhat.sum(1, True)
        ggI_sum = ggI.sum(1, True)
        ggI_mu_sum = (ggI * xmu).sum(1, True)
        all_sub = (div_s(ggI_sum * gxhat_sum, n) - (ggI * gxhat).sum(1, True)
                   + mul_s(sig1 * gxhat_mu_sum * ggI_mu_sum, 3.0 / n))
        gI_0t = div_s(xmu_sig3 * all_sub, n)
        gI_1t = div_s(ggI_mu_sum * sig3, n) * (div_s(gxhat_sum, n) - gxhat)
        gI_2t = div_s(gxhat_mu_sum * sig3, n) * (div_s(ggI_sum, n) - ggI)
        gI = gI_0t + gI_1t + gI_2t
    if ggG_e is not None:
        t0 = gO * ggG_e * rstd
        t1 = div_s(rstd * (gO * ggG_e).sum(1, True), -n)
        t2 = div_s(xmu_sig3 * (gO * ggG_e * xmu).sum(1, True), -n)
        term = t0 + t1 + t2
        gI = term if gI is None else gI + term
    return gI


def _first_grad_input(g, gamma, xmu, rstd, sig1, n):
    """The first backward's grad_input for an incoming gradient ``g`` (FunctionsManual's first_bwd_fn_grad_input)."""
    h0 = div_s(gamma * rstd, n)
    h1 = mul_s(g, n) - g.sum(1, True) - xmu.mul(sig1) * (g * xmu).sum(1, True)
    return h0 * h1


def _double_backward(x_t, gamma, ggI, ggG, ggB, gO_t, mean, rstd, k):
    """FunctionsManual's ``layer_norm_double_backward``: ``(gI, gG, ggO)`` over the rows ``(M, N)`` of ``x_t``
    normalised over its last ``k`` dims."""
    m = math.prod(x_t.shape[:x_t.ndim - k])
    n = math.prod(x_t.shape[x_t.ndim - k:])
    x, gO = x_t.reshape(m, n), gO_t.reshape(m, n)
    mean, rstd = mean.reshape(m, 1), rstd.reshape(m, 1)
    gamma_e = x.new_ones((1,)) if gamma is None else gamma.reshape(1, n)
    ggG_e = None if gamma is None or ggG is None else ggG.reshape(1, n)
    ggB_e = None if gamma is None or ggB is None else ggB.reshape(1, n)
    ggI_e = None if ggI is None else ggI.reshape(m, n)
    xmu, sig1 = x - mean, rstd.pow(2)
    gI = _input_terms(gO, gamma_e, ggI_e, ggG_e, xmu, rstd, sig1, n)
    if gI is not None:
        gI = gI.reshape_as(x_t)
    gG = ggO = None
    if gamma is not None and ggI_e is not None:
        gG = (gO * _first_grad_input(ggI_e, rstd.new_ones(()), xmu, rstd, sig1, n)).sum(0).reshape_as(gamma)
    if ggI_e is not None:
        ggO = _first_grad_input(ggI_e, gamma_e, xmu, rstd, sig1, n)
    if ggG_e is not None:
        term = ggG_e * xmu * rstd
        ggO = term if ggO is None else ggO + term
    if ggB_e is not None:
        ggO = ggB_e if ggO is None else ggO + ggB_e
    if ggO is not None:
        ggO = ggO.expand(m, n).reshape_as(x_t)
    return gI, gG, ggO


class NativeLayerNormBackward(Function):
    """``native_layer_norm_backward(grad_out, input, normalized_shape, mean, rstd, weight, bias, mask)``: the
    kernel's ``(grad_input, grad_weight, grad_bias)``, differentiable by ``layer_norm_double_backward``."""

    node_name = "NativeLayerNormBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, mean, rstd, weight, bias, *, k, values):
        ctx.save_for_backward(g, x, mean, rstd, weight)
        ctx.k = k
        ctx.set_materialize_grads(False)  # (a gradient that does not arrive is None: its terms are left out)
        return values

    @staticmethod
    def backward(ctx, ggI, ggG, ggB):
        g, x, mean, rstd, weight = ctx._unpacked
        if ggI is None and ggG is None and ggB is None:
            return (None,) * 6
        gI, gG, ggO = _double_backward(x, weight, ggI, ggG, ggB, g, mean, rstd, ctx.k)
        need = ctx.needs_input_grad
        return (ggO if need[0] else None, gI if need[1] else None, None, None, gG if need[4] else None, None)


def recorded_gradients(g: Tensor, x: Tensor, weight, bias, mean, rstd, k: int, values) -> tuple | None:
    """``values`` (the kernel's three gradients, arrays or None) through ``NativeLayerNormBackward``'s node;
    ``mean`` and ``rstd`` the forward's statistics per row (arrays). None under forward-mode AD with a dual
    operand (the node has no tangent rule: the caller's composite formula has)."""
    if forward_ad._state.token is not None and forward_ad.has_dual((g, x, weight, bias)):
        return None
    stats = (Tensor._wrap(mean.reshape(-1)), Tensor._wrap(rstd.reshape(-1)))
    return NativeLayerNormBackward.apply(g, x, *stats, weight, bias, k=k, values=tuple(values))
