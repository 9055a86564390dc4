"""Modified Bessel functions of the first kind, orders 0 and 1 (``i0``, ``i0e``, ``i1``, ``i1e``).

Each is a named ``Function``: the forward evaluates in float64 on the host, by the power series
up to |x| = 30 and by the asymptotic expansion above (where the series would need many terms),
and the backward is PyTorch's formula written with these same functions, so it differentiates
again.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core.autograd import Function

__all__ = ["i0", "i0e", "i1", "i1e"]

_SWITCH = 30.0


def _series(x: np.ndarray, order: int) -> np.ndarray:
    """sum_k (x/2)^(2k+order) / (k! (k+order)!), for |x| <= 30."""
    half = x / 2.0
    sq = half * half
    term = half ** order / math.factorial(order)
    total = term.copy()
    for k in range(1, 90):
        term = term * sq / (k * (k + order))
        total = total + term
    return total


def _asymptotic_scaled(ax: np.ndarray, order: int) -> np.ndarray:
    """exp(-x) I_order(x) for x > 30: 1/sqrt(2 pi x) sum_k (-1)^k a_k(order) / x^k."""
    mu = 4.0 * order * order
    term = np.ones_like(ax)
    total = term.copy()
    for k in range(1, 30):
        term = -term * (mu - (2 * k - 1) ** 2) / (8.0 * k * ax)
        total = total + term
    return total / np.sqrt(2.0 * math.pi * ax)


def _scaled(x: np.ndarray, order: int) -> np.ndarray:
    """exp(-|x|) I_order(x)."""
    ax = np.abs(x)
    small = ax <= _SWITCH
    out = np.empty_like(ax)
    out[small] = np.exp(-ax[small]) * _series(ax[small], order)
    out[~small] = _asymptotic_scaled(ax[~small], order)
    return out if order == 0 else np.sign(x) * out


def _unscaled(x: np.ndarray, order: int) -> np.ndarray:
    ax = np.abs(x)
    small = ax <= _SWITCH
    out = np.empty_like(ax)
    out[small] = _series(ax[small], order)
    with np.errstate(over="ignore", invalid="ignore"):
        big = ax[~small]
        out[~small] = np.exp(big / 2) * _asymptotic_scaled(big, order) * np.exp(big / 2)
    return out if order == 0 else np.sign(x) * out


def _apply(fn, x, *args):
    host = np.asarray(x.detach().cpu()._data).astype(np.float64)  # (numpy() refuses bfloat16, as torch's does)
    nan = np.isnan(host)
    with np.errstate(all="ignore"):
        value = fn(np.where(nan, 0.0, host), *args)
    return core.tensor(np.where(nan, np.nan, value), dtype=x.dtype, device=x.device)


class I0(Function):
    node_name = "I0Backward0"  # PyTorch's name for this node

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return _apply(_unscaled, x, 0)

    @staticmethod
    def backward(ctx, grad):
        (x,) = ctx._unpacked
        return grad * i1(x)


def _float_i0e(v: np.ndarray) -> np.ndarray:
    """i0e of float32 values through the float64 form (NaN kept), as float32."""
    nan = np.isnan(v)
    with np.errstate(all="ignore"):
        return np.where(nan, np.nan, _scaled(np.where(nan, 0.0, v.astype(np.float64)), 0)).astype(np.float32)


class I0e(Function):
    node_name = "SpecialI0EBackward0"  # PyTorch's name for this node

    @staticmethod
    def forward(ctx, x):
        if x.dtype in (core.float16, core.bfloat16):  # PyTorch's scalar form rounds each step to a half
            from core._i0e_half import i0e_half

            arr = np.asarray(x.detach().cpu()._data)
            result = core.tensor(i0e_half(arr, arr.dtype, _float_i0e), device=x.device)
        else:
            result = _apply(_scaled, x, 0)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx._unpacked
        return grad * (i1e(x) - core.sgn(x) * result)


class I1(Function):
    node_name = "SpecialI1Backward0"  # PyTorch's name for this node

    @staticmethod
    def forward(ctx, x):
        result = _apply(_unscaled, x, 1)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx._unpacked
        big, safe = _safe(x)  # NOTE: torch's i1_backward op for op (its graph under create_graph, its values)
        return grad * core.where(big, i0(safe) - result * safe.reciprocal(), _full(x, 0.5))


def _full(x, value):
    """``at::full({}, value, self.options())``: a 0-d tensor (an edgeless operand of a where)."""
    return core.full((), value, dtype=x.dtype, device=x.device)


def _safe(x):
    """torch's i1/i1e backward's ``self.abs() > eps`` and ``where(that, self, eps)`` (eps the dtype's epsilon)."""
    eps = core.finfo(x.dtype).eps
    big = x.abs() > eps
    return big, core.where(big, x, _full(x, eps))


class I1e(Function):
    node_name = "SpecialI1EBackward0"  # PyTorch's name for this node

    @staticmethod
    def forward(ctx, x):
        result = _apply(_scaled, x, 1)
        ctx.save_for_backward(x, result)
        return result

    @staticmethod
    def backward(ctx, grad):
        x, result = ctx._unpacked
        big, safe = _safe(x)  # NOTE: torch's i1e_backward op for op
        return grad * core.where(big, i0e(safe) - result * (safe.sgn() + safe.reciprocal()), _full(x, 0.5))


def _floating(x):
    if not isinstance(x, core.Tensor):
        x = core.tensor(x)
    return x if x.is_floating_point() else x.to(core.get_default_dtype())


def i0(input):
    return I0.apply(_floating(input))


def i0e(input):
    return I0e.apply(_floating(input))


def i1(input):
    return I1.apply(_floating(input))


def i1e(input):
    return I1e.apply(_floating(input))
