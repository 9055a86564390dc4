"""``optim.SparseAdam``: Adam on the rows a sparse gradient touches (``nn.Embedding(sparse=True)``'s weights).

Only the entries present in the coalesced gradient update their moments and parameter; the rest keep their
values, so rows not looked up in a step neither move nor decay. The arithmetic follows PyTorch's
``torch/optim/_functional.py`` (``sparse_adam``) step for step; dense gradients, sparse or complex parameters and
bad settings raise PyTorch's errors.
"""

from __future__ import annotations

import math

import numpy as np

from core._tensor import Tensor
from core.optim.optimizer import Optimizer, state_tensor

__all__ = ["SparseAdam"]


class SparseAdam(Optimizer):
    def __init__(self, params, lr=1e-3, betas=(0.9, 0.999), eps=1e-8, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 < lr:
            raise ValueError(f"Invalid learning rate: {lr}")
        if not 0.0 < eps:
            raise ValueError(f"Invalid epsilon value: {eps}")
        if not 0.0 <= betas[0] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 0: {betas[0]}")
        if not 0.0 <= betas[1] < 1.0:
            raise ValueError(f"Invalid beta parameter at index 1: {betas[1]}")
        super().__init__(params, dict(lr=lr, betas=betas, eps=eps, maximize=maximize))
        sparse = [[g, i] for g, group in enumerate(self.param_groups) for i, p in enumerate(group["params"])
                  if p.is_sparse]
        if sparse:
            raise ValueError(f"Sparse params at indices {sparse}: SparseAdam requires dense parameter tensors")

    def _update_group(self, group, index):
        with_grad = [p for p in group["params"] if p._grad is not None]
        if any(not p._grad.is_sparse for p in with_grad):
            raise RuntimeError("SparseAdam does not support dense gradients, please consider Adam instead")
        for p in with_grad:
            state = self.state[p]
            if not state:
                state.update(step=0, exp_avg=state_tensor(p), exp_avg_sq=state_tensor(p))
            state["step"] += 1
            if _sparse_adam_step(group, p, state):
                p._vc[0] += 1

    def _update(self, group, p, grad, state):  # every parameter goes through _update_group
        raise NotImplementedError


def _sparse_adam_step(group, p: Tensor, state: dict) -> bool:
    """One step on the entries of ``p``'s coalesced gradient; False when the gradient has none."""
    grad = p._grad.coalesce()
    values = grad._sp_values
    if group["maximize"]:
        values = -values
    if values.size == 0:
        return False
    beta1, beta2 = group["betas"]
    where = tuple(grad._sp_indices)
    param, exp_avg, exp_avg_sq = p._data, state["exp_avg"]._data, state["exp_avg_sq"]._data
    dt = param.dtype.type
    old_avg = exp_avg[where]
    avg_update = (values - old_avg) * dt(1 - beta1)
    exp_avg[where] += avg_update
    old_sq = exp_avg_sq[where]
    sq_update = (values ** 2 - old_sq) * dt(1 - beta2)
    exp_avg_sq[where] += sq_update
    numer = avg_update + old_avg
    denom = np.sqrt(sq_update + old_sq) + dt(group["eps"])
    step = state["step"]
    step_size = float(group["lr"]) * math.sqrt(1 - beta2 ** step) / (1 - beta1 ** step)
    param[where] += dt(-step_size) * (numer / denom)
    state["exp_avg"]._vc[0] += 1
    state["exp_avg_sq"]._vc[0] += 1
    return True
