"""``Adam`` and ``AdamW``: PyTorch's update order, bias corrections and AMSGrad, step for step."""

from __future__ import annotations

import numpy as np

from core._backend import xp_of
from core._fused import scaled_add
from core._tensor import Tensor
from core.ops._float32_compute import adam_step_bfloat16, is_reduced
from core.optim._flat_adam import adam_change, decay_factor, flat_adam_step
from core.optim.optimizer import Optimizer, state_tensor, step_tensor

__all__ = ["Adam", "AdamW"]


def _check(lr, eps, betas, weight_decay):
    if lr < 0.0:
        raise ValueError(f"Invalid learning rate: {lr}")
    if eps < 0.0:
        raise ValueError(f"Invalid epsilon value: {eps}")
    if not 0.0 <= betas[0] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
    if not 0.0 <= betas[1] < 1.0:
        raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
    if weight_decay < 0.0:
        raise ValueError(f"Invalid weight_decay value: {weight_decay}")


class Adam(Optimizer):
    """Adam; ``weight_decay`` adds ``wd * p`` to the gradient (L2), or with ``decoupled_weight_decay=True``
    (AdamW's) scales the parameter by ``1 - lr * wd`` before the step."""

    _tensor_steps = True

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=0, amsgrad=False, *,
                 foreach=None, maximize=False, capturable=False, differentiable=False, fused=None,
                 decoupled_weight_decay=False):
        if isinstance(lr, Tensor):
            if foreach and not capturable:
                raise ValueError("lr as a Tensor is not supported for capturable=False and foreach=True")
            if lr.numel() != 1:
                raise ValueError("Tensor lr must be 1-element")
        _check(lr, eps, betas, weight_decay)
        super().__init__(params, dict(lr=lr, betas=tuple(betas), eps=eps, weight_decay=weight_decay,
                                      amsgrad=amsgrad, maximize=maximize, foreach=foreach, capturable=capturable,
                                      differentiable=differentiable, fused=fused,
                                      decoupled_weight_decay=decoupled_weight_decay))

    def load_state_dict(self, state_dict: dict) -> None:
        super().load_state_dict(state_dict)
        for group in self.param_groups:  # a state dict from before the option had none
            group.setdefault("decoupled_weight_decay", False)

    def _update_group(self, group, index):
        """The group on flat buffers (``_flat_adam``: the same values, a dozen array ops in all), when it can."""
        if type(self)._update is not Adam._update or not flat_adam_step(self, group, index):
            super()._update_group(group, index)

    def _update(self, group, p, grad, state):
        lr, wd = group["lr"], group["weight_decay"]
        if group["maximize"]:
            grad = -grad
        if "exp_avg" not in state:
            state["exp_avg"] = state_tensor(p)
            state["exp_avg_sq"] = state_tensor(p)
            if group["amsgrad"]:
                state["max_exp_avg_sq"] = state_tensor(p)
        step = step_tensor(state)
        param = p._data
        xp = xp_of(param)
        if wd != 0:
            if group["decoupled_weight_decay"] and is_reduced(param.dtype):  # half types: mul_ keeps it float32
                param[...] = param.astype(np.float32) * np.float32(1 - lr * wd)
            elif group["decoupled_weight_decay"]:
                param *= decay_factor(lr, wd)
            else:
                grad = scaled_add(xp, grad, param, wd)  # grad.add(param, alpha=weight_decay)
        vmax = state["max_exp_avg_sq"]._data if group["amsgrad"] else None
        m, v = state["exp_avg"]._data, state["exp_avg_sq"]._data
        if param.dtype.kind == "c":  # NOTE: torch steps a complex parameter as view_as_real (moments per part)
            param, grad, m, v, vmax = (_parts(a) for a in (param, grad, m, v, vmax))
        elif is_reduced(param.dtype):  # half types: each of PyTorch's kernels rounds (core.ops._float32_compute)
            return adam_step_bfloat16(group, param, grad, m, v, vmax, step)
        param += adam_change(xp, group, grad, m, v, vmax, step)


def _parts(arr):
    """A complex array's real and imaginary parts as a float view (..., 2) of its memory (None stays None)."""
    return None if arr is None else arr[..., None].view(arr.real.dtype)


class AdamW(Adam):
    """Adam with decoupled weight decay (``p *= 1 - lr * wd`` before the Adam step): PyTorch's AdamW is an Adam
    whose groups say ``decoupled_weight_decay=True``, whatever state dict is loaded."""

    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, weight_decay=1e-2, amsgrad=False, *,
                 maximize=False, foreach=None, capturable=False, differentiable=False, fused=None):
        super().__init__(params, lr, betas, eps, weight_decay, amsgrad, foreach=foreach, maximize=maximize,
                         capturable=capturable, differentiable=differentiable, fused=fused,
                         decoupled_weight_decay=True)

    def load_state_dict(self, state_dict: dict) -> None:
        super().load_state_dict(state_dict)
        for group in self.param_groups:
            group["decoupled_weight_decay"] = True
