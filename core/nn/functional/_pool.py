"""Pooling primitives: max, average and adaptive average over 2-d windows.

Windows are ``as_strided`` views of the padded input; backward passes scatter with one slice-add
per kernel offset (kh*kw of them), never per pixel. Each backward is itself a Function whose
backward is the forward's selection again, so double backward works.
"""

from __future__ import annotations

import numpy as np

from core._memory_format import format_of, in_format
from core._meta import is_meta, meta_array
from core.autograd.function import Function
from core.ops._float32_compute import computes_in_float32, half_steps
from core.ops._util import xp_of

__all__ = ["Geometry", "MaxPool", "AvgPool", "AdaptiveAvgPool", "adaptive_bins"]


class Geometry:
    """Kernel, stride, padding, dilation and output size of a 2-d pooling; ``extra`` pads the far side."""

    def __init__(self, in_hw, kernel, stride, padding, dilation, ceil_mode):
        self.in_hw, self.kernel, self.stride, self.padding, self.dilation = in_hw, kernel, stride, padding, dilation
        out, extra = [], []
        for i in range(2):
            span = in_hw[i] + 2 * padding[i] - dilation[i] * (kernel[i] - 1) - 1
            o = (-(-span // stride[i]) if ceil_mode else span // stride[i]) + 1
            if ceil_mode and (o - 1) * stride[i] >= in_hw[i] + padding[i]:
                o -= 1
            out.append(o)
            extra.append(max(0, (o - 1) * stride[i] + dilation[i] * (kernel[i] - 1) + 1 - in_hw[i] - 2 * padding[i]))
        self.out_hw, self.extra = tuple(out), tuple(extra)

    def padded(self, x, fill):
        xp = xp_of(x)
        (ph, pw), (eh, ew) = self.padding, self.extra
        if not (ph or pw or eh or ew):
            return x
        if is_meta(x):
            return meta_array(x.shape[:2] + (x.shape[2] + 2 * ph + eh, x.shape[3] + 2 * pw + ew), x.dtype)
        out = xp.full(x.shape[:2] + (x.shape[2] + 2 * ph + eh, x.shape[3] + 2 * pw + ew), fill, dtype=x.dtype)
        out[:, :, ph:ph + x.shape[2], pw:pw + x.shape[3]] = x
        return out

    def windows(self, xpad):
        """(N, C, OH, OW, kh, kw) view of the padded input."""
        s_n, s_c, s_h, s_w = xpad.strides
        (sh, sw), (dh, dw) = self.stride, self.dilation
        shape = xpad.shape[:2] + self.out_hw + self.kernel
        return xp_of(xpad).lib.stride_tricks.as_strided(xpad, shape, (s_n, s_c, s_h * sh, s_w * sw, s_h * dh, s_w * dw))

    def scatter(self, per_offset, shape, dtype, xp):
        """Sum ``per_offset(i, j)`` (N, C, OH, OW) into the input grid at kernel offset (i, j); crop padding.
        The offsets go from the last to the first, so that each input cell adds its windows' shares in the
        order of the windows (row by row, left to right), as PyTorch's backward kernels add them: where windows
        overlap, the sums then round as torch's."""
        (ph, pw), (eh, ew) = self.padding, self.extra
        out = xp.zeros(shape[:2] + (shape[2] + 2 * ph + eh, shape[3] + 2 * pw + ew), dtype=dtype)
        (sh, sw), (dh, dw), (oh, ow) = self.stride, self.dilation, self.out_hw
        for i in reversed(range(self.kernel[0])):
            for j in reversed(range(self.kernel[1])):
                rows = slice(i * dh, i * dh + sh * (oh - 1) + 1, sh)
                cols = slice(j * dw, j * dw + sw * (ow - 1) + 1, sw)
                out[:, :, rows, cols] += per_offset(i, j)
        return out[:, :, ph:ph + shape[2], pw:pw + shape[3]]


def _window_max(win, xp, nans: bool):
    """Max and its offset in each (kh, kw) window, scanning the offsets in row-major order as PyTorch's CPU kernel
    does: a later element replaces the maximum when it is greater or NaN (so the last NaN wins; of equal maxima the
    first). One pass per kernel offset over the (N, C, OH, OW) grid, without branches: the offset k only grows, so
    the winning offset is ``max(arg, k * update)``; the value is ``maximum`` (NaN propagates, as it wins)."""
    kh, kw = win.shape[-2:]
    out = win[..., 0, 0].copy()
    small = np.int16 if kh * kw < 2 ** 15 else np.int64
    arg, step = xp.zeros(out.shape, dtype=small), xp.empty(out.shape, dtype=small)
    update = xp.empty(out.shape, dtype=bool)
    for k in range(1, kh * kw):
        v = win[..., k // kw, k % kw]
        xp.greater(v, out, out=update)
        if nans:
            update |= xp.isnan(v)
        xp.maximum(v, out, out=out)  # on a tie NumPy keeps the second operand: the earlier maximum (its -0.0)
        xp.multiply(update, small(k), out=step, dtype=small)
        xp.maximum(arg, step, out=arg)
    return out, arg.astype(np.int64)


class MaxPool(Function):
    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, *, geo: Geometry):
        xa = x._data
        xp = xp_of(xa)
        if is_meta(xa):  # the meta device: shapes only
            ctx.arg, ctx.geo, ctx.in_shape = meta_array(xa.shape[:2] + geo.out_hw, np.int64), geo, xa.shape
            return meta_array(xa.shape[:2] + geo.out_hw, xa.dtype)
        fill = -np.inf if xa.dtype.kind in "fV" else np.iinfo(xa.dtype).min  # ("V": bfloat16)
        win = geo.windows(geo.padded(xa, fill))
        out, arg = _window_max(win, xp, xa.dtype.kind in "fV" and bool(xp.isnan(xa).any()))  # NaN-free: no isnan
        ctx.arg, ctx.geo, ctx.in_shape = arg, geo, xa.shape
        return out

    @staticmethod
    def backward(ctx, g):
        return MaxPoolBackward.apply(g, arg=ctx.arg, geo=ctx.geo, in_shape=ctx.in_shape)


def indices_of(arg, geo: Geometry, xp):
    """Flat positions (in the unpadded H*W grid) of the argmax of each window, as PyTorch returns them."""
    kw = geo.kernel[1]
    oh, ow = geo.out_hw
    rows = xp.arange(oh).reshape(oh, 1) * geo.stride[0] - geo.padding[0] + (arg // kw) * geo.dilation[0]
    cols = xp.arange(ow).reshape(1, ow) * geo.stride[1] - geo.padding[1] + (arg % kw) * geo.dilation[1]
    return (rows * geo.in_hw[1] + cols).astype(np.int64)


class MaxPoolBackward(Function):
    """Routes each output gradient to its window's argmax (linear in g)."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, g, *, arg, geo, in_shape):
        ga = g._data
        ctx.arg, ctx.geo = arg, geo
        kw = geo.kernel[1]
        return geo.scatter(lambda i, j: ga * (arg == i * kw + j), in_shape, ga.dtype, xp_of(ga))

    @staticmethod
    def backward(ctx, gg):
        return _MaxSelect.apply(gg, arg=ctx.arg, geo=ctx.geo)


class _MaxSelect(Function):
    """The values of ``x`` at the saved argmax positions (MaxPoolBackward's adjoint)."""

    node_name = "MaxPool2DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, *, arg, geo):
        xa = x._data
        ctx.arg, ctx.geo, ctx.in_shape = arg, geo, xa.shape
        flat = geo.windows(geo.padded(xa, 0)).reshape(arg.shape + (-1,))
        return xp_of(xa).take_along_axis(flat, arg[..., None], axis=-1)[..., 0]

    @staticmethod
    def backward(ctx, g):
        return MaxPoolBackward.apply(g, arg=ctx.arg, geo=ctx.geo, in_shape=ctx.in_shape)


@computes_in_float32  # PyTorch's half kernel: the window's sum and the division in float32, rounded once
class AvgPool(Function):
    node_name = "AvgPool2DBackward0"

    @staticmethod
    def forward(ctx, x, *, geo: Geometry, divisor):
        xa = x._data
        win = geo.windows(geo.padded(xa, 0))
        ctx.geo, ctx.divisor, ctx.in_shape = geo, divisor, xa.shape
        return (_window_sum(win) / divisor).astype(xa.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (g,) = half_steps(ctx, g)  # (a half gradient's share is divided in its dtype, as PyTorch's backward kernel)
        return AvgPoolBackward.apply(g, geo=ctx.geo, divisor=ctx.divisor, in_shape=ctx.in_shape)


def _window_sum(win):
    """Each window's sum as PyTorch's CPU avg-pool kernels add it: a running sum in the input's float type, row by
    row and left to right (NumPy's sum over two strided axes pairs the terms otherwise, and rounds differently in
    a third of the windows). Padding adds zeros, which leave the sum as it is."""
    if win.dtype.kind != "f" or is_meta(win):
        return win.sum(axis=(-2, -1))
    total = xp_of(win).zeros(win.shape[:4], win.dtype)
    for i in range(win.shape[4]):
        for j in range(win.shape[5]):
            total += win[..., i, j]
    return total


class AvgPoolBackward(Function):
    node_name = "AvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx, g, *, geo, divisor, in_shape):
        ga = g._data
        ctx.geo, ctx.divisor = geo, divisor
        share = (ga / divisor).astype(ga.dtype, copy=False)
        return geo.scatter(lambda i, j: share, in_shape, ga.dtype, xp_of(ga))

    @staticmethod
    def backward(ctx, gg):
        return AvgPool.apply(gg, geo=ctx.geo, divisor=ctx.divisor)


def divisor_map(geo: Geometry, count_include_pad: bool, divisor_override, xp):
    """How many elements each window averages over (PyTorch's rule: padding counts, the ceil overhang doesn't)."""
    if divisor_override:
        return divisor_override
    h, w = geo.in_hw
    (ph, pw), (eh, ew) = geo.padding, geo.extra
    ones = xp.zeros((1, 1, h + 2 * ph + eh, w + 2 * pw + ew))
    if count_include_pad:
        ones[:, :, :h + 2 * ph, :w + 2 * pw] = 1
    else:
        ones[:, :, ph:ph + h, pw:pw + w] = 1
    return geo.windows(ones).sum(axis=(-2, -1))


def adaptive_matrix(size: int, out: int, xp, dtype):
    """(out, size) averaging matrix of PyTorch's adaptive bins [floor(i*size/out), ceil((i+1)*size/out))."""
    m = np.zeros((out, size))
    for i in range(out):
        lo, hi = (i * size) // out, -(-((i + 1) * size) // out)
        m[i, lo:hi] = 1.0 / (hi - lo)
    return xp.asarray(m.astype(dtype))


def adaptive_bins(size: int, out: int):
    """PyTorch's adaptive bins [floor(i*size/out), ceil((i+1)*size/out)) as (starts, lengths) int arrays."""
    i = np.arange(out)
    starts = (i * size) // out
    return starts, -(-((i + 1) * size) // out) - starts


@computes_in_float32  # half types: the sums and divisions in float32, rounded once; backward in the half type
class AdaptiveAvgPool(Function):
    """Each output the average of its adaptive window of the last two dims, as PyTorch's CPU kernel computes it:
    the window's elements added row by row in the accumulation type (float32 for float32 and the half types),
    then divided by the window's height, then by its width.

    NOTE: one gather-and-add per offset inside the largest window, over every window at once (a window shorter
    than the largest adds nothing there): (kh * kw) NumPy steps, not one per output. The output, and the
    backward's, keep the input's memory format (a channels-last image stays channels-last)."""

    node_name = "AdaptiveAvgPool2DBackward0"

    @staticmethod
    def forward(ctx, x, *, out_hw):
        a = x._data
        xp = xp_of(a)
        (h0, kh), (w0, kw) = (adaptive_bins(n, o) for n, o in zip(a.shape[-2:], out_hw))
        ctx.in_shape, ctx.out_hw, ctx.fmt = a.shape, tuple(out_hw), format_of(a)
        acc = xp.zeros(a.shape[:-2] + tuple(out_hw), a.dtype)
        for i in range(int(kh.max())):
            rows = xp.asarray(np.minimum(h0 + i, a.shape[-2] - 1))[:, None]
            for j in range(int(kw.max())):
                valid = (i < kh)[:, None] & (j < kw)[None, :]
                term = a[..., rows, xp.asarray(np.minimum(w0 + j, a.shape[-1] - 1))[None, :]]
                acc += term if valid.all() else xp.where(xp.asarray(valid), term, a.dtype.type(0))
        return in_format(acc / xp.asarray(kh.astype(a.dtype))[:, None] / xp.asarray(kw.astype(a.dtype))[None, :],
                         ctx.fmt)

    @staticmethod
    def backward(ctx, g):
        (g,) = half_steps(ctx, g)  # (a half gradient is divided and added in its dtype, as the backward kernel)
        return AdaptiveAvgPoolBackward.apply(g, in_shape=ctx.in_shape, fmt=ctx.fmt)


class AdaptiveAvgPoolBackward(Function):
    """The adaptive average's gradient as PyTorch's kernel: each output's gradient divided by its window's height,
    then width, and added to the window's inputs, output by output (overlapping windows add in that order)."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"

    @staticmethod
    def forward(ctx, g, *, in_shape, fmt):
        ga = g._data
        xp = xp_of(ga)
        (h, w), (oh, ow) = in_shape[-2:], ga.shape[-2:]
        (h0, kh), (w0, kw) = adaptive_bins(h, oh), adaptive_bins(w, ow)
        ctx.out_hw = (oh, ow)
        delta = ga / xp.asarray(kh.astype(ga.dtype))[:, None] / xp.asarray(kw.astype(ga.dtype))[None, :]
        if h % oh == 0 and w % ow == 0:  # the windows tile the input: one addition each (+ 0: -0 becomes +0)
            return in_format(xp.repeat(xp.repeat(delta, h // oh, axis=-2), w // ow, axis=-1) + ga.dtype.type(0), fmt)
        out = xp.zeros(ga.shape[:-2] + (h, w), ga.dtype)
        for i in range(oh):
            for j in range(ow):
                out[..., h0[i]:h0[i] + kh[i], w0[j]:w0[j] + kw[j]] += delta[..., i, j, None, None]
        return in_format(out, fmt)

    @staticmethod
    def backward(ctx, gg):
        return AdaptiveAvgPool.apply(gg, out_hw=ctx.out_hw)
