"""``multilabel_margin_loss``: PyTorch's hinge loss over each sample's target classes and its other classes.

For a sample x of C scores and target classes y (read up to the first -1), the loss is
``sum over targets j and non-target classes i of max(0, 1 - (x[j] - x[i])) / C``. Composed from core ops over all
(target, class) pairs at once, masked by which pairs count, so autograd gives the gradient; the result ends in
PyTorch's node name (``MultilabelMarginLossBackward0``). Checks and messages are PyTorch's.
"""

from __future__ import annotations

import numpy as np

import core
from core._dtype import SCALAR_NAMES
from core.nn._fused_names import fused_name
from core.nn.functional.loss import _check_reduction, legacy_reduction

__all__ = ["multilabel_margin_loss"]


def _check(input, target) -> None:
    if input.dim() > 2 or input.dim() == 1 and input.numel() == 0 or \
            input.dim() == 2 and input.size(1) == 0:
        raise RuntimeError("Expected non-empty vector or matrix with optional 0-dim batch size, but got: "
                           f"{list(input.shape)}")
    if target.dtype != core.int64:
        raise RuntimeError(f"expected scalar type Long but found {SCALAR_NAMES[target.dtype.name]}")
    # (a 0-d or 1-d input is one sample: its target may be 0-d or 1-d, of as many elements)
    vector = input.dim() <= 1 and target.dim() <= 1 and target.numel() == input.numel()
    if not vector and tuple(target.shape) != tuple(input.shape):
        raise RuntimeError(f"inconsistent target size: {list(target.shape)} for input of size: {list(input.shape)}")


def _pair_masks(target: np.ndarray, classes: int):
    """(N, C) target indices (-1 cut to 0), which of them count (before the first -1), which classes are targets."""
    counted = np.cumprod(target != -1, axis=1).astype(bool)
    if ((target < -1) | (target >= classes))[counted].any() or (target[counted] < 0).any():
        raise RuntimeError("argument #2 'target' is out of range")
    indices = np.where(counted, target, 0)
    is_target = np.zeros(target.shape, dtype=bool)
    rows = np.nonzero(counted)[0]
    is_target[rows, target[counted]] = True
    return indices, counted, is_target


def multilabel_margin_loss(input, target, size_average=None, reduce=None, reduction: str = "mean"):
    reduction = legacy_reduction(size_average, reduce, reduction)
    reduction = _check_reduction(reduction)
    _check(input, target)
    x = input if input.dim() == 2 else input.reshape(1, -1)
    classes = x.size(1)
    indices, counted, is_target = _pair_masks(target.reshape(x.shape).cpu().numpy(), classes)
    on = dict(dtype=x.dtype, device=x.device)
    x_target = x.gather(1, core.tensor(indices, device=x.device))  # (N, C): the score of each target slot
    hinge = (1 - x_target.unsqueeze(2) + x.unsqueeze(1)).clamp(min=0)  # (N, target slot, class)
    weight = core.tensor(counted[:, :, None] & ~is_target[:, None, :], **on)
    loss = (hinge * weight).sum((1, 2)) / classes
    if input.dim() <= 1:
        loss = loss.squeeze(0)
    if reduction == "mean":
        loss = loss.mean() if loss.numel() else loss.sum()
    elif reduction == "sum":
        loss = loss.sum()
    return fused_name(loss, "MultilabelMarginLossBackward0")
