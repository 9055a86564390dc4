"""``optim.Muon`` (PyTorch 2.9+): momentum, then the update orthogonalised by a Newton–Schulz iteration.

Muon is for the 2-D weights of hidden layers. Each step keeps a momentum buffer (``buf.lerp_(grad, 1 - mu)``),
takes the Nesterov look-ahead ``grad.lerp(buf, mu)`` (or the buffer itself), and replaces it by an approximate
``U V^T`` of its SVD: five steps of the quintic iteration ``X <- a X + (b A + c A^2) X`` with ``A = X X^T``, run in
bfloat16 on the wide orientation of the matrix after dividing by its Frobenius norm. The parameter then takes
decoupled weight decay and a step scaled by ``sqrt(max(1, rows/cols))`` (``adjust_lr_fn="original"``) or
``0.2 sqrt(max(rows, cols))`` (``"match_rms_adamw"``). Settings, checks and messages are PyTorch's
(``torch/optim/_muon.py``).

NOTE: PyTorch runs the iteration in bfloat16: every matrix product and elementwise step is rounded to bfloat16.
Here each product is computed in float64 and rounded once to bfloat16 (ml_dtypes), which is what PyTorch's
float32-accumulating kernels give except where their summation order changes a rounding: small matrices agree
bit for bit, large ones in a few elements by one bfloat16 unit.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

from core._backend import to_numpy_array, xp_of
from core._tensor import Tensor
from core.optim.optimizer import Optimizer, state_tensor

__all__ = ["Muon"]

EPS = 1e-7
DEFAULT_A, DEFAULT_B, DEFAULT_C = 3.4445, -4.7750, 2.0315
DEFAULT_NS_STEPS = 5

_BF16 = np.dtype(ml_dtypes.bfloat16)


def _bf16(x) -> np.ndarray:
    """Round to bfloat16 (once, from float64 or float32) and give the value back as float64."""
    return np.asarray(x).astype(np.float32).astype(_BF16).astype(np.float64)


def zeropower_via_newtonschulz(grad: np.ndarray, ns_coefficients, ns_steps: int, eps: float) -> np.ndarray:
    """PyTorch's ``_zeropower_via_newtonschulz`` on an array: bfloat16 values, returned as float64."""
    if ns_steps >= 100:
        raise ValueError("Number of steps must be less than 100 for computational efficiency")
    if grad.ndim != 2:
        raise ValueError("Input tensor gradient must be a 2D matrix")
    if len(ns_coefficients) != 3:
        raise ValueError("Coefficients must be a tuple of exactly 3 values")
    a, b, c = ns_coefficients
    tall = grad.shape[0] > grad.shape[1]
    x = _bf16(grad.T if tall else grad)
    norm = _bf16(math.sqrt(float(np.sum(x * x))))  # bfloat16 norm, clamped at eps rounded to bfloat16
    x = _bf16(x / max(float(norm), float(_bf16(eps))))
    for _ in range(ns_steps):
        gram = _bf16(x @ x.T)
        gram_update = _bf16(b * gram + c * (gram @ gram))  # addmm(gram, gram, gram, beta=b, alpha=c)
        x = _bf16(a * x + gram_update @ x)  # addmm(x, gram_update, x, beta=a)
    return x.T if tall else x


def _adjust_lr(lr: float, adjust_lr_fn, param_shape) -> float:
    rows, cols = param_shape[:2]
    if adjust_lr_fn is None or adjust_lr_fn == "original":
        return lr * math.sqrt(max(1, rows / cols))
    if adjust_lr_fn == "match_rms_adamw":
        return lr * 0.2 * math.sqrt(max(rows, cols))
    return lr


class Muon(Optimizer):
    """Muon for 2-D parameters; biases, embeddings and the rest belong to another optimizer (AdamW)."""

    __module__ = "core.optim"  # NOTE: PyTorch's (torch.optim.Muon): repr, pickles

    def __init__(self, params, lr=1e-3, weight_decay=0.1, momentum=0.95, nesterov=True,
                 ns_coefficients=(DEFAULT_A, DEFAULT_B, DEFAULT_C), eps=EPS, ns_steps=DEFAULT_NS_STEPS,
                 adjust_lr_fn=None):
        if isinstance(lr, Tensor) and lr.numel() != 1:
            raise ValueError("Tensor lr must be 1-element")
        if not 0.0 <= lr:
            raise ValueError(f"Learning rate should be >= 0 but is: {lr}")
        if not 0.0 <= momentum:
            raise ValueError(f"momentum should be >= 0 but is: {momentum}")
        if not 0.0 <= weight_decay:
            raise ValueError(f"weight decay should be >= 0 but is: {weight_decay}")
        if adjust_lr_fn is not None and adjust_lr_fn not in ("original", "match_rms_adamw"):
            raise ValueError(f"Adjust learning rate function {adjust_lr_fn} is not supported")
        super().__init__(params, dict(lr=lr, weight_decay=weight_decay, momentum=momentum, nesterov=nesterov,
                                      ns_coefficients=ns_coefficients, eps=eps, ns_steps=ns_steps,
                                      adjust_lr_fn=adjust_lr_fn))
        for group in self.param_groups:
            for p in group["params"]:
                if p.ndim != 2:
                    raise ValueError(f"Muon only supports 2D parameters whereas we found a parameter with size: "
                                     f"{p.size()}")

    def _update(self, group, p, grad, state):
        if p._grad.is_sparse:
            raise RuntimeError("Muon does not support sparse gradients")
        if grad.ndim != 2:
            raise ValueError("Param gradient must be a 2D matrix")
        if "momentum_buffer" not in state:
            state["momentum_buffer"] = state_tensor(p)
        buf, momentum = state["momentum_buffer"], group["momentum"]
        g = Tensor._wrap(grad)
        buf.lerp_(g, 1 - momentum)
        update = g.lerp(buf, momentum) if group["nesterov"] else buf
        ortho = zeropower_via_newtonschulz(to_numpy_array(update._data), group["ns_coefficients"],
                                           group["ns_steps"], group["eps"])
        lr = float(group["lr"])
        adjusted = _adjust_lr(lr, group["adjust_lr_fn"], p.shape)
        p.mul_(1 - lr * group["weight_decay"])
        xp = xp_of(p._data)
        p.add_(Tensor._wrap(xp.asarray(ortho.astype(np.float32))), alpha=-adjusted)
