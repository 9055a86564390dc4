"""``gaussian_nll_loss``, ``multilabel_soft_margin_loss`` and ``multi_margin_loss``, composed from core ops
with PyTorch's shape rules, reductions and errors."""

from __future__ import annotations

import math

import core
from core.nn._fused_names import fused_name
from core.nn.functional.activation import logsigmoid
from core.nn.functional.loss import _check_reduction, _reduce, legacy_reduction

__all__ = ["gaussian_nll_loss", "multilabel_soft_margin_loss", "multi_margin_loss"]


def _gaussian_var(input, var):
    if var.shape == input.shape:
        return var
    if tuple(input.shape[:-1]) == tuple(var.shape):
        return var.unsqueeze(-1)
    if tuple(input.shape[:-1]) == tuple(var.shape[:-1]) and var.shape[-1] == 1:
        return var
    raise ValueError("var is of incorrect size")


def gaussian_nll_loss(input, target, var, full=False, eps=1e-6, reduction="mean"):
    """``0.5 * (log(var) + (input - target)^2 / var)`` (plus ``0.5 log(2 pi)`` when ``full``)."""
    if isinstance(var, (int, float)):
        var = core.full_like(input, float(var))
    var = _gaussian_var(input, var)
    if reduction not in ("none", "mean", "sum"):
        raise ValueError(reduction + " is not valid")
    if bool((var < 0).any()):
        raise ValueError("var has negative entry/entries")
    var = var.clone()
    with core.no_grad():  # NOTE: the clamp keeps the gradient of var where var < eps, as PyTorch's
        var.clamp_(min=eps)
    loss = 0.5 * (core.log(var) + (input - target) ** 2 / var)
    if full:
        loss = loss + 0.5 * math.log(2 * math.pi)
    return _reduce(loss, reduction)


def multilabel_soft_margin_loss(input, target, weight=None, size_average=None, reduce=None, reduction="mean"):
    """Per-class logistic losses averaged over the classes."""
    if size_average is not None or reduce is not None:
        reduction = legacy_reduction(size_average, reduce, reduction)
    if reduction not in ("none", "mean", "sum"):  # NOTE: PyTorch's own Python check and words
        raise ValueError(reduction + " is not valid")
    loss = -(target * logsigmoid(input) + (1 - target) * logsigmoid(-input))
    if weight is not None:
        loss = loss * weight
    class_dim = input.dim() - 1
    loss = loss.sum(dim=class_dim) / input.size(class_dim)
    return _reduce(loss, reduction)


def multi_margin_loss(input, target, p=1, margin=1.0, weight=None, size_average=None, reduce=None, reduction="mean"):
    """The multi-class hinge loss ``sum_{i != y} max(0, margin - x[y] + x[i])^p / C``."""
    reduction = _check_reduction(legacy_reduction(size_average, reduce, reduction))
    if p not in (1, 2):
        raise ValueError("only p == 1 and p == 2 supported")
    if weight is not None and weight.dim() != 1:
        raise ValueError("weight must be one-dimensional")
    x = input if input.dim() == 2 else input.reshape(1, -1)
    y = target.reshape(-1, 1)
    if x.shape[0] != y.shape[0]:
        raise RuntimeError(f"inconsistent target size, expected {x.shape[0]} but got {list(target.shape)}")
    picked = x.gather(1, y)
    terms = (margin - picked + x).clamp(min=0)
    if p == 2:
        terms = terms * terms
    if weight is not None:
        terms = terms * weight[y]
    mask = core.ones_like(x).scatter_(1, y, 0.0)
    loss = (terms * mask).sum(1) / x.shape[1]
    loss = loss if input.dim() == 2 else loss.reshape(())
    return fused_name(_reduce(loss, reduction), "MultiMarginLossBackward0")  # PyTorch's one kernel's node
