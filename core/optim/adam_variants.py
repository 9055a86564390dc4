"""``Adamax``, ``NAdam`` and ``RAdam``: PyTorch's single-tensor update rules, step for step.

Each keeps PyTorch's state names (``exp_avg``, ``exp_inf``, ``exp_avg_sq``, ``mu_product``,
``step``) and its scalar state as 0-d float32 tensors, so a state dict reads like torch's.
"""

from __future__ import annotations

import numpy as np

from core._backend import xp_of
from core._fused import lerp_, scaled_add
from core._tensor import new_tensor
from core.optim._pointwise import addcdiv_, addcmul_, sqrt
from core.optim.adam import _check
from core.optim.optimizer import Optimizer, scalar_dtype, state_tensor, step_tensor

__all__ = ["Adamax", "NAdam", "RAdam"]


def _signed(grad, group):
    return -grad if group["maximize"] else grad


def _moments(xp, grad, m, v, beta1, beta2) -> None:
    """``exp_avg.lerp_(grad, 1 - beta1)`` and ``exp_avg_sq.mul_(beta2).addcmul_(grad, grad, value=1 - beta2)``."""
    lerp_(xp, m, grad, 1 - beta1)
    v *= beta2
    addcmul_(xp, v, grad, grad, 1 - beta2)


class Adamax(Optimizer):
    """Adam with the infinity norm: divide by a decaying running maximum of |grad|."""

    _tensor_steps = True

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, foreach=None, *,
                 maximize=False, differentiable=False, capturable=False):
        _check(lr, eps, betas, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _update(self, group, p, grad, state):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = _signed(grad, group)
        if "exp_avg" not in state:
            state["exp_avg"], state["exp_inf"] = state_tensor(p), state_tensor(p)
        step = step_tensor(state)
        param = p._data
        xp = xp_of(param)
        if wd != 0:
            grad = scaled_add(xp, grad, param, wd)
        m, u = state["exp_avg"]._data, state["exp_inf"]._data
        lerp_(xp, m, grad, 1 - beta1)
        u *= beta2
        bound = xp.abs(grad)
        bound += eps
        xp.maximum(u, bound, out=u)
        addcdiv_(xp, param, m, u, -(lr / (1 - beta1 ** step)))


class NAdam(Optimizer):
    """Adam with Nesterov momentum and PyTorch's momentum-decay schedule ``mu_t``."""

    _tensor_steps = True

    def __init__(self, params, lr=2e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, momentum_decay=4e-3,
                 decoupled_weight_decay=False, *, foreach=None, maximize=False, capturable=False,
                 differentiable=False):
        _check(lr, eps, betas, weight_decay)
        if momentum_decay < 0.0:
            raise ValueError(f"Invalid momentum_decay value: {momentum_decay}")
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      momentum_decay=momentum_decay, decoupled_weight_decay=decoupled_weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable))

    def _update(self, group, p, grad, state):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = _signed(grad, group)
        if "exp_avg" not in state:
            state["mu_product"] = new_tensor(np.ones((), dtype=scalar_dtype()))
            state["exp_avg"], state["exp_avg_sq"] = state_tensor(p), state_tensor(p)
        step = step_tensor(state)
        param = p._data
        xp = xp_of(param)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * wd
            else:
                grad = scaled_add(xp, grad, param, wd)
        decay = group["momentum_decay"]
        mu = beta1 * (1.0 - 0.5 * 0.96 ** (step * decay))
        mu_next = beta1 * (1.0 - 0.5 * 0.96 ** ((step + 1) * decay))
        product = state["mu_product"]._data
        product *= product.dtype.type(mu)
        mu_product = float(product)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _moments(xp, grad, m, v, beta1, beta2)
        if group["foreach"]:  # torch's multi-tensor NAdam: _foreach_sqrt(v), then divided by sqrt(bias_correction2)
            denom = sqrt(xp, v)
            denom /= (1 - beta2 ** step) ** 0.5
        else:
            denom = sqrt(xp, v / (1 - beta2 ** step))
        denom += eps
        addcdiv_(xp, param, grad, denom, -lr * (1.0 - mu) / (1.0 - mu_product))
        addcdiv_(xp, param, m, denom, (-lr * mu_next) / (1.0 - mu_product * mu_next))


class RAdam(Optimizer):
    """Adam with the variance rectification term; plain momentum SGD while the rectifier is undefined."""

    _tensor_steps = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, decoupled_weight_decay=False,
                 *, foreach=None, maximize=False, capturable=False, differentiable=False):
        _check(lr, eps, betas, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      maximize=maximize, foreach=foreach, capturable=capturable,
                                      decoupled_weight_decay=decoupled_weight_decay, differentiable=differentiable))

    def _update(self, group, p, grad, state):
        lr, (beta1, beta2), eps, wd = group["lr"], group["betas"], group["eps"], group["weight_decay"]
        grad = _signed(grad, group)
        if "exp_avg" not in state:
            state["exp_avg"], state["exp_avg_sq"] = state_tensor(p), state_tensor(p)
        step = step_tensor(state)
        param = p._data
        xp = xp_of(param)
        if wd != 0:
            if group["decoupled_weight_decay"]:
                param *= 1 - lr * wd
            else:
                grad = scaled_add(xp, grad, param, wd)
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        _moments(xp, grad, m, v, beta1, beta2)
        bias_correction1, bias_correction2 = 1 - beta1 ** step, 1 - beta2 ** step
        rho_inf = 2 / (1 - beta2) - 1
        rho_t = rho_inf - 2 * step * (beta2 ** step) / bias_correction2
        if group["foreach"]:
            return _radam_multi_tensor(xp, param, m, v, lr, eps, rho_inf, rho_t, bias_correction1, bias_correction2)
        update = m / bias_correction1
        update *= lr
        if rho_t > 5.0:  # (torch's ``** 0.5`` of Python floats, and ``float / tensor`` as reciprocal() * float)
            rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5
            adaptive = sqrt(xp, v)
            adaptive += eps
            xp.reciprocal(adaptive, out=adaptive)
            adaptive *= bias_correction2 ** 0.5
            update *= adaptive
            update *= rect
        param -= update


def _radam_multi_tensor(xp, param, m, v, lr, eps, rho_inf, rho_t, bias_correction1, bias_correction2) -> None:
    """torch's multi-tensor RAdam step (``foreach=True``), which rounds differently from its single-tensor one:
    ``param += exp_avg * (1 / ((sqrt(v) + eps) / s2) + s1)`` (``_foreach_addcmul_``: one rounding), where s2 is the
    rectified step size and s1 the unrectified one, one of them 0."""
    rect = ((rho_t - 4) * (rho_t - 2) * rho_inf / ((rho_inf - 4) * (rho_inf - 2) * rho_t)) ** 0.5 if rho_t > 5 else 0
    unrect_step_size = (lr * (0 if rect > 0 else 1.0) / bias_correction1) * -1
    scaled = (bias_correction2 ** 0.5) * (lr * rect / bias_correction1) * -1
    buffer = sqrt(xp, v)
    buffer += eps
    with np.errstate(divide="ignore"):  # (unrectified: scaled is -0.0, so 1 / (x / -0.0) is -0.0)
        buffer /= scaled
        xp.reciprocal(buffer, out=buffer)
    buffer += unrect_step_size
    addcmul_(xp, param, m, buffer)
