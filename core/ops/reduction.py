"""Reductions over dims (int or tuple, negative allowed) with ``keepdim`` and ``dtype``."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import normalize_dims, xp_of

__all__ = ["sum"]

_builtin_sum = sum


def _sum_dtype(a: Tensor, dtype) -> _dtype.dtype:
    if dtype is not None:
        return _dtype.to_dtype(dtype)
    d = a.dtype
    return _dtype.int64 if d.category < 2 else d


def expand_reduced(g: Tensor, in_shape, dims, keepdim: bool) -> Tensor:
    """Broadcast a reduced gradient back over the reduced dims (differentiable)."""
    from core.ops.views import expand, reshape  # noqa: PLC0415

    if not keepdim and dims:
        shape = [1 if i in dims else s for i, s in enumerate(in_shape)]
        g = reshape(g, shape)
    return expand(g, in_shape)


class Sum(Function):
    node_name = "SumBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt):
        ctx.in_shape = a._data.shape
        ctx.dims = dims
        ctx.keepdim = keepdim
        x = a._data
        xp = xp_of(x)
        return xp.asarray(xp.sum(x, axis=dims, keepdims=keepdim, dtype=dt.np))

    @staticmethod
    def backward(ctx, g):
        return expand_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim)


class SumDim(Sum):
    node_name = "SumBackward1"


def sum(input: Tensor, dim=None, keepdim: bool = False, *, dtype=None):  # noqa: A001 - PyTorch's name
    dt = _sum_dtype(input, dtype)
    nd = input._data.ndim
    if dim is None or (isinstance(dim, (tuple, list)) and len(dim) == 0):
        return Sum.apply(input, dims=tuple(range(nd)), keepdim=bool(keepdim) if dim is not None else False, dt=dt)
    return SumDim.apply(input, dims=normalize_dims(dim, nd), keepdim=bool(keepdim), dt=dt)


_ = np
