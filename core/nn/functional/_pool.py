"""Pooling primitives: max, average and adaptive average over 2-d windows (adaptive average over 3-d too).

Windows are ``as_strided`` views of the padded input; backward passes scatter with one slice-add
per kernel offset (kh*kw of them), never per pixel. Each backward is itself a Function whose
backward is the forward's selection again, so double backward works.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from core._memory_format import (
    channels_last,
    channels_last_3d,
    contiguous_format,
    format_of,
    in_format,
    in_suggested_format,
)
from core._meta import is_meta, meta_array
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromNode
from core.ops._float32_compute import computes_in_float32, half_steps
from core.ops._saved_attrs import given
from core.ops._util import xp_of

__all__ = ["Geometry", "MaxPool", "AvgPool", "AdaptiveAvgPool", "AdaptiveAvgPool3D", "adaptive_bins", "check_sizes_fit",
           "adaptive_output_size"]


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
    saved_names = ("self",)
    # (kernel_size, stride, padding, dilation and ceil_mode as the call gave them; the indices it returns)
    _saved_kernel_size, _saved_stride, _saved_padding, _saved_dilation, _saved_ceil_mode = (given(i) for i in range(5))
    _saved_result1 = SavedFromNode(lambda node: Tensor._wrap(_in(indices_of(node.arg, node.geo, xp_of(node.arg)),
                                                                 getattr(node, "fmt", contiguous_format))), True)

    @staticmethod
    def forward(ctx, x, *, geo: Geometry, given=None):
        ctx.given = given
        xa = x._data
        xp = xp_of(xa)
        if is_meta(xa):  # the meta device: shapes only
            ctx.arg, ctx.geo, ctx.in_shape = meta_array(xa.shape[:2] + geo.out_hw, np.int64), geo, xa.shape
            return meta_array(xa.shape[:2] + geo.out_hw, xa.dtype)
        fill = -np.inf if xa.dtype.kind in "fV" else np.iinfo(xa.dtype).min  # ("V": bfloat16)
        win = geo.windows(geo.padded(xa, fill))
        out, arg = _window_max(win, xp, xa.dtype.kind in "fV" and bool(xp.isnan(xa).any()))  # NaN-free: no isnan
        ctx.arg, ctx.geo, ctx.in_shape, ctx.fmt = arg, geo, xa.shape, format_of(xa)
        ctx.save_for_backward(x)  # (as PyTorch's node: its double backward has an edge to the input)
        return in_suggested_format(out, xa)  # (torch: a channels-last image's pooling is channels-last)

    @staticmethod
    def backward(ctx, g):
        saved = ctx._unpacked  # (none on the meta device)
        return MaxPoolBackward.apply(g, saved[0] if saved else None, arg=ctx.arg, geo=ctx.geo, in_shape=ctx.in_shape,
                                     fmt=getattr(ctx, "fmt", contiguous_format))


def indices_of(arg, geo: Geometry, xp):
    """Flat positions (in the unpadded H*W grid) of the argmax of each window, as PyTorch returns them."""
    kw = geo.kernel[1]
    oh, ow = geo.out_hw
    rows = xp.arange(oh).reshape(oh, 1) * geo.stride[0] - geo.padding[0] + (arg // kw) * geo.dilation[0]
    cols = xp.arange(ow).reshape(1, ow) * geo.stride[1] - geo.padding[1] + (arg % kw) * geo.dilation[1]
    return (rows * geo.in_hw[1] + cols).astype(np.int64)


def _inside(geo: Geometry) -> bool:
    """Whether every window lies inside the input (no padding, no ceil-mode overhang)."""
    return not (any(geo.padding) or any(geo.extra))


def _scatter_at_argmax(ga, arg, geo: Geometry, in_shape):
    """Max pooling's input gradient for windows inside the input (``_inside``): each output gradient added at its
    window's argmax, through the argmax's flat position.

    NOTE: the hot path of a CNN's pooling backward, 2.5-7x faster than the general scatter's kh*kw masked
    ``where``s (NumPy's ``where`` branches on their random masks) and strided adds. ``np.add.at`` goes through the
    outputs in order, one unbuffered add into zeros each: PyTorch's kernel's loop, so a cell that several
    overlapping windows chose (AlexNet's 3x3 stride 2) sums in torch's order, and a -0 gradient lands as +0."""
    (kh, kw), (sh, sw), (dh, dw), (oh, ow) = geo.kernel, geo.stride, geo.dilation, geo.out_hw
    n, c, h, w = in_shape
    offsets = ((np.arange(kh) * dh)[:, None] * w + np.arange(kw) * dw).reshape(-1)  # per argmax, within a window
    at = offsets[arg]
    at += (np.arange(n * c)[:, None] * (h * w) + np.arange(oh) * (sh * w)).reshape(n, c, oh, 1)  # window's corner
    at += np.arange(ow) * sw
    out = np.zeros(in_shape, ga.dtype)
    np.add.at(out.reshape(-1), at.reshape(-1), ga.reshape(-1))
    return out


def _in(arr, fmt):
    """A pooling gradient ``arr`` (C-ordered) in the format ``fmt`` its input suggested, as torch allocates it."""
    return arr if fmt is contiguous_format else in_format(arr, fmt)


class MaxPoolBackward(Function):
    """Routes each output gradient to its window's argmax (linear in g)."""

    node_name = "MaxPool2DWithIndicesBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, *, arg, geo, in_shape, fmt=contiguous_format):
        """``x``: the pooled input, only an edge (PyTorch's node has one; the gradient does not depend on it).
        ``fmt``: the format the input suggested, torch's gradient's (a channels-last image's is channels-last)."""
        ga = g._data
        ctx.arg, ctx.geo = arg, geo
        if _inside(geo) and type(ga) is np.ndarray and ga.dtype.kind == "f" and len(in_shape) == 4:
            return _in(_scatter_at_argmax(ga, arg, geo, in_shape), fmt)
        kw = geo.kernel[1]
        xp = xp_of(ga)  # (where, not ga * mask: an inf or NaN gradient reaches the argmax only, as in torch)
        return _in(geo.scatter(lambda i, j: xp.where(arg == i * kw + j, ga, 0), in_shape, ga.dtype, xp), fmt)

    @staticmethod
    def backward(ctx, gg):
        return _MaxSelect.apply(gg, arg=ctx.arg, geo=ctx.geo), None


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
        return MaxPoolBackward.apply(g, None, arg=ctx.arg, geo=ctx.geo, in_shape=ctx.in_shape)


@computes_in_float32  # PyTorch's half kernel: the window's sum and the division in float32, rounded once
class AvgPool(Function):
    node_name = "AvgPool2DBackward0"
    # (kernel_size, stride, padding, ceil_mode, count_include_pad, divisor_override as the call gave them, the input)
    _saved_kernel_size, _saved_stride, _saved_padding, _saved_ceil_mode, _saved_count_include_pad, \
        _saved_divisor_override = (given(i) for i in range(6))
    _saved_self = given(6, tensor=True)

    @staticmethod
    def forward(ctx, x, *, geo: Geometry, divisor, given=None):
        ctx.given = given
        xa = x._data
        win = geo.windows(geo.padded(xa, 0))
        ctx.geo, ctx.divisor, ctx.in_shape, ctx.fmt = geo, divisor, xa.shape, format_of(xa)
        return in_suggested_format((_window_sum(win) / divisor).astype(xa.dtype, copy=False), xa)

    @staticmethod
    def backward(ctx, g):
        (g,) = half_steps(ctx, g)  # (a half gradient's share is divided in its dtype, as PyTorch's backward kernel)
        return AvgPoolBackward.apply(g, geo=ctx.geo, divisor=ctx.divisor, in_shape=ctx.in_shape, fmt=ctx.fmt)


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
    def forward(ctx, g, *, geo, divisor, in_shape, fmt=contiguous_format):
        ga = g._data
        ctx.geo, ctx.divisor = geo, divisor
        share = (ga / divisor).astype(ga.dtype, copy=False)
        return _in(geo.scatter(lambda i, j: share, in_shape, ga.dtype, xp_of(ga)), fmt)  # (the input's format)

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


def adaptive_bins(size: int, out: int):
    """PyTorch's adaptive bins [floor(i*size/out), ceil((i+1)*size/out)) as (starts, lengths) int arrays."""
    i = np.arange(out)
    starts = (i * size) // out
    return starts, -(-((i + 1) * size) // out) - starts


_VEC_BYTES = 32  # NOTE: the width of PyTorch's vectorised CPU kernels here (256 bits: 8 floats, 4 doubles)


def _window_means(acc, bins, channels_last: bool):
    """The window sums ``acc`` (N, C, *out) over their windows' sizes as PyTorch's kernels divide them: by each
    spatial size in turn (height, then width); its 2-d channels-last kernel divides the channels its vector loop
    covers (the first C - C % lanes) once by the window's element count, only those left over size by size."""
    xp, dt = xp_of(acc), acc.dtype
    k = len(bins)
    out, count = acc, 1
    for d, (_, lens) in enumerate(bins):
        shape = [1] * k
        shape[d] = -1
        out = out / xp.asarray(lens.astype(dt)).reshape(shape)
        count = count * lens.reshape(shape)
    lanes = _VEC_BYTES // dt.itemsize
    vec = acc.shape[1] - acc.shape[1] % lanes if channels_last and acc.ndim == 4 else 0
    if vec:
        out[:, :vec] = acc[:, :vec] / xp.asarray(count.astype(dt))
    return out


def _window_sums(a, bins):
    """Each adaptive window's sum over the last ``len(bins)`` dims, its elements added in row-major order.

    NOTE: one gather-and-add per offset inside the largest window, over every window at once (a window shorter
    than the largest adds 0 there, a zero placed after the flattened spatial dims): prod(largest window) NumPy
    steps, not one per output, each one ``take`` along the last axis."""
    xp = xp_of(a)
    k = len(bins)
    spatial, lead = a.shape[-k:], a.shape[:-k]
    n = math.prod(spatial)
    flat = xp.concatenate([a.reshape(lead + (n,)), xp.zeros(lead + (1,), a.dtype)], axis=-1)
    outs = tuple(len(starts) for starts, _ in bins)
    acc = xp.zeros(lead + (math.prod(outs),), a.dtype)
    for offsets in itertools.product(*(range(int(lens.max(initial=0))) for _, lens in bins)):
        pos, valid = np.zeros((1,) * k, np.int64), np.ones((1,) * k, bool)
        for d, ((starts, lens), off) in enumerate(zip(bins, offsets)):
            shape = [1] * k
            shape[d] = -1
            pos = pos * spatial[d] + np.minimum(starts + off, spatial[d] - 1).reshape(shape)
            valid = valid & (off < lens).reshape(shape)
        acc += flat.take(xp.asarray(np.where(valid, pos, n).reshape(-1)), axis=-1)
    return acc.reshape(lead + outs)


class _AdaptiveAvgPoolNd(Function):
    """Each output the average of its adaptive window of the last two (three) dims, as PyTorch's CPU kernel
    computes it: the window's elements added row by row, then divided by each window size in turn
    (``_window_means``: its 2-d channels-last kernel divides most channels by the window's size at once). The
    2-d output, and its backward's, keep the input's memory format (a channels-last image stays channels-last)."""

    @staticmethod
    def forward(ctx, x, *, out_hw):
        a = x._data
        bins = [adaptive_bins(n, o) for n, o in zip(a.shape[-len(out_hw):], out_hw)]
        ctx.in_shape, ctx.out_hw = a.shape, tuple(out_hw)
        ctx.fmt = format_of(a) if len(out_hw) == 2 else contiguous_format  # (no channels-last 3-d kernel)
        return in_format(_window_means(_window_sums(a, bins), bins, ctx.fmt is channels_last), ctx.fmt)

    @staticmethod
    def backward(ctx, g):
        (g,) = half_steps(ctx, g)  # (a half gradient is divided and added in its dtype, as the backward kernel)
        grad = AdaptiveAvgPoolBackward if len(ctx.out_hw) == 2 else AdaptiveAvgPool3DBackward
        return grad.apply(g, in_shape=ctx.in_shape, fmt=ctx.fmt)


@computes_in_float32  # half types: the sums and divisions in float32, rounded once; backward in the half type
class AdaptiveAvgPool(_AdaptiveAvgPoolNd):
    """``adaptive_avg_pool2d``: over the last two dims."""

    node_name = "AdaptiveAvgPool2DBackward0"


@computes_in_float32
class AdaptiveAvgPool3D(_AdaptiveAvgPoolNd):
    """``adaptive_avg_pool3d``: over the last three dims (depth, height, width), its output contiguous as
    PyTorch's (whose 3-d kernel has no channels-last form)."""

    node_name = "AdaptiveAvgPool3DBackward0"

    @staticmethod
    def reduced_result(ctx, args, kwargs, out):
        """PyTorch's 3-d kernel in a half type: every addition and division rounded to it (not float32's sums)."""
        a = args[0]._data
        bins = [adaptive_bins(n, o) for n, o in zip(a.shape[-3:], kwargs["out_hw"])]
        return _window_means(_window_sums(a, bins), bins, False)


class AdaptiveAvgPoolBackward(Function):
    """The adaptive average's gradient as PyTorch's kernel: each output's gradient divided by its window's sizes
    (``_window_means``), and added to the window's inputs, output by output (overlapping windows add in that
    order)."""

    node_name = "AdaptiveAvgPool2DBackwardBackward0"
    spatial_dims = 2

    @classmethod
    def forward(cls, ctx, g, *, in_shape, fmt):
        ga = g._data
        xp = xp_of(ga)
        k = cls.spatial_dims
        spatial, out_sz = in_shape[-k:], ga.shape[-k:]
        bins = [adaptive_bins(n, o) for n, o in zip(spatial, out_sz)]
        ctx.out_hw = tuple(out_sz)
        delta = _window_means(ga, bins, format_of(ga) is channels_last)
        if all(n % o == 0 for n, o in zip(spatial, out_sz)):  # the windows tile: one addition each (+0: -0 -> +0)
            for d, (n, o) in enumerate(zip(spatial, out_sz)):
                delta = xp.repeat(delta, n // o, axis=ga.ndim - k + d)
            return in_format(delta + ga.dtype.type(0), fmt)
        out = xp.zeros(ga.shape[:-k] + tuple(spatial), ga.dtype)
        for idx in itertools.product(*(range(o) for o in out_sz)):
            window = tuple(slice(starts[i], starts[i] + lens[i]) for (starts, lens), i in zip(bins, idx))
            out[(Ellipsis, *window)] += delta[(Ellipsis, *idx)][(Ellipsis,) + (None,) * k]
        return in_format(out, fmt)

    @staticmethod
    def backward(ctx, gg):
        return (AdaptiveAvgPool if len(ctx.out_hw) == 2 else AdaptiveAvgPool3D).apply(gg, out_hw=ctx.out_hw)


class AdaptiveAvgPool3DBackward(AdaptiveAvgPoolBackward):
    node_name = "AdaptiveAvgPool3DBackwardBackward0"
    spatial_dims = 3


def check_sizes_fit(input, output_size) -> None:
    """PyTorch's ``_list_with_default``: a list of output sizes needs an input of more dims (a ValueError)."""
    if isinstance(output_size, (list, tuple)) and hasattr(input, "dim") and input.dim() <= len(output_size):
        raise ValueError(f"Input dimension should be at least {len(output_size) + 1}")


def adaptive_output_size(fn: str, input, output_size, nd: int, with_default: bool = True):
    """An adaptive pool's ``output_size`` as torch reads it: ``_list_with_default`` for the 2-d/3-d pools (a list
    fills its Nones from the input's sizes; anything without a length but an int is Python's TypeError), then the
    op's ``int[]`` parser (floats, bools, strs refused), then its length: ``nd`` ints, or one int repeated."""
    from core._arg_types import require_int_list
    from core._tensor import Tensor

    if with_default and not isinstance(output_size, int):
        if isinstance(output_size, Tensor) and output_size.ndim == 0:
            raise TypeError("len() of a 0-d tensor")
        if not hasattr(output_size, "__len__"):
            raise TypeError(f"object of type '{type(output_size).__name__}' has no len()")
        check_sizes_fit(input, output_size)
        output_size = [v if v is not None else d
                       for v, d in zip(output_size, input.shape[input.ndim - len(output_size):])]
    size = require_int_list(fn, "output_size", 2, output_size)
    if isinstance(size, int):
        return (size,) * nd
    if len(size) != nd:
        if nd == 1:
            raise RuntimeError(f"{fn}() argument 'output_size' should contain one int (got {len(size)})")
        raise RuntimeError(f"{fn}(): internal error: output_size.size() must be {nd}" if "max" in fn
                           else f"{fn}: output_size must be {nd}")
    return tuple(size)


def mean_over_image(input, k: int):
    """torch's adaptive average pool for an all-ones output size: the mean over the last ``k`` dims, kept, with no
    rank or emptiness check (torch takes this shortcut before them); a channels-last batch gets torch's strides
    (C, 1, C, C[, C]) by its in-place ``as_strided`` (so the node on top is AsStridedBackward1, as torch's)."""
    out = input.mean(tuple(range(-1, -k - 1, -1)), keepdim=True)
    if input.ndim == k + 2 and format_of(input._data) in (channels_last, channels_last_3d):
        n, c = input.shape[:2]
        out.as_strided_((n, c) + (1,) * k, (c, 1) + (c,) * k)
    return out


def check_image_not_empty(fn: str, input, k: int) -> None:
    """torch's adaptive average pools refuse an empty spatial dim (2-d: the last two dims; 3-d: every dim after
    the first), naming the first empty one."""
    for dim in range(input.ndim - k if k == 2 else 1, input.ndim):
        if input.shape[dim] == 0:
            raise RuntimeError(f"{fn}(): Expected input to have non-zero size for non-batch dimensions, but input "
                               f"has sizes {list(input.shape)} with dimension {dim} being empty")
