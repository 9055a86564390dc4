"""``optim.Adafactor`` (PyTorch 2.5+): Adam-like steps with a factored second moment, as PyTorch updates them.

For a parameter of 2+ dims the second moment is kept as a row factor (the mean of g² over the last dim) and a
column factor (over the second last); their product over the row factor's mean estimates each element's
variance, so the state costs rows + columns instead of rows x columns. A vector keeps a full variance. The
step size is relative to the parameter's RMS (at least ``eps[1]``) times ``min(lr, 1/sqrt(step))``, and the
update's RMS is clipped at ``d``. The sequence of ops is PyTorch's (``torch/optim/_adafactor.py``,
single-tensor route), written with core's tensor ops.
"""

from __future__ import annotations

from core._tensor import Tensor
from core.optim.optimizer import Optimizer, state_tensor, step_tensor

__all__ = ["Adafactor"]


class Adafactor(Optimizer):
    __module__ = "core.optim"  # NOTE: PyTorch's (torch.optim.Adafactor): repr, pickles
    def __init__(self, params, lr=1e-2, beta2_decay=-0.8, eps=(None, 1e-3), d=1.0, weight_decay=0.0, *,
                 foreach=None, maximize=False):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 >= beta2_decay:
            raise ValueError(f"beta2_decay should be <= 0 but is: {beta2_decay}")
        if eps[0] is not None and not 0.0 <= eps[0]:
            raise ValueError(f"epsilon1 should be >= 0 but is: {eps[0]}")
        if not 0.0 <= eps[1]:
            raise ValueError(f"epsilon2 should be >= 0 but is: {eps[1]}")
        if not 1.0 <= d:
            raise ValueError(f"Clipping threshold d should be >= 1 but is: {d}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight_decay should be >= 0 but is: {weight_decay}")
        super().__init__(params, dict(lr=lr, beta2_decay=beta2_decay, eps=eps, d=d, weight_decay=weight_decay,
                                      foreach=foreach, maximize=maximize))

    def _update(self, group, p, grad, state):
        import core  # the package's ops (this module loads with core.optim)

        if "step" not in state:  # torch's state: step, then the factors (or the full variance)
            state["step"] = core.tensor(0.0)
            if grad.ndim > 1:
                state["row_var"] = core.zeros(*grad.shape[:-1], 1, dtype=p.dtype)
                state["col_var"] = core.zeros(*grad.shape[:-2], 1, grad.shape[-1], dtype=p.dtype)
            else:
                state["variance"] = state_tensor(p)
        g = Tensor._wrap(-grad if group["maximize"] else grad)
        lr = float(group["lr"])
        eps1, eps2 = group["eps"]
        if eps1 is None:
            eps1 = core.finfo(p.dtype).eps
        step = step_tensor(state)
        one_minus_beta2 = step ** group["beta2_decay"]
        rho = min(lr, 1 / (step ** 0.5))
        alpha = max(eps2, p.norm(2).item() / (p.numel() ** 0.5)) * rho
        if group["weight_decay"] != 0:
            p.mul_(1 - lr * group["weight_decay"])
        if g.dim() > 1:
            row_var, col_var = state["row_var"], state["col_var"]
            row_var.lerp_(core.norm(g, dim=-1, keepdim=True).square_().div_(g.size(-1)), one_minus_beta2)
            col_var.lerp_(core.norm(g, dim=-2, keepdim=True).square_().div_(g.size(-2)), one_minus_beta2)
            var_estimate = row_var @ col_var
            var_estimate.div_(row_var.mean(dim=-2, keepdim=True).clamp_(min=eps1))
        else:
            variance = state["variance"]
            variance.lerp_(g * g, one_minus_beta2)
            var_estimate = variance.clone()
        update = var_estimate.clamp_(min=eps1 * eps1).rsqrt_()
        update.mul_(g)
        denom = max(1.0, update.norm(2).item() / ((update.numel() ** 0.5) * group["d"]))
        p.add_(update, alpha=-alpha / denom)
