"""``RMSprop``, ``Adagrad`` and ``Adadelta``: per-element adaptive learning rates, as PyTorch updates them."""

from __future__ import annotations

import numpy as np

from core._backend import xp_of
from core._fused import lerp_, scaled_add, scaled_add_
from core._tensor import new_tensor
from core.ops._float32_compute import adagrad_step_bfloat16, is_reduced, rmsprop_step_bfloat16
from core.optim._flat_adaptive import flat_adagrad_step, flat_rmsprop_step
from core.optim._pointwise import addcdiv_, addcmul_, sqrt
from core.optim.optimizer import Optimizer, scalar_dtype, state_tensor, step_tensor

__all__ = ["RMSprop", "Adagrad", "Adadelta"]


def _positive(**values):
    for name, value in values.items():
        if value < 0.0:  # (PyTorch's texts: 'Invalid learning rate: -1', 'Invalid epsilon value: -1')
            what = name if name == "learning rate" else f"{name} value"
            raise ValueError(f"Invalid {what}: {value}")


def _l2(grad, param, group):
    grad = -grad if group.get("maximize") else grad
    wd = group["weight_decay"]
    return scaled_add(xp_of(grad), grad, param, wd) if wd != 0 else grad  # grad.add(param, alpha=wd): one rounding


class RMSprop(Optimizer):
    """Divide by a running RMS of gradients; optional momentum and centering."""

    _tensor_steps = True

    def __init__(self, params, lr=1e-2, alpha=0.99, eps=1e-8, weight_decay=0, momentum=0, centered=False,
                 capturable=False, foreach=None, maximize=False, differentiable=False):
        _positive(**{"learning rate": lr, "epsilon": eps, "momentum": momentum, "weight_decay": weight_decay,
                     "alpha": alpha})
        super().__init__(params, dict(lr=lr, momentum=momentum, alpha=alpha, eps=eps, centered=centered,
                                      weight_decay=weight_decay, capturable=capturable, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable))  # torch's key order

    def _update_group(self, group, index):
        """The group on flat buffers (``_flat_adaptive``: the same values, a dozen array ops in all), when it can."""
        if type(self)._update is not RMSprop._update or not flat_rmsprop_step(self, group, index):
            super()._update_group(group, index)

    def _update(self, group, p, grad, state):
        alpha, eps, lr, momentum = group["alpha"], group["eps"], group["lr"], group["momentum"]
        if "square_avg" not in state:
            state["square_avg"] = state_tensor(p)
            if momentum > 0:
                state["momentum_buffer"] = state_tensor(p)
            if group["centered"]:
                state["grad_avg"] = state_tensor(p)
        step_tensor(state)
        param = p._data
        grad = _l2(grad, param, group)
        sq = state["square_avg"]._data
        if is_reduced(sq.dtype):  # half types: each of PyTorch's kernels rounds (core.ops._float32_compute)
            ga, buf = (state[k]._data if k in state else None for k in ("grad_avg", "momentum_buffer"))
            return rmsprop_step_bfloat16(group, param, grad, sq, ga, buf)
        xp = xp_of(param)
        sq *= alpha
        addcmul_(xp, sq, grad, grad, 1 - alpha)
        if group["centered"]:
            ga = state["grad_avg"]._data
            lerp_(xp, ga, grad, 1 - alpha)
            avg = sq.copy()
            addcmul_(xp, avg, ga, ga, -1)
            avg = sqrt(xp, avg)
        else:
            avg = sqrt(xp, sq)
        avg += eps
        if momentum > 0:
            buf = state["momentum_buffer"]._data
            buf *= momentum
            addcdiv_(xp, buf, grad, avg)
            scaled_add_(xp, param, buf, -lr)
        else:
            addcdiv_(xp, param, grad, avg, -lr)


class Adagrad(Optimizer):
    """Divide by the root of the sum of squared gradients so far."""

    _tensor_steps = True

    def __init__(self, params, lr=1e-2, lr_decay=0, weight_decay=0, initial_accumulator_value=0, eps=1e-10,
                 foreach=None, *, maximize=False, differentiable=False, fused=None):
        _positive(**{"learning rate": lr, "lr_decay": lr_decay, "weight_decay": weight_decay,
                     "initial_accumulator_value": initial_accumulator_value, "epsilon": eps})
        super().__init__(params, dict(lr=lr, lr_decay=lr_decay, eps=eps, weight_decay=weight_decay,
                                      initial_accumulator_value=initial_accumulator_value, foreach=foreach,
                                      maximize=maximize, differentiable=differentiable, fused=fused))
        for group in self.param_groups:
            for p in group["params"]:
                state = self.state[p]  # both made here, as torch's constructor does (a state dict shows them)
                state["step"] = new_tensor(np.zeros((), dtype=scalar_dtype()))
                state["sum"] = state_tensor(p, group["initial_accumulator_value"])

    def _update_group(self, group, index):
        """The group on flat buffers (``_flat_adaptive``: the same values, a dozen array ops in all), when it can."""
        if type(self)._update is not Adagrad._update or not flat_adagrad_step(self, group, index):
            super()._update_group(group, index)

    def _update(self, group, p, grad, state):
        step = step_tensor(state)
        param = p._data
        grad = _l2(grad, param, group)
        clr = group["lr"] / (1 + (step - 1) * group["lr_decay"])
        total = state["sum"]._data
        if is_reduced(total.dtype):  # half types: each of PyTorch's kernels rounds (core.ops._float32_compute)
            return adagrad_step_bfloat16(param, grad, total, clr, group["eps"])
        xp = xp_of(param)
        addcmul_(xp, total, grad, grad)
        std = sqrt(xp, total)
        std += group["eps"]
        addcdiv_(xp, param, grad, std, -clr)


class Adadelta(Optimizer):
    """Adadelta: unit-consistent steps from running averages of squared gradients and updates."""

    _tensor_steps = True

    def __init__(self, params, lr=1.0, rho=0.9, eps=1e-6, weight_decay=0, foreach=None, *, capturable=False,
                 maximize=False, differentiable=False):
        _positive(**{"learning rate": lr, "epsilon": eps, "weight_decay": weight_decay})
        if not 0.0 <= rho <= 1.0:
            raise ValueError(f"Invalid rho value: {rho}")
        super().__init__(params, dict(lr=lr, rho=rho, eps=eps, weight_decay=weight_decay, maximize=maximize,
                                      capturable=capturable, foreach=foreach, differentiable=differentiable))

    def _update(self, group, p, grad, state):
        rho, eps = group["rho"], group["eps"]
        if "square_avg" not in state:
            state["square_avg"] = state_tensor(p)
            state["acc_delta"] = state_tensor(p)
        step_tensor(state)
        param = p._data
        grad = _l2(grad, param, group)
        xp = xp_of(param)
        sq, acc = state["square_avg"]._data, state["acc_delta"]._data
        sq *= rho
        addcmul_(xp, sq, grad, grad, 1 - rho)
        std = sqrt(xp, sq + eps)
        delta = sqrt(xp, acc + eps)
        delta /= std
        delta *= grad
        acc *= rho
        addcmul_(xp, acc, delta, delta, 1 - rho)
        scaled_add_(xp, param, delta, -group["lr"])
