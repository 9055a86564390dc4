"""``nn.utils.clip_grad``: gradient clipping by total norm or by value, in place, as PyTorch does."""

from __future__ import annotations

import math

import numpy as np

import core
from core._norm_order import two_norm
from core._tensor import Tensor, new_tensor
from core.ops._util import xp_of

__all__ = ["clip_grad_norm_", "clip_grad_norm", "clip_grad_value_", "get_total_norm", "clip_grads_with_norm_"]


def _grads(parameters) -> list:
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    return [p.grad for p in parameters if p.grad is not None]


def _norm_array(arr, norm_type: float):
    xp = xp_of(arr)
    a = xp.abs(arr)
    if math.isinf(norm_type):
        return a.max() if norm_type > 0 else a.min()
    if norm_type == 0:
        return (a != 0).sum().astype(arr.dtype)
    ordered = two_norm(arr, None, False) if norm_type == 2 else None  # float32: PyTorch's order
    return (a ** norm_type).sum() ** (1.0 / norm_type) if ordered is None else ordered


def get_total_norm(tensors, norm_type: float = 2.0, error_if_nonfinite: bool = False, foreach=None) -> Tensor:
    """The norm of the norms of ``tensors`` (as if they were concatenated into one vector)."""
    if isinstance(tensors, Tensor):
        tensors = [tensors]
    tensors = [t for t in tensors if t is not None]
    norm_type = float(norm_type)
    if not tensors:
        return core.tensor(0.0)
    xp = xp_of(tensors[0]._data)
    norms = xp.stack([_norm_array(t._data, norm_type).astype(tensors[0]._data.dtype) for t in tensors])
    total = _norm_array(norms, norm_type)
    if error_if_nonfinite and not bool(xp.isfinite(total)):
        raise RuntimeError(f"The total norm of order {norm_type} for gradients from `parameters` is non-finite, so it "
                           "cannot be clipped. To disable this error and scale the gradients by the non-finite norm "
                           "anyway, set `error_if_nonfinite=False`")
    return new_tensor(xp.asarray(total, dtype=tensors[0]._data.dtype))


def clip_grads_with_norm_(parameters, max_norm: float, total_norm: Tensor, foreach=None) -> None:
    """Scale every gradient in place by min(1, max_norm / (total_norm + 1e-6))."""
    grads = _grads(parameters)
    if not grads:
        return
    # NOTE: torch's max_norm / (total_norm + 1e-6) in the norm's dtype, its reciprocal times max_norm, clamped at 1
    dtype = np.dtype(total_norm._data.dtype) if isinstance(total_norm, Tensor) else np.dtype(np.float32)
    kind = dtype.type if dtype.kind == "f" else np.float32
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        coef = np.minimum(kind(1) / (kind(float(total_norm)) + kind(1e-6)) * kind(max_norm), kind(1))
    for g in grads:
        arr = g._data
        arr *= xp_of(arr).asarray(coef, dtype=arr.dtype)
        g._vc[0] += 1


def clip_grad_norm_(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                    foreach=None) -> Tensor:
    """Clip the gradients' total norm to ``max_norm`` in place; returns the total norm before clipping."""
    if isinstance(parameters, Tensor):
        parameters = [parameters]
    else:
        parameters = list(parameters)
    grads = _grads(parameters)
    total = get_total_norm(grads, norm_type, error_if_nonfinite)
    clip_grads_with_norm_(parameters, max_norm, total)
    return total


def clip_grad_norm(parameters, max_norm: float, norm_type: float = 2.0, error_if_nonfinite: bool = False,
                   foreach=None) -> Tensor:
    import warnings

    warnings.warn("`torch.nn.utils.clip_grad_norm` is now deprecated in favor of `torch.nn.utils.clip_grad_norm_`.",
                  FutureWarning, stacklevel=2)
    return clip_grad_norm_(parameters, max_norm, norm_type, error_if_nonfinite, foreach)


def clip_grad_value_(parameters, clip_value: float, foreach=None) -> None:
    clip_value = float(clip_value)
    for g in _grads(parameters):
        arr = g._data
        xp_of(arr).clip(arr, -clip_value, clip_value, out=arr)
        g._vc[0] += 1
