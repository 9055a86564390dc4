"""``fractional_max_pool2d``/``3d`` (and ``_with_indices``): max pooling over pseudo-random overlapping windows.

Each (sample, channel) plane takes one uniform draw per spatial dim (``torch.rand(N, C, dims)`` in the input's
dtype, drawn as PyTorch draws it, or ``_random_samples``). A dim of size n pooled to o outputs with windows of k
then starts its windows at ``int((i + u) * a) - int(u * a)``, ``a = (n - k) / (o - 1)`` computed in the input's
dtype, the last one at ``n - k``. The draws map to the dims in reverse order in 2-D (draw 0 is the width) and in
order in 3-D, as in PyTorch's kernels. The first maximum of a window wins; a NaN wins over numbers (the last NaN).
"""

from __future__ import annotations

import numpy as np

import core
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.nn.functional.sliding import scatter_to_maxima
from core.ops._util import xp_of

__all__ = ["fractional_max_pool2d", "fractional_max_pool3d", "fractional_max_pool2d_with_indices",
           "fractional_max_pool3d_with_indices"]


def _starts(u: np.ndarray, size: int, out: int, pool: int) -> np.ndarray:
    """Window starts for draws ``u`` (any shape) along one dim: ``u.shape + (out,)``, ints."""
    dt = u.dtype.type
    starts = np.empty(u.shape + (out,), dtype=np.int64)
    if out > 1:
        alpha = dt(size - pool) / dt(out - 1)
        i = np.arange(out - 1, dtype=u.dtype)
        starts[..., :-1] = (((i + u[..., None]) * alpha).astype(np.int64)
                            - (u[..., None] * alpha).astype(np.int64))
    starts[..., -1] = size - pool
    return starts


class FractionalMaxPool(Function):
    @staticmethod
    def forward(ctx, x, samples, *, kernel, out_size, found):
        nd = len(kernel)
        unbatched = x._data.ndim == nd + 1
        xa = np.asarray(x._data[None] if unbatched else x._data)
        u = np.asarray(samples._data)
        if nd == 2:
            u = u[..., ::-1]  # PyTorch's 2-D kernel: draw 0 is the width's, draw 1 the height's
        spatial = xa.shape[2:]
        flat = np.zeros(xa.shape[:2] + tuple(out_size) + tuple(kernel), dtype=np.int64)
        for d in range(nd):
            start = _starts(u[..., d], spatial[d], out_size[d], kernel[d])  # (N, C, O_d)
            pos = start[..., :, None] + np.arange(kernel[d])  # (N, C, O_d, K_d)
            shape = [xa.shape[0], xa.shape[1]] + [1] * (2 * nd)
            shape[2 + d], shape[2 + nd + d] = out_size[d], kernel[d]
            flat = flat * spatial[d] + pos.reshape(shape)
        flat = flat.reshape(xa.shape[:2] + tuple(out_size) + (-1,))
        win = np.take_along_axis(xa.reshape(xa.shape[:2] + (-1,)), flat.reshape(xa.shape[:2] + (-1,)), axis=-1)
        win = win.reshape(flat.shape)
        arg = win.argmax(axis=-1)
        if xa.dtype.kind == "f":
            nan = np.isnan(win)
            last_nan = win.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
            arg = np.where(nan.any(axis=-1), last_nan, arg)
        out = np.take_along_axis(win, arg[..., None], axis=-1)[..., 0]
        idx = np.take_along_axis(flat, arg[..., None], axis=-1)[..., 0]
        xp = xp_of(x._data)
        ctx.idx, ctx.in_shape = xp.asarray(idx), x._data.shape
        found.append(xp.asarray(idx[0] if unbatched else idx))
        return xp.asarray(out[0] if unbatched else out)

    @staticmethod
    def backward(ctx, g):
        return scatter_to_maxima(g, ctx.idx, ctx.in_shape, ctx.idx.ndim - 2), None


def _tuple(value, n: int):
    return tuple(value) if isinstance(value, (tuple, list)) else (value,) * n


def _too_large(name: str, nd: int, d: int, kernel, sizes) -> str:
    """torch 2.13's refusal of a window that doesn't fit: the 2-d one names the dimension; the 3-d one always names
    the time dimension's pool and input sizes, whichever dimension failed."""
    if nd == 3:
        return f"{name}_out(): pool time {kernel[0]} too large relative to input time {sizes[0]}"
    dim = ("height", "width")[d]
    return f"{name}(): pool {dim} {kernel[d]} too large relative to input {dim} {sizes[d]}"


def _with_indices(name, nd, input, kernel_size, output_size, output_ratio, _random_samples):
    if input.dim() not in (nd + 1, nd + 2):
        raise RuntimeError(f"{name}(): Expected {nd + 1}D or {nd + 2}D tensor, but got: {list(input.shape)}")
    if output_size is None and output_ratio is None:
        raise ValueError(f"{name} requires specifying either an output_size or an output_ratio")
    kernel = _tuple(kernel_size, nd)
    if output_size is None:
        if nd == 2 and len(output_ratio) > 2:  # (torch's len(): a bare float is its TypeError)
            raise ValueError("fractional_max_pool2d requires output_ratio to either be a single Int or tuple of Ints.")
        ratio = _tuple(output_ratio, nd)
        output_size = [int(input.size(d - nd) * ratio[d]) for d in range(nd)]
    out_size = _tuple(output_size, nd)
    for d in range(nd):
        if out_size[d] + kernel[d] - 1 > input.size(d - nd):
            raise RuntimeError(_too_large(name, nd, d, kernel, input.shape[-nd:]))
    if _random_samples is None:
        n_batch = 1 if input.dim() == nd + 1 else input.size(0)
        _random_samples = core.rand(n_batch, input.size(-nd - 1), nd, dtype=input.dtype, device=input.device)
    found = []
    out = FractionalMaxPool.apply(input, _random_samples, kernel=kernel, out_size=out_size, found=found)
    return out, new_tensor(found[0])


def fractional_max_pool2d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _with_indices("fractional_max_pool2d", 2, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool3d_with_indices(input: Tensor, kernel_size, output_size=None, output_ratio=None,
                                       return_indices=False, _random_samples=None):
    return _with_indices("fractional_max_pool3d", 3, input, kernel_size, output_size, output_ratio, _random_samples)


def fractional_max_pool2d(input: Tensor, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    out, idx = fractional_max_pool2d_with_indices(input, kernel_size, output_size, output_ratio, True,
                                                  _random_samples)
    return (out, idx) if return_indices else out


def fractional_max_pool3d(input: Tensor, kernel_size, output_size=None, output_ratio=None, return_indices=False,
                          _random_samples=None):
    out, idx = fractional_max_pool3d_with_indices(input, kernel_size, output_size, output_ratio, True,
                                                  _random_samples)
    return (out, idx) if return_indices else out
