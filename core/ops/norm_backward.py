"""The gradient of a vector p-norm, written op for op as PyTorch's ``norm_backward`` (FunctionsManual.cpp).

``linalg.vector_norm``, ``torch.norm`` and ``dist`` share it. Every step is a differentiable core op on the
input and on the saved norm (the forward's output), so that under ``create_graph=True`` the recorded graph has
torch's nodes in torch's order (``SgnBackward0``, ``AbsBackward0``, ``PowBackward0``, ``MaskedFillBackward0``,
``UnsqueezeBackward0`` of the norm, ...) and a second derivative takes torch's path, bit for bit where each op
does. Its in-place steps (``pow_``, ``masked_fill_`` on fresh temporaries) record the same nodes as their
out-of-place forms, which is what is used here.
"""

from __future__ import annotations

import math

from core._tensor import Tensor
from core.ops.reduction import unsqueeze_reduced

__all__ = ["norm_backward"]


def norm_backward(grad: Tensor, self: Tensor, p: float, norm: Tensor, dims, keepdim: bool):
    """d norm_p(self) / d self times ``grad``; ``None`` for p = 0 (PyTorch leaves that gradient undefined).

    ``dims`` are the dims the caller named (empty for a norm over everything, as torch's ``dim={}``): only those
    put back on ``grad`` and ``norm`` (one ``UnsqueezeBackward0`` each, ascending) when ``keepdim`` is false."""
    if p == 0:
        return None
    if not keepdim and self.ndim:
        grad = unsqueeze_reduced(grad, self.shape, dims, False)
        norm = unsqueeze_reduced(norm, self.shape, dims, False)
    if p == 1:
        return self.sgn() * grad
    if p == 2:
        return grad * (self / norm).masked_fill_(norm == 0, 0)  # NOTE: in place, as torch's: a broadcast mask's
        # out-of-place masked_fill is contiguous, where this keeps self's layout (x.t().norm()'s gradient is .t())
    if math.isinf(p):
        # NOTE: the derivative of amax(|self|) respecting NaNs: a tie shares the gradient, a NaN counts as a max
        self_abs = self.abs()
        mask = self_abs.eq(norm).logical_or(self_abs.isnan())
        counts = mask.sum(tuple(dims) if dims else tuple(range(self.ndim)), True)
        return self.sgn() * ((grad / counts) * mask)
    if p < 1:
        self_scaled = self.sgn() * self.abs().pow(p - 1).masked_fill_(self == 0, 0)
        return self_scaled * grad * norm.pow(1 - p)
    # NOTE: p < 2 scales sgn(x)|x|^(p-1), p > 2 x|x|^(p-2): the same value, but neither 0 * inf at x = 0
    self_scaled = self.sgn() * self.abs().pow(p - 1) if p < 2 else self * self.abs().pow(p - 2)
    scale_v = (grad / norm.pow(p - 1)).masked_fill_(norm == 0, 0)
    return self_scaled * scale_v
