"""3-D (volumetric) layers: ``conv3d``, ``conv_transpose3d``, ``max_pool3d``, ``avg_pool3d``,
``adaptive_avg_pool3d`` and ``dropout3d``, composed from the 2-d primitives and core ops.

A 3-d convolution is one 2-d convolution: the kd depth slabs each output depth reads are stacked
into the channels (channel-major, so groups stay contiguous) and the weight's depth folds into its
input channels. Its transpose is kd 2-d transposed convolutions whose outputs are interleaved at
the depth stride. Pools read windows with ``unfold`` over the three spatial dims. All of it is
differentiable through core ops; only the grad_fn names differ from PyTorch's fused kernels, but
``adaptive_avg_pool3d``'s: a primitive (``_pool.AdaptiveAvgPool3D``) with PyTorch's sums and node.
"""

from __future__ import annotations

import numpy as np

import core
from core._arg_types import conv_arguments_error, require_int_list
from core._dtype import SCALAR_NAMES
from core._tensor import Tensor
from core.autograd.function import Function
from core.nn.functional._dropout import _channel_dropout
from core.nn.functional._pool import AdaptiveAvgPool3D, adaptive_output_size, check_image_not_empty, mean_over_image
from core.nn.functional._pool_checks import pool3d_shape_check, pool_output_size
from core.nn.functional.conv import _check_dtypes, pair
from core.nn.functional.sliding import scatter_to_maxima, window_max
from core.ops._util import xp_of

__all__ = ["conv3d", "conv_transpose3d", "max_pool3d", "avg_pool3d", "adaptive_avg_pool3d", "dropout3d"]


def _batched(input: Tensor, name: str):
    if input.ndim == 4:
        return input.unsqueeze(0), True
    if input.ndim != 5:
        raise RuntimeError(f"Expected 4D (unbatched) or 5D (batched) input to {name}, but got input of size: "
                           f"{list(input.shape)}")
    return input, False


def _depth_pad(x: Tensor, front: int, back: int) -> Tensor:
    if not (front or back):
        return x
    shape = list(x.shape)
    parts = []
    if front:
        parts.append(core.zeros(shape[:2] + [front] + shape[3:], dtype=x.dtype, device=x.device))
    parts.append(x)
    if back:
        parts.append(core.zeros(shape[:2] + [back] + shape[3:], dtype=x.dtype, device=x.device))
    return core.cat(parts, 2)


def _same_pads(padding, kernel, dilation, stride):
    if isinstance(padding, str):
        if padding == "valid":
            return [(0, 0)] * 3
        if padding != "same":
            raise RuntimeError(f"Invalid padding string: '{padding}'")
        if any(s != 1 for s in stride):
            raise RuntimeError("padding='same' is not supported for strided convolutions")
        return [(d * (k - 1) // 2, d * (k - 1) - d * (k - 1) // 2) for k, d in zip(kernel, dilation)]
    return [(p, p) for p in pair(padding, 3, "padding")]


def conv3d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    error = conv_arguments_error("conv3d", (input, weight, bias, stride, padding, dilation, groups))
    if error is not None:
        raise error
    _check_dtypes(input, weight, bias, bias_first=True)
    x, unbatched = _batched(input, "conv3d")
    stride, dilation = pair(stride, 3, "stride"), pair(dilation, 3, "dilation")
    if weight.ndim != 5:
        raise RuntimeError(f"Expected 5-dimensional weight for 5-dimensional input {list(x.shape)}, but got "
                           f"{weight.ndim}-dimensional weight of size {list(weight.shape)} instead")
    if x.shape[1] != weight.shape[1] * groups:
        raise RuntimeError(f"Given groups={groups}, weight of size {list(weight.shape)}, expected input"
                           f"{list(x.shape)} to have {weight.shape[1] * groups} channels, but got {x.shape[1]} "
                           "channels instead")
    pads = _same_pads(padding, weight.shape[2:], dilation, stride)
    kd, (sd, dd) = weight.shape[2], (stride[0], dilation[0])
    x = _depth_pad(x, *pads[0])
    out_d = (x.shape[2] - dd * (kd - 1) - 1) // sd + 1
    if out_d <= 0:
        raise RuntimeError(f"Calculated padded input size per channel: ({x.shape[2]}). Kernel size: "
                           f"({dd * (kd - 1) + 1}). Kernel size can't be greater than actual input size")
    n, c, _, h, w = x.shape
    slabs = core.stack([x[:, :, i * dd: i * dd + sd * (out_d - 1) + 1: sd] for i in range(kd)], 2)  # N C kd Do H W
    planes = slabs.permute(0, 3, 1, 2, 4, 5).reshape(n * out_d, c * kd, h, w)
    o = weight.shape[0]
    w2 = weight.reshape(o, weight.shape[1] * kd, *weight.shape[3:])
    hw_pad = [pads[1][0], pads[2][0]] if pads[1][0] == pads[1][1] and pads[2][0] == pads[2][1] else None
    if hw_pad is None:  # asymmetric 'same' padding: pad explicitly
        planes = core.nn.functional.pad(planes, (pads[2][0], pads[2][1], pads[1][0], pads[1][1]))
        hw_pad = [0, 0]
    y = core.nn.functional.conv2d(planes, w2, bias, stride[1:], hw_pad, dilation[1:], groups)
    out = y.reshape(n, out_d, o, *y.shape[2:]).permute(0, 2, 1, 3, 4).contiguous()  # torch's is contiguous (.view)
    return out.squeeze(0) if unbatched else out


def conv_transpose3d(input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1):
    _check_dtypes(input, weight, bias)
    x, unbatched = _batched(input, "conv_transpose3d")
    stride, dilation = pair(stride, 3, "stride"), pair(dilation, 3, "dilation")
    padding, output_padding = pair(padding, 3, "padding"), pair(output_padding, 3, "output_padding")
    if x.shape[1] != weight.shape[0]:
        raise RuntimeError(f"Given transposed=1, weight of size {list(weight.shape)}, expected input "
                           f"{list(x.shape)} to have {weight.shape[0]} channels, but got {x.shape[1]} channels instead")
    n, c, di, h, w = x.shape
    kd, sd, dd = weight.shape[2], stride[0], dilation[0]
    planes = x.permute(0, 2, 1, 3, 4).reshape(n * di, c, h, w)
    full = (di - 1) * sd + dd * (kd - 1) + 1
    out = None
    for i in range(kd):
        y = core.nn.functional.conv_transpose2d(planes, weight[:, :, i], None, stride[1:], padding[1:],
                                                output_padding[1:], groups, dilation[1:])
        y = y.reshape(n, di, *y.shape[1:])
        if sd > 1:  # interleave sd - 1 zero planes after each input depth
            y = core.stack([y] + [core.zeros_like(y)] * (sd - 1), 2).reshape(n, di * sd, *y.shape[2:])
            y = y[:, :(di - 1) * sd + 1]
        y = _depth_pad(y.transpose(1, 2), i * dd, full - i * dd - y.shape[1])
        out = y if out is None else out + y
    out_d = full - 2 * padding[0] + output_padding[0]
    out = _depth_pad(out, 0, max(0, padding[0] + out_d - full))[:, :, padding[0]: padding[0] + out_d]
    if bias is not None:
        out = out + bias.reshape(1, -1, 1, 1, 1)
    out = out.contiguous()  # as torch's (the depth slice above is a view)
    return out.squeeze(0) if unbatched else out


def _three(fn: str, name: str, value) -> tuple:
    """A 3-d pooling's size as three ints (one int repeated), else PyTorch's RuntimeError in its words."""
    if isinstance(value, (list, tuple)) and len(value) not in (1, 3):
        kind = ("must be" if fn == "avg_pool3d" else "must be either" if name == "dilation" else "must either be")
        omitted = " omitted," if name == "stride" else ""
        raise RuntimeError(f"{fn}: {name} {kind}{omitted} a single int, or a tuple of three ints")
    return pair(value, 3, name)


def _pool_geometry(x: Tensor, kernel_size, stride, padding, dilation, ceil_mode, fn: str = "max_pool3d"):
    k = _three(fn, "kernel_size", kernel_size)
    s = k if stride is None or (isinstance(stride, (list, tuple)) and not stride) else _three(fn, "stride", stride)
    p, d = _three(fn, "padding", padding), _three(fn, "dilation", dilation)
    out = [pool_output_size(x.shape[2 + i], k[i], p[i], s[i], d[i], ceil_mode) for i in range(3)]
    pool3d_shape_check(k, s, p, d, x.shape[1], x.shape[2:], out, fn == "avg_pool3d")
    extra = [max(0, (out[i] - 1) * s[i] + d[i] * (k[i] - 1) + 1 - x.shape[2 + i] - 2 * p[i]) for i in range(3)]
    return k, s, p, d, out, extra


def _windows(x: Tensor, geo, fill: float) -> Tensor:
    """(N, C, Do, Ho, Wo, kd*kh*kw) windows of ``x`` padded with ``fill`` (and the ceil-mode overhang)."""
    k, s, p, d, out, extra = geo
    pads = []
    for i in (2, 1, 0):
        pads += [p[i], p[i] + extra[i]]
    if any(pads):
        x = core.nn.functional.pad(x, pads, value=fill)
    for i in range(3):
        x = x.unfold(2 + i, d[i] * (k[i] - 1) + 1, s[i])
    x = x[..., ::d[0], ::d[1], ::d[2]]
    return x.reshape(*x.shape[:5], k[0] * k[1] * k[2])  # (not -1: a batch may be 0)


def _as5d(input: Tensor):
    """A batched view; PyTorch's pool3d_shape_check: a 5-D input may have a batch of 0, no other empty dim."""
    if input.ndim not in (4, 5) or 0 in input.shape[-4 if input.ndim == 4 else 1:]:
        raise RuntimeError("non-empty 4D or 5D (batch mode) tensor expected for input")
    return (input.unsqueeze(0), True) if input.ndim == 4 else (input, False)


class MaxPool3D(Function):
    """Each window's maximum as PyTorch's kernel scans it (``val > max || isnan(val)``: the first of equal maxima,
    the last NaN); the backward scatters to those positions."""

    node_name = "MaxPool3DWithIndicesBackward0"

    @staticmethod
    def forward(ctx, x, *, geo, fill, found):
        win = _windows(x, geo, fill)._data
        out, arg = window_max(win, np.bool_(True), xp_of(win))
        idx = _flat_indices(np.asarray(arg), geo, x.shape[2:])
        ctx.idx, ctx.in_shape = idx, tuple(x.shape)
        found.append(idx)
        return out

    @staticmethod
    def backward(ctx, g):
        return scatter_to_maxima(g, ctx.idx, ctx.in_shape, 3)


def _sizes(fn: str, names: tuple, values: tuple) -> list:
    """The size arguments (from position 2) as PyTorch's parser reads them, else its TypeError."""
    return [None if v is None else require_int_list(fn, name, i + 2, v)
            for i, (name, v) in enumerate(zip(names, values))]


def max_pool3d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False):
    kernel_size, stride, padding, dilation = _sizes(
        "max_pool3d_with_indices" if return_indices else "max_pool3d", ("kernel_size", "stride", "padding", "dilation"),
        (kernel_size, stride, padding, dilation))
    x, unbatched = _as5d(input)
    geo = _pool_geometry(x, kernel_size, stride, padding, dilation, ceil_mode)
    fill = -float("inf") if x.is_floating_point() else float(core.iinfo(x.dtype).min)
    found = []
    out = MaxPool3D.apply(x, geo=geo, fill=fill, found=found)
    if return_indices:
        idx = core.tensor(found[0])
        return (out.squeeze(0), idx.squeeze(0)) if unbatched else (out, idx)
    return out.squeeze(0) if unbatched else out


def _flat_indices(arg, geo, dhw):
    """Positions in the unpadded D*H*W volume of each window's argmax, as PyTorch returns them."""
    k, s, p, d, out, _ = geo
    a, rest = np.divmod(arg, k[1] * k[2])
    b, c = np.divmod(rest, k[2])
    pos = []
    for i, off in enumerate((a, b, c)):
        shape = [1, 1, 1, 1, 1]
        shape[2 + i] = out[i]
        pos.append(np.arange(out[i]).reshape(shape) * s[i] - p[i] + off * d[i])
    return ((pos[0] * dhw[1] + pos[1]) * dhw[2] + pos[2]).astype(np.int64)


def avg_pool3d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True,
               divisor_override=None):
    kernel_size, stride, padding = _sizes("avg_pool3d", ("kernel_size", "stride", "padding"),
                                          (kernel_size, stride, padding))
    x, unbatched = _as5d(input)
    if divisor_override is not None and divisor_override == 0:
        raise RuntimeError("divisor must be not zero")
    geo = _pool_geometry(x, kernel_size, stride, padding, 1, ceil_mode, "avg_pool3d")
    total = _windows(x, geo, 0.0).sum(-1)
    if not x.is_floating_point():  # integers divide as PyTorch's kernel does, in C++ integer arithmetic
        def divide(a, b):
            return core.div(a, b, rounding_mode="trunc").to(x.dtype)
    else:
        def divide(a, b):
            return a / b
    if divisor_override:
        out = divide(total, divisor_override)
    else:
        k, s, p, d, out_size, extra = geo
        ones = core.zeros(*[x.shape[2 + i] + 2 * p[i] + extra[i] for i in range(3)], dtype=x.dtype)
        lo = [0 if count_include_pad else p[i] for i in range(3)]
        hi = [x.shape[2 + i] + (2 * p[i] if count_include_pad else p[i]) for i in range(3)]
        ones[lo[0]:hi[0], lo[1]:hi[1], lo[2]:hi[2]] = 1
        no_pad = (k, s, (0, 0, 0), d, out_size, (0, 0, 0))
        out = divide(total, _windows(ones[None, None], no_pad, 0.0).sum(-1))
    return out.squeeze(0) if unbatched else out


def adaptive_avg_pool3d(input, output_size):
    """The average of each adaptive window of the last three dims (``AdaptiveAvgPool3D``, PyTorch's kernel's sums
    and divisions); a 1x1x1 output is the mean over them, as PyTorch takes it."""
    size = adaptive_output_size("adaptive_avg_pool3d", input, output_size, 3)
    if any(o < 0 for o in size):
        raise RuntimeError("adaptive_avg_pool3d: elements of output_size must be greater than or equal to 0 but "
                           "received {" + ",".join(str(o) for o in size) + "}")
    if tuple(size) == (1, 1, 1):
        return mean_over_image(input, 3)  # as PyTorch's adaptive_avg_pool3d does for a 1x1x1 output
    if input.ndim not in (4, 5):
        raise RuntimeError(f"adaptive_avg_pool3d(): Expected 4D or 5D tensor, but got {list(input.shape)}")
    check_image_not_empty("adaptive_avg_pool3d", input, 3)
    if not input.is_floating_point():
        name = input.dtype.name
        raise NotImplementedError(f"\"adaptive_avg_pool3d_cpu\" not implemented for '{SCALAR_NAMES.get(name, name)}'")
    return AdaptiveAvgPool3D.apply(input, out_hw=tuple(size))


def dropout3d(input: Tensor, p: float = 0.5, training: bool = True, inplace: bool = False) -> Tensor:
    return _channel_dropout(input, p, training, inplace, 3, "dropout3d")
