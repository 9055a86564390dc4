"""``SGD`` with momentum, dampening, Nesterov, weight decay and maximize, as PyTorch updates it."""

from __future__ import annotations

from core._backend import xp_of
from core._fused import fma_, scaled_add
from core.optim.optimizer import Optimizer, required, state_tensor

__all__ = ["SGD"]


class SGD(Optimizer):
    """Stochastic gradient descent; the first momentum step copies the gradient, as in PyTorch."""

    def __init__(self, params, lr=1e-3, momentum=0, dampening=0, weight_decay=0, nesterov=False, *,
                 maximize=False, foreach=None, differentiable=False, fused=None):
        if lr is not required and lr < 0.0:
            raise ValueError(f"Invalid learning rate: {lr}")
        if momentum < 0.0:
            raise ValueError(f"Invalid momentum value: {momentum}")
        if weight_decay < 0.0:
            raise ValueError(f"Invalid weight_decay value: {weight_decay}")
        if nesterov and (momentum <= 0 or dampening != 0):
            raise ValueError("Nesterov momentum requires a momentum and zero dampening")
        super().__init__(params, dict(lr=lr, momentum=momentum, dampening=dampening, weight_decay=weight_decay,
                                      nesterov=nesterov, maximize=maximize, foreach=foreach,
                                      differentiable=differentiable, fused=fused))

    def _update(self, group, p, grad, state):
        """PyTorch's single-tensor SGD; each ``add(..., alpha=)`` is its fused multiply-add (``core._fused``)."""
        lr, momentum, wd = group["lr"], group["momentum"], group["weight_decay"]
        param = p._data
        xp = xp_of(param)
        d_p = -grad if group["maximize"] else grad
        if wd != 0:
            d_p = scaled_add(xp, d_p, param, wd)  # grad.add(param, alpha=weight_decay)
        if momentum != 0:
            buf = state.get("momentum_buffer")
            if buf is None:
                buf = state["momentum_buffer"] = state_tensor(p)
                buf._data[...] = d_p
            else:
                b = buf._data
                b *= momentum
                b[...] = scaled_add(xp, b, d_p, 1 - group["dampening"])  # buf.mul_(m).add_(d_p, alpha=1 - d)
            d_p = scaled_add(xp, d_p, buf._data, momentum) if group["nesterov"] else buf._data
        fma_(xp, param, param.dtype.type(-lr), d_p)  # param.add_(d_p, alpha=-lr)
