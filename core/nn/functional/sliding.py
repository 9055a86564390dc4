"""``unfold`` / ``fold`` (im2col and col2im) and ``adaptive_max_pool1d/2d``, with PyTorch's checks and node names.

``Im2Col`` and ``Col2Im`` are each other's backward (both are linear), so double backward works. The
adaptive max pool's backward scatters with ``scatter_add``, a differentiable op, for the same reason.
Unbatched (3-d) inputs are handled inside the primitives, so ``grad_fn`` is PyTorch's node, not a squeeze.
"""

from __future__ import annotations

import collections.abc

import numpy as np

from core._arg_types import require_int_list
from core._factories import zeros
from core._memory_format import format_of, in_format
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.nn.functional._pool import Geometry, adaptive_output_size
from core.nn.functional.conv import pair
from core.ops._util import xp_of
from core.ops.scatter import scatter_add

__all__ = ["unfold", "fold", "adaptive_max_pool1d", "adaptive_max_pool2d", "adaptive_max_pool1d_with_indices",
           "adaptive_max_pool2d_with_indices"]


def _batched(a):
    return (a, False) if a.ndim == 4 else (a[None], True)


class Im2Col(Function):
    node_name = "Im2ColBackward0"

    @staticmethod
    def forward(ctx, x, *, geo: Geometry):
        xa, unbatched = _batched(x._data)
        win = geo.windows(geo.padded(xa, 0))  # (N, C, OH, OW, kh, kw)
        n, c = xa.shape[:2]
        length = geo.out_hw[0] * geo.out_hw[1]  # (not -1: a batch of 0 has no size to infer it from)
        cols = win.transpose(0, 1, 4, 5, 2, 3).reshape(n, c * geo.kernel[0] * geo.kernel[1], length)
        ctx.geo, ctx.in_shape = geo, x._data.shape
        return cols[0] if unbatched else cols

    @staticmethod
    def backward(ctx, g):
        return Col2Im.apply(g, geo=ctx.geo, out_shape=ctx.in_shape)


class Col2Im(Function):
    node_name = "Col2ImBackward0"

    @staticmethod
    def forward(ctx, cols, *, geo: Geometry, out_shape):
        ca = cols._data
        unbatched = ca.ndim == 2
        ca = ca[None] if unbatched else ca
        (kh, kw), (oh, ow) = geo.kernel, geo.out_hw
        blocks = ca.reshape(ca.shape[0], ca.shape[1] // (kh * kw), kh, kw, oh, ow)  # (not -1: a batch may be 0)
        shape = blocks.shape[:2] + tuple(out_shape[-2:])
        out = geo.scatter(lambda i, j: blocks[:, :, i, j], shape, ca.dtype, xp_of(ca))
        ctx.geo = geo
        return out[0] if unbatched else out

    @staticmethod
    def backward(ctx, g):
        return Im2Col.apply(g, geo=ctx.geo)


def _pair(value) -> tuple:
    """``torch.nn.modules.utils._pair``: an iterable as a tuple, anything else twice."""
    return tuple(value) if isinstance(value, collections.abc.Iterable) else (value, value)


def _options(fn: str, first: int, **sizes) -> list:
    """unfold's/fold's sizes as torch's: each through ``_pair`` (an int repeated, an iterable as it is), then
    ``fn``'s (``im2col``/``col2im``) parser and its length check, in order, from position ``first``."""
    out = []
    for position, (name, value) in enumerate(sizes.items(), first):
        value = require_int_list(fn, name, position, list(_pair(value)))
        if len(value) != 2:
            raise RuntimeError(f"It is expected {name} equals to 2, but got size {len(value)}")
        out.append(tuple(value))
    return out


def unfold(input: Tensor, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sliding blocks of a (N, C, H, W) or (C, H, W) input as columns: (N, C * kh * kw, L)."""
    if input.ndim < 3:
        raise IndexError(f"Dimension out of range (expected to be in range of [{-max(input.ndim, 1)}, "
                         f"{max(input.ndim, 1) - 1}], but got {input.ndim})")
    if input.ndim > 4:
        raise RuntimeError(f"Expected 3D or 4D (batch mode) tensor with possibly 0 batch size and other non-zero "
                           f"dimensions for input, but got: {list(input.shape)}")
    k, d, p, s = _options("im2col", 2, kernel_size=kernel_size, dilation=dilation, padding=padding, stride=stride)
    geo = Geometry(tuple(input.shape[-2:]), k, s, p, d, False)
    if min(geo.out_hw) < 1:
        blocks = tuple((input.shape[-2 + i] + 2 * p[i] - d[i] * (k[i] - 1) - 1) // s[i] + 1 for i in range(2))
        raise RuntimeError(f"Given input with spatial size {tuple(input.shape[-2:])}, kernel_size={k}, dilation={d}, "
                           f"padding={p}, calculated shape of the array of sliding blocks as {blocks}, but its "
                           f"components must be at least one.")
    return Im2Col.apply(input, geo=geo)


def fold(input: Tensor, output_size, kernel_size, dilation=1, padding=0, stride=1) -> Tensor:
    """Sum columns (N, C * kh * kw, L) back into an (N, C, H, W) image of ``output_size``: unfold's adjoint."""
    if input.ndim not in (2, 3):
        raise NotImplementedError(f"Input Error: Only unbatched (2D) or batched (3D) input Tensors are supported "
                                  f"(got {input.ndim}D)")
    out_hw, k, d, p, s = _options("col2im", 2, output_size=output_size, kernel_size=kernel_size, dilation=dilation,
                                  padding=padding, stride=stride)
    channels, length = input.shape[-2:]
    if channels % (k[0] * k[1]):
        raise RuntimeError(f"Expected size of input's dimension {input.ndim - 2} to be divisible by the product of "
                           f"kernel_size, but got input.size({input.ndim - 2})={channels} and kernel_size={k}.")
    geo = Geometry(out_hw, k, s, p, d, False)
    oh, ow = geo.out_hw
    if oh < 1 or ow < 1 or oh * ow != length:
        raise RuntimeError(f"Given output_size={out_hw}, kernel_size={k}, dilation={d}, padding={p}, stride={s}, "
                           f"expected size of input's dimension {input.ndim - 1} to match the calculated number of "
                           f"sliding blocks {oh} * {ow} = {oh * ow}, but got input.size({input.ndim - 1})={length}.")
    return Col2Im.apply(input, geo=geo, out_shape=out_hw)


def _windows(size: int, out: int, xp):
    """PyTorch's adaptive windows [floor(i*n/o), ceil((i+1)*n/o)) as a padded (out, K) index grid + mask."""
    i = np.arange(out)
    start, end = (i * size) // out, -((-(i + 1) * size) // out)
    k = int((end - start).max(initial=0))  # (no window at all for an output size of 0)
    grid = start[:, None] + np.arange(k)
    valid = grid < end[:, None]
    return xp.asarray(np.minimum(grid, size - 1)), xp.asarray(valid)


def window_max(win, valid, xp):
    """Each window's maximum (the last axis) and its position in the window: padding slots (``valid`` False) never
    win, a NaN always does (the last one, as PyTorch's kernels scan with ``val > max || isnan(val)``)."""
    low = -np.inf if win.dtype.kind in "fV" else np.iinfo(win.dtype).min  # ("V": bfloat16)
    win = xp.where(valid, win, xp.asarray(low, dtype=win.dtype))
    arg = win.argmax(axis=-1)
    if win.dtype.kind == "f":
        nan = xp.isnan(win)
        last_nan = win.shape[-1] - 1 - nan[..., ::-1].argmax(axis=-1)
        arg = xp.where(nan.any(axis=-1), last_nan, arg)
    return xp.take_along_axis(win, arg[..., None], axis=-1)[..., 0], arg


def scatter_to_maxima(g: Tensor, idx, in_shape, dims: int) -> Tensor:
    """A max pool's backward: each output's gradient added at its maximum's flat position over the input's last
    ``dims`` dims (``scatter_add`` is differentiable, so double backward works)."""
    flat_g = g.reshape(tuple(g.shape[:-dims]) + (-1,))
    base = zeros(tuple(flat_g.shape[:-1]) + (int(np.prod(in_shape[-dims:])),), dtype=g.dtype, device=g.device)
    return scatter_add(base, -1, new_tensor(idx).reshape(flat_g.shape), flat_g).reshape(in_shape)


def _check_not_empty(name: str, input: Tensor) -> None:
    """PyTorch's adaptive max pools refuse an empty dim after the first (dim 0 may be empty, batched or not)."""
    empty = [d for d in range(1, input.ndim) if input.shape[d] == 0]
    if empty:
        raise RuntimeError(f"{name}: Expected input to have non-zero size for non-batch dimensions, "
                           f"but input has sizes {list(input.shape)} with dimension {empty[0]} being empty")


def adaptive_max_pool_with_indices(cls, input: Tensor, output_size, dims: int, sizes):
    """``cls`` (an adaptive max pool over the last ``dims`` dims) applied with PyTorch's checks: ``(out, indices)``;
    ``sizes(output_size, in_size)`` reads the output size once the input passed them."""
    name = f"adaptive_max_pool{dims}d()"
    if input.ndim not in (dims + 1, dims + 2):
        raise RuntimeError(f"{name}: Expected {dims + 1}D or {dims + 2}D tensor, but got: {list(input.shape)}")
    _check_not_empty(name, input)
    found: list = []  # the indices leave through ``found``: they have no gradient
    out_size = sizes(output_size, tuple(input.shape[-dims:]))
    for o in out_size:
        if o < 0:  # (PyTorch's error, from allocating its output)
            raise RuntimeError(f"Trying to create tensor with negative dimension {o}: "
                               f"{list(input.shape[:-dims]) + list(out_size)}")
    out = cls.apply(input, out_size=out_size, found=found)
    return out, new_tensor(found[0])


class AdaptiveMaxPool2d(Function):
    node_name = "AdaptiveMaxPool2DBackward0"
    saved_names = ("self",)
    _saved_result1 = SavedFromCtx(lambda c: Tensor._wrap(c["result1"]), tensor=True)  # (the indices it returned)

    @staticmethod
    def forward(ctx, x, *, out_size, found):
        ctx.save_for_backward(x)  # (PyTorch saves the input: a write to it before backward is refused)
        out_hw = out_size  # (OH, OW)
        xa, unbatched = _batched(x._data)
        xp = xp_of(xa)
        h, w = xa.shape[2:]
        if xa.size == 0 or 0 in out_hw:
            return _no_windows(ctx, x, xa.shape[:2] + tuple(out_hw), found, unbatched)
        (rows, rvalid), (cols, cvalid) = _windows(h, out_hw[0], xp), _windows(w, out_hw[1], xp)
        win = xa[:, :, rows[:, :, None, None], cols[None, None, :, :]]  # (N, C, OH, KH, OW, KW)
        win = win.transpose(0, 1, 2, 4, 3, 5).reshape(xa.shape[:2] + out_hw + (rows.shape[1] * cols.shape[1],))
        valid = (rvalid[:, None, :, None] & cvalid[None, :, None, :]).reshape(out_hw + (-1,))
        out, arg = window_max(win, valid, xp)
        kw = cols.shape[1]
        row = rows[xp.arange(out_hw[0])[:, None], arg // kw]
        col = cols[xp.arange(out_hw[1]), arg % kw]
        fmt = format_of(xa)  # (a channels-last image gives channels-last values and indices, as torch's kernel)
        out, idx = in_format(out, fmt), in_format((row * w + col).astype(np.int64), fmt)
        ctx.idx, ctx.in_shape = idx, x._data.shape
        found.append(idx[0] if unbatched else idx)  # the indices leave through ``found``: they have no gradient
        ctx.result1 = found[-1]
        return out[0] if unbatched else out

    @staticmethod
    def backward(ctx, g):
        _ = ctx._unpacked  # (the version check of the saved input)
        return scatter_to_maxima(g, ctx.idx, ctx.in_shape, 2)


def _no_windows(ctx, x, shape, found, unbatched: bool):
    """An adaptive max pool with nothing to pool (an empty batch or channel dim, or an output size of 0): an empty
    output and empty indices of torch's shapes."""
    xp = xp_of(x._data)
    idx = xp.zeros(shape, np.int64)
    ctx.idx, ctx.in_shape = idx, x._data.shape
    found.append(idx[0] if unbatched else idx)
    ctx.result1 = found[-1]
    out = xp.empty(shape, x._data.dtype)
    return out[0] if unbatched else out


def _adaptive_size(output_size, in_hw):
    size = pair(output_size, 2, "output_size") if not isinstance(output_size, (tuple, list)) else tuple(output_size)
    if len(size) != 2:
        raise RuntimeError(f"adaptive_max_pool2d: internal error: output_size.size() must be 2, got {len(size)}")
    return tuple(in_hw[i] if size[i] is None else int(size[i]) for i in range(2))


def adaptive_max_pool2d_with_indices(input: Tensor, output_size, return_indices: bool = True):
    output_size = adaptive_output_size("adaptive_max_pool2d", input, output_size, 2)
    return adaptive_max_pool_with_indices(AdaptiveMaxPool2d, input, output_size, 2, _adaptive_size)


def adaptive_max_pool2d(input: Tensor, output_size, return_indices: bool = False):
    """Max over PyTorch's adaptive windows; ``return_indices`` adds the flat H*W position of each maximum."""
    out, idx = adaptive_max_pool2d_with_indices(input, output_size)
    return (out, idx) if return_indices else out


def adaptive_max_pool1d_with_indices(input: Tensor, output_size, return_indices: bool = True):
    if input.ndim not in (2, 3):
        raise RuntimeError(f"Expected 2 to 3 dimensions, but got {input.ndim}-dimensional tensor for argument #1 "
                           f"'self' (while checking arguments for adaptive_max_pool1d)")
    size = adaptive_output_size("adaptive_max_pool1d", input, output_size, 1, with_default=False)[0]
    _check_not_empty("adaptive_max_pool1d()", input)
    out, idx = adaptive_max_pool2d_with_indices(input.unsqueeze(-2), (1, size))
    return out.squeeze(-2), idx.squeeze(-2)


def adaptive_max_pool1d(input: Tensor, output_size, return_indices: bool = False):
    """Max over PyTorch's adaptive windows of the last dimension."""
    out, idx = adaptive_max_pool1d_with_indices(input, output_size)
    return (out, idx) if return_indices else out
