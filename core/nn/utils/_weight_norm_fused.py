"""``torch._weight_norm``'s fused CPU route: ``w = v * (g / ||v||)`` as one node, ``WeightNormInterfaceBackward0``.

PyTorch computes weight normalisation over the first or the last dim (what ``nn.utils.weight_norm`` and
``parametrizations.weight_norm`` use by default) with one kernel (``_weight_norm_interface``) and its own backward;
other dims, ``dim=None`` and float16 take the composite ``v * (g / norm_except_dim(v))``. This module is that
kernel's arithmetic in float32 (double for float64), in its order:

- forward, first dim: each row's squared sum with the kernel's SIMD reduction (8 float32 lanes), its square root,
  then ``a = g / norm`` and ``w = v * a``; last dim: the squares fused row after row into one sum per column.
- backward: ``s`` = the sums of ``grad_w * v`` the same way, ``grad_g = s / norm``, ``a = g / norm``,
  ``b = a * grad_g / norm`` and ``grad_v = a * grad_w - b * v`` (``b * v`` fused into the subtraction). With
  grad mode on (``create_graph``) it is the same formula in differentiable ops, as PyTorch's
  ``_weight_norm_differentiable_backward``.

The last-dim sums are PyTorch's on one thread (the corpus runs torch with one); with more threads torch adds
per-thread partial sums, which can round differently.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._cascade_sum import in_order
from core._fused import fma, fma_
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled

__all__ = ["fused_applies", "weight_norm_fused"]

_FLOATS = (_dtype.float32, _dtype.float64)


def fused_applies(v: Tensor, g: Tensor, dim: int) -> bool:
    """PyTorch's ``can_use_fused`` (the first or the last dim, no float16), for float32 and float64 arrays."""
    return (v.dtype in _FLOATS and g.dtype in _FLOATS and v.dim() > 0 and dim in (0, v.dim() - 1)
            and type(v._data) is np.ndarray and type(g._data) is np.ndarray)


def fnmadd(b: np.ndarray, v: np.ndarray, t: np.ndarray) -> np.ndarray:
    """``t - b * v`` rounded once."""
    return fma(np, -b, v, t)


def _rows(x: np.ndarray, first: bool) -> np.ndarray:
    return x.reshape(x.shape[0], -1) if first else x.reshape(-1, x.shape[-1])


def _lane_sums(products: np.ndarray) -> np.ndarray:
    """Each row's sum as ``vec::map_reduce_all`` adds it: a row shorter than a vector left to right, a longer one
    into one accumulator per lane chunk by chunk (the partial last chunk into the first lanes), the lanes then
    combined as a tree. The kernel's vectors here are 256-bit: 8 float32 or 4 float64 lanes."""
    lanes = 32 // products.itemsize
    m, n = products.shape
    if n < lanes:
        return np.cumsum(products, axis=1)[:, -1]
    full, rest = divmod(n, lanes)
    acc = in_order(products[:, :full * lanes].reshape(m, full, lanes).transpose(1, 0, 2))
    if rest:
        acc[:, :rest] += products[:, full * lanes:]
    half = lanes // 2
    while half:
        acc = acc[:, :half] + acc[:, half:2 * half]
        half //= 2
    return acc[:, 0]


def _sums(x: np.ndarray, y: np.ndarray, first: bool) -> np.ndarray:
    """The sums of ``x * y``: each row's (first dim), or each column's (last dim: row after row, each product
    fused into the running sum, as the kernel's ``out + x * y`` compiles on one thread)."""
    if first:
        return _lane_sums(x * y) if x.shape[1] else np.zeros(x.shape[0], x.dtype)
    acc = np.zeros(x.shape[1], x.dtype)
    for row_x, row_y in zip(x, y):
        fma_(np, acc, row_x, row_y)
    return acc


class WeightNormFused(Function):
    node_name = "WeightNormInterfaceBackward0"

    @staticmethod
    def forward(ctx, v, g, *, dim):
        first = dim == 0
        x = np.ascontiguousarray(v._data)
        rows = _rows(x, first)
        acc = np.float64 if x.dtype == np.float64 else np.float32  # PyTorch's opmath type
        rows_acc = rows.astype(acc, copy=False)
        norm = np.sqrt(_sums(rows_acc, rows_acc, first))
        a = np.ascontiguousarray(g._data).reshape(-1).astype(acc, copy=False) / norm
        w = rows_acc * (a[:, None] if first else a[None, :])
        ctx.first, ctx.norm = first, norm
        ctx.save_for_backward(v, g)
        return Tensor._wrap(w.astype(x.dtype, copy=False).reshape(x.shape))

    @staticmethod
    def backward(ctx, grad_w):
        v, g = ctx._unpacked
        first, norm = ctx.first, ctx.norm
        if is_grad_enabled():  # create_graph: the formula in differentiable ops
            return _differentiable_backward(grad_w, v, g, Tensor._wrap(norm), first)
        x = np.ascontiguousarray(v._data)
        acc = norm.dtype
        rows = _rows(x, first).astype(acc, copy=False)
        gw = _rows(np.ascontiguousarray(grad_w._data), first).astype(acc, copy=False)
        grad_g = _sums(gw, rows, first) / norm
        a = np.ascontiguousarray(g._data).reshape(-1).astype(acc, copy=False) / norm
        b = a * grad_g / norm
        shape = (slice(None), None) if first else (None, slice(None))
        # NOTE: the kernel's ``a * grad_w - b * v`` compiles to a multiply and a fused negated multiply-add:
        # a * grad_w is rounded, b * v is not
        grad_v = fnmadd(b[shape], rows, a[shape] * gw)
        return (Tensor._wrap(grad_v.astype(x.dtype, copy=False).reshape(x.shape)),
                Tensor._wrap(grad_g.astype(g._data.dtype, copy=False).reshape(g._data.shape)))


def _differentiable_backward(grad_w, v, g, norm, first: bool):
    shape = [-1] + [1] * (v.dim() - 1) if first else [1] * (v.dim() - 1) + [-1]
    norms = norm.to(v.dtype).reshape(shape)
    dims = tuple(range(1, v.dim())) if first else tuple(range(v.dim() - 1))
    grad_g = (grad_w * v).sum(dims, keepdim=True) / norms if dims else grad_w * v / norms
    grad_v = (g.reshape(shape) / norms) * (grad_w - v * (grad_g / norms))
    return grad_v, grad_g.reshape(g.shape)


def weight_norm_fused(v: Tensor, g: Tensor, dim: int) -> Tensor:
    """``v * (g / ||v||)`` over every dim but ``dim`` (0 or the last), one node as PyTorch's fused kernel."""
    return WeightNormFused.apply(v, g, dim=dim)
