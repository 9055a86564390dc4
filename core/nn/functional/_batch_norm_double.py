"""Batch norm's gradients under ``create_graph=True`` as one node, PyTorch's
``NativeBatchNormBackwardBackward0``: its forward gives ``native_batch_norm_backward``'s kernel values (PyTorch
computes the first-order gradients with the kernel even while recording), its backward is FunctionsManual's
``batchnorm_double_backward`` term for term, with core ops, so second-order gradients (MAML's meta-gradients through
a BatchNorm layer: learn2learn, higher) round as PyTorch's and can be differentiated again.

NOTE: the formula's in-place steps (``div_``, ``sub_``, ``add_``) are the same values out of place; an undefined
incoming gradient (None) leaves its terms out, as PyTorch's.
"""

from __future__ import annotations

from core._tensor import Tensor
from core.autograd import forward_ad
from core.autograd.function import Function

__all__ = ["recorded_gradients"]


def _sum_exclude_dim1(t: Tensor, keepdim: bool = True) -> Tensor:
    r = t.sum(0, keepdim=keepdim)
    for dim in range(r.ndim - 1, 1 if keepdim else 0, -1):
        r = r.sum(dim, keepdim=keepdim)
    return r


def _unsqueeze_dim1(src: Tensor, target: Tensor) -> Tensor:
    while src.ndim < target.ndim - 1:
        src = src.unsqueeze(1)
    if src.ndim == target.ndim - 1:
        src = src.unsqueeze(0)
    return src


def _expand_as_dim1(src: Tensor, target: Tensor) -> Tensor:
    while src.ndim < target.ndim - 1:
        src = src.unsqueeze(1)
    return src.expand_as(target)


def _double_backward(x, gamma, ggI, ggG, ggB, gO, mean, invstd):
    """FunctionsManual's ``batchnorm_double_backward`` (training): ``(gI, gG, ggO)``; without affine parameters
    (``gamma`` None) its ``gamma_expanded`` is a 0-d one and there is no ``gG``."""
    gamma_expanded = x.new_ones(()) if gamma is None else _expand_as_dim1(gamma, x)
    ggG_expanded = None if ggG is None else _expand_as_dim1(ggG, x)
    ggB_expanded = None if ggB is None else _expand_as_dim1(ggB, x)
    m = x.shape[0]
    for s in x.shape[2:]:
        m *= s
    input_sub_mu = x - _unsqueeze_dim1(mean, x)
    sigma2_eps_neg_1_2 = _unsqueeze_dim1(invstd, x)
    sigma2_eps_neg_1 = sigma2_eps_neg_1_2.pow(2)
    sigma2_eps_neg_3_2 = sigma2_eps_neg_1_2.pow(3)
    input_mu_sigma2_neg_3_2 = input_sub_mu * sigma2_eps_neg_3_2
    gOinmu_sum = _sum_exclude_dim1(gO * input_sub_mu)
    gO_sum = _sum_exclude_dim1(gO)
    gI = None
    if ggI is not None:
        ggI_sum = _sum_exclude_dim1(ggI)
        ggIinmu_sum = _sum_exclude_dim1(ggI * input_sub_mu)
        all_sub = ((ggI_sum * gO_sum) / m - _sum_exclude_dim1(gO * ggI)
                   + (sigma2_eps_neg_1 * gOinmu_sum * ggIinmu_sum) * (3.0 / m))
        gI_0t = (input_mu_sigma2_neg_3_2 * all_sub) / m
        gI_1t = ((ggIinmu_sum * sigma2_eps_neg_3_2) / m) * (gO_sum / m - gO)
        gI_2t = ((gOinmu_sum * sigma2_eps_neg_3_2) / m) * (ggI_sum / m - ggI)
        gI = gamma_expanded * (gI_0t + gI_1t + gI_2t)
    if ggG is not None:
        t0 = gO * sigma2_eps_neg_1_2
        t1 = (sigma2_eps_neg_1_2 * gO_sum) / -m
        t2 = (input_mu_sigma2_neg_3_2 * _sum_exclude_dim1(gO * input_sub_mu)) / -m
        term = ggG_expanded * (t0 + t1 + t2)
        gI = term if gI is None else gI + term

    def first_back_grad_input(g, gam):
        h0 = (gam * sigma2_eps_neg_1_2) / m
        h1 = (g * m - _sum_exclude_dim1(g)) - input_sub_mu * sigma2_eps_neg_1 * _sum_exclude_dim1(g * input_sub_mu)
        return h0 * h1

    gG = ggO = None
    if ggI is not None:
        if gamma is not None:
            gG = _sum_exclude_dim1(ggI * first_back_grad_input(gO, x.new_ones(())), False)
        ggO = first_back_grad_input(ggI, gamma_expanded)
    if ggG is not None:
        term = ggG_expanded * input_sub_mu * sigma2_eps_neg_1_2
        ggO = term if ggO is None else ggO + term
    if ggB is not None:
        ggO = ggB_expanded if ggO is None else ggO + ggB_expanded
    return gI, gG, ggO


def _eval_double_backward(x, gamma, ggI, ggG, ggB, gO, mean, sigma):
    """``batchnorm_double_backward``'s evaluation-mode branches: the first backward is ``gO * sigma * gamma`` with
    the running statistics (``sigma`` their ``(var + eps) ** -0.5``), linear in ``gO``, so ``x`` gets only the
    gamma term's gradient and ``gO`` the input's."""
    sigma = _unsqueeze_dim1(sigma, x)
    gI = gG = ggO = None
    if gamma is not None and ggG is not None:
        gI = _expand_as_dim1(ggG, x) * sigma * gO
    if gamma is not None and ggI is not None:
        gG = _sum_exclude_dim1(ggI * gO * sigma, False)
    if ggI is not None:
        ggO = ggI * sigma * (x.new_ones(()) if gamma is None else _expand_as_dim1(gamma, x))
    if ggG is not None:
        term = _expand_as_dim1(ggG, x) * (x - _unsqueeze_dim1(mean, x)) * sigma
        ggO = term if ggO is None else ggO + term
    if ggB is not None:
        ggO = _expand_as_dim1(ggB, x) if ggO is None else ggO + _expand_as_dim1(ggB, x)
    return gI, gG, ggO


class NativeBatchNormBackward(Function):
    """``native_batch_norm_backward(grad_out, input, weight, ..., save_mean, save_invstd)``: the kernel's
    ``(grad_input, grad_weight, grad_bias)``, differentiable by ``batchnorm_double_backward``."""

    node_name = "NativeBatchNormBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, weight, mean, invstd, *, values, eps=None):
        ctx.save_for_backward(g, x, weight, mean, invstd)
        ctx.eval_eps = eps  # evaluation mode: ``mean`` and ``invstd`` are the running mean and variance
        ctx.set_materialize_grads(False)  # (a gradient that does not arrive is None: its terms are left out)
        return values

    @staticmethod
    def backward(ctx, ggI, ggG, ggB):
        g, x, weight, mean, invstd = ctx._unpacked
        if ggI is None and ggG is None and ggB is None:
            return None, None, None, None, None
        if ctx.eval_eps is None:
            gI, gG, ggO = _double_backward(x, weight, ggI, ggG, ggB, g, mean, invstd)
        else:
            sigma = invstd.add(ctx.eval_eps).pow(-0.5)
            gI, gG, ggO = _eval_double_backward(x, weight, ggI, ggG, ggB, g, mean, sigma)
        need = ctx.needs_input_grad
        return (ggO if need[0] else None, gI if need[1] else None, gG if need[2] else None, None, None)


def recorded_gradients(g: Tensor, x: Tensor, weight: Tensor | None, mean, invstd, values,
                       eps: float | None = None) -> tuple | None:
    """``values`` (the kernel's three gradients, arrays) through ``NativeBatchNormBackward``'s node; ``mean`` and
    ``invstd`` the forward's float32 statistics per channel (arrays), or with ``eps`` (evaluation mode) the running
    mean and variance. None under forward-mode AD with a dual operand (the node has no tangent rule: the caller's
    composite formula has)."""
    if forward_ad._state.token is not None and forward_ad.has_dual((g, x, weight)):
        return None
    stats = (Tensor._wrap(mean.reshape(-1)), Tensor._wrap(invstd.reshape(-1)))
    return NativeBatchNormBackward.apply(g, x, weight, *stats, values=tuple(values), eps=eps)
