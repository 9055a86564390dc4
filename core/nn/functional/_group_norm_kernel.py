"""PyTorch's CPU ``group_norm`` forward arithmetic for float32, step for step (ATen's group_norm_kernel.cpp).

Each (sample, group) row of ``C / G * H * W`` elements takes its moments as layer_norm's kernel does
(``RowwiseMoments``: ``core.nn.functional._layer_norm_kernel``); ``rstd = 1 / sqrt(max(var, 0) + eps)`` is
computed in double (``eps`` is the kernel's double argument) and rounded once. Without weight and bias the output
is ``(x - mean) * rstd``; with either, per channel ``scale = rstd * weight``, ``shift = fma(-scale, mean, bias)``
and ``y = fma(scale, x, shift)`` (the compiler's contractions, measured against torch 2.13). NumPy's
double-precision statistics differed from torch in the last bit of a third of the outputs.
"""

from __future__ import annotations

import numpy as np

from core.nn.functional._layer_norm_kernel import _fma, _moments

__all__ = ["group_norm_forward"]

_F32 = np.dtype(np.float32)


def group_norm_forward(arr, weight, bias, groups: int, eps: float):
    """``(y, mean, rstd)`` (mean and rstd: (N, G) float32) as PyTorch's kernel computes them, for float32 NumPy
    arrays with at least one element per group; None for anything else."""
    present = [a for a in (arr, weight, bias) if a is not None]
    if any(type(a) is not np.ndarray or a.dtype != _F32 for a in present) or arr.ndim < 2 or not arr.size:
        return None
    n, c = arr.shape[:2]
    rows = np.ascontiguousarray(arr).reshape(n * groups, -1)
    mean, var = _moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(_F32)
    if weight is None and bias is None:
        y = (rows - mean[:, None]) * rstd[:, None]
    else:
        per = c // groups
        x4 = rows.reshape(n, groups, per, -1)
        w = (np.ones(c, _F32) if weight is None else weight.reshape(-1)).reshape(1, groups, per, 1)
        b = (np.zeros(c, _F32) if bias is None else bias.reshape(-1)).reshape(1, groups, per, 1)
        scale = rstd.reshape(n, groups, 1, 1) * w
        shift = _fma(-scale, mean.reshape(n, groups, 1, 1), b)
        y = _fma(scale, x4, shift)
    return y.reshape(arr.shape), mean.reshape(n, groups), rstd.reshape(n, groups)
