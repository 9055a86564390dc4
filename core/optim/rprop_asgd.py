"""``Rprop`` (sign-based steps with per-element step sizes) and ``ASGD`` (averaged SGD), as PyTorch updates them."""

from __future__ import annotations

import math

import numpy as np

from core._backend import xp_of
from core._fused import fma_, scaled_add, scaled_add_
from core._tensor import new_tensor
from core.optim.optimizer import Optimizer, scalar_dtype, state_tensor, step_tensor

__all__ = ["Rprop", "ASGD"]


class Rprop(Optimizer):
    """Grow a step size where the gradient's sign holds, shrink it (and skip the step) where it flips."""

    _tensor_steps = True

    def __init__(self, params, lr=1e-2, etas=(0.5, 1.2), step_sizes=(1e-6, 50), *, capturable=False, foreach=None,
                 maximize=False, differentiable=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < etas[0] < 1.0 < etas[1]:
            raise ValueError(f"Invalid eta values: {etas[0]}, {etas[1]}")
        super().__init__(params, dict(lr=lr, etas=tuple(etas), step_sizes=tuple(step_sizes), foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, capturable=capturable))

    def _update(self, group, p, grad, state):
        (etaminus, etaplus), (lo, hi) = group["etas"], group["step_sizes"]
        grad = -grad if group["maximize"] else grad.copy()
        if "prev" not in state:
            state["prev"] = state_tensor(p)
            state["step_size"] = state_tensor(p, group["lr"])
        step_tensor(state)
        xp = xp_of(p._data)
        prev, size = state["prev"]._data, state["step_size"]._data
        sign = xp.sign(grad * prev)
        factor = xp.where(sign > 0, etaplus, xp.where(sign < 0, etaminus, 1.0)).astype(size.dtype)
        size *= factor
        xp.clip(size, lo, hi, out=size)
        grad[factor == np.asarray(etaminus, dtype=size.dtype)] = 0
        p._data -= xp.sign(grad) * size
        prev[...] = grad


class ASGD(Optimizer):
    """SGD with a decaying step ``eta`` and a running average ``ax`` of the iterates after ``t0`` steps."""

    def __init__(self, params, lr=1e-2, lambd=1e-4, alpha=0.75, t0=1e6, weight_decay=0, foreach=None,
                 maximize=False, differentiable=False, capturable=False):
        if lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        super().__init__(params, dict(lr=lr, lambd=lambd, alpha=alpha, t0=t0, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize, differentiable=differentiable,
                                      capturable=capturable))

    def _update(self, group, p, grad, state):
        lr, lambd, alpha, t0, wd = group["lr"], group["lambd"], group["alpha"], group["t0"], group["weight_decay"]
        grad = -grad if group["maximize"] else grad
        if "eta" not in state:
            scalar = scalar_dtype()
            state["eta"] = new_tensor(np.asarray(lr, dtype=scalar))
            state["mu"] = new_tensor(np.ones((), dtype=scalar))
            state["ax"] = state_tensor(p)
        step = step_tensor(state)
        param = p._data
        xp = xp_of(param)
        if wd != 0:
            grad = scaled_add(xp, grad, param, wd)  # grad.add(param, alpha=wd): one rounding
        eta = float(state["eta"]._data)
        ax, mu = state["ax"]._data, float(state["mu"]._data)
        if group["foreach"]:  # torch's multi-tensor ASGD rounds otherwise: (grad + lambd p) * eta fused into p,
            step_part = scaled_add(xp, grad, param, lambd)  # and ax's average fused, mu 1 included
            fma_(xp, param, -step_part, param.dtype.type(eta))
            fma_(xp, ax, param - ax, ax.dtype.type(mu))
        else:
            param *= 1 - lambd * eta
            scaled_add_(xp, param, grad, -eta)  # param.add_(grad, alpha=-eta): one rounding
            if mu != 1:
                ax += (param - ax) * mu
            else:
                ax[...] = param
        if group["foreach"]:  # torch's multi-tensor ASGD: lr / ((1 + lambd * lr * step_t) ** alpha) in tensor ops of
            f = state["eta"]._data.dtype.type  # the step's dtype: std::pow(float, double), and lr / t as
            powed = f(math.pow(float(f(1) + f(step) * f(lambd * lr)), alpha))  # reciprocal() * lr
            state["eta"]._data[...] = f(lr) * (f(1) / powed)
        else:
            state["eta"]._data[...] = lr / ((1 + lambd * lr * step) ** alpha)
        state["mu"]._data[...] = 1 / max(1, step - t0)
