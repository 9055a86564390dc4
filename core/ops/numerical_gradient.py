"""``torch.gradient``: derivatives of sampled values by central differences (one-sided at the edges).

PyTorch's formulas, op for op and differentiable (they are core ops): with uniform spacing ``h`` the interior is
``(f[i+1] - f[i-1]) / h / 2`` and the edges ``(f[1] - f[0]) / h`` (``edge_order=1``) or the second-order
one-sided stencils (``edge_order=2``); with coordinates the interior uses the non-uniform three-point weights.
"""

from __future__ import annotations

import numbers

from core._tensor import Tensor
from core.ops._util import normalize_dims
from core.ops.joining import cat

__all__ = ["gradient"]


def _slice(t: Tensor, dim: int, start, stop=None) -> Tensor:
    index = [slice(None)] * t.ndim
    index[dim] = slice(start, stop)
    return t[tuple(index)]


def _uniform(f: Tensor, dim: int, h, edge_order: int) -> Tensor:
    center = (_slice(f, dim, 2) - _slice(f, dim, 0, -2)) / h
    if edge_order == 1:
        first = (_slice(f, dim, 1, 2) - _slice(f, dim, 0, 1)) / h
        last = (_slice(f, dim, -1) - _slice(f, dim, -2, -1)) / h
    else:
        first = (-1.5 * _slice(f, dim, 0, 1) + 2 * _slice(f, dim, 1, 2) - 0.5 * _slice(f, dim, 2, 3)) / h
        last = (0.5 * _slice(f, dim, -3, -2) - 2 * _slice(f, dim, -2, -1) + 1.5 * _slice(f, dim, -1)) / h
    return cat([first, center / 2, last], dim)


def _coordinates(f: Tensor, dim: int, x: Tensor, edge_order: int) -> Tensor:
    dx = x[1:] - x[:-1]
    shape = [1] * f.ndim
    shape[dim] = -1
    dx1, dx2 = dx[:-1], dx[1:]
    a = (-dx2 / (dx1 * (dx1 + dx2))).reshape(shape)
    b = ((dx2 - dx1) / (dx1 * dx2)).reshape(shape)
    c = (dx1 / (dx2 * (dx1 + dx2))).reshape(shape)
    center = a * _slice(f, dim, 0, -2) + b * _slice(f, dim, 1, -1) + c * _slice(f, dim, 2)
    if edge_order == 1:
        first = (_slice(f, dim, 1, 2) - _slice(f, dim, 0, 1)) / dx[0]
        last = (_slice(f, dim, -1) - _slice(f, dim, -2, -1)) / dx[-1]
    else:
        d0, d1, e1, e2 = dx[0], dx[1], dx[-1], dx[-2]
        first = (-(2.0 * d0 + d1) / (d0 * (d0 + d1)) * _slice(f, dim, 0, 1)
                 + (d0 + d1) / (d0 * d1) * _slice(f, dim, 1, 2)
                 + (-d0) / (d1 * (d0 + d1)) * _slice(f, dim, 2, 3))
        last = (e1 / (e2 * (e1 + e2)) * _slice(f, dim, -3, -2)
                - (e1 + e2) / (e1 * e2) * _slice(f, dim, -2, -1)
                + (2 * e1 + e2) / (e1 * (e1 + e2)) * _slice(f, dim, -1))
    return cat([first, center, last], dim)


def gradient(input: Tensor, *, spacing=1, dim=None, edge_order: int = 1) -> tuple:
    """``torch.gradient``: one tensor per dim in ``dim`` (all dims by default). ``spacing`` is a number (the same
    step everywhere), a list of numbers (one step per dim) or a list of 1-D tensors (each dim's coordinates)."""
    if edge_order not in (1, 2):
        raise RuntimeError("torch.gradient only supports edge_order=1 and edge_order=2.")
    spacing = 1 if spacing is None else spacing  # (spacing=None, as PyTorch's signature allows: unit steps)
    if dim is not None:
        normalize_dims(dim, input.ndim)  # torch's errors: a dim out of range, a dim given twice
    dims = list(range(input.ndim)) if dim is None else ([dim] if isinstance(dim, int) else list(dim))
    dims = [d % input.ndim for d in dims]
    if isinstance(spacing, (numbers.Number, Tensor)) and not (isinstance(spacing, Tensor) and spacing.ndim):
        steps = [spacing] * len(dims)
    else:
        steps = list(spacing)
        if len(steps) != len(dims):
            raise RuntimeError(f"torch.gradient expected spacing to be unspecified, a scalar or it's spacing and dim "
                               f"arguments to have the same length, but got a spacing argument of length "
                               f"{len(steps)} and a dim argument of length {len(dims)}.")
    for d in dims:
        if input.shape[d] < edge_order + 1:
            raise RuntimeError("torch.gradient expected each dimension size to be at least edge_order+1")
    f = input if input.is_floating_point() else input.float()
    out = []
    for d, step in zip(dims, steps):
        if isinstance(step, Tensor) and step.ndim == 1:
            out.append(_coordinates(f, d, step, edge_order))
        else:
            out.append(_uniform(f, d, step.item() if isinstance(step, Tensor) else step, edge_order))
    return tuple(out)
