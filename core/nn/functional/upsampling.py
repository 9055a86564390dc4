"""``F.interpolate`` (nearest, nearest-exact, linear, bilinear, bicubic, trilinear, area, and with antialias
bilinear, bicubic and lanczos) and the deprecated ``upsample*`` functions, with PyTorch's source-index rules,
output sizes, dtypes, memory formats and argument errors.

Every mode except ``area`` resamples each spatial axis on its own: output ``j`` of an axis is a weighted
sum of a few input taps (one for nearest, two for linear, four for cubic). ``Resample`` gathers the taps
in forward (so NaN and inf stay where they are), and its backward is the transposed linear map, whose
own backward is ``Resample`` again: higher-order gradients come free. The weights are computed in the
input's dtype as PyTorch's CPU kernels do. uint8 takes 'nearest' here and 'bilinear'/'bicubic' on PyTorch's
integer route (``_antialias.interpolate_uint8``). The output keeps the memory format the input suggests (a
channels-last image stays channels-last), and so does the backward's for the modes whose PyTorch kernels do.
"""

from __future__ import annotations

import math

import numpy as np

from core._dtype import SCALAR_NAMES
from core._memory_format import channels_last, channels_last_3d, in_suggested_format, is_contiguous_in
from core._threads import get_num_threads
from core._user_warning import warn_caller
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.nn.functional import _bilinear_kernel
from core.nn.functional._antialias import check_aa_dtype, interpolate_aa, interpolate_uint8
from core.nn.functional.pooling import adaptive_avg_pool1d, adaptive_avg_pool2d
from core.nn.functional.volumetric import adaptive_avg_pool3d
from core.ops._float32_compute import computes_in_float32, is_reduced
from core.ops._util import xp_of

__all__ = ["interpolate", "upsample", "upsample_nearest", "upsample_bilinear"]

_CUBIC_A = -0.75  # PyTorch's (and OpenCV's) cubic convolution coefficient
_NAMES = {"nearest": "UpsampleNearest", "nearest-exact": "UpsampleNearestExact", "linear": "UpsampleLinear",
          "bilinear": "UpsampleBilinear", "trilinear": "UpsampleTrilinear", "bicubic": "UpsampleBicubic"}
# the backward kernels that allocate their output in grad_output's suggested memory format (the rest: contiguous)
_BACKWARD_KEEPS_FORMAT = {"UpsampleNearest2D", "UpsampleNearestExact2D", "UpsampleLinear1D", "UpsampleBilinear2D",
                          "UpsampleTrilinear3D"}


def _gather_axis(data, axis, idx, w, xp):
    """sum_k w[k, j] * data[..., idx[k, j], ...] along ``axis``."""
    shape = [1] * data.ndim
    shape[axis] = idx.shape[1]
    out = None
    for k in range(idx.shape[0]):
        term = xp.take(data, idx[k], axis=axis)
        if w is not None:
            term = term * w[k].reshape(shape)
        out = term if out is None else out + term
    return out


def _scatter_axis(data, axis, idx, w, size, xp):
    """The transpose of ``_gather_axis``: a dense (size, out) matrix applied along ``axis``."""
    m = xp.zeros((size, idx.shape[1]), dtype=data.dtype)
    cols = xp.arange(idx.shape[1])
    for k in range(idx.shape[0]):
        xp.add.at(m, (idx[k], cols), 1 if w is None else w[k])
    moved = xp.moveaxis(data, axis, -1)
    return xp.moveaxis(moved @ m.T, -1, axis)


@computes_in_float32  # PyTorch's half kernels: weights and sums in float32 ("opmath"), rounded once
class Resample(Function):
    """Resample the trailing spatial axes; ``taps`` holds one (idx, weights, input size) per axis."""

    @staticmethod
    def forward(ctx, x, *, taps, transposed=False, shown=None):
        ctx.taps, ctx.transposed = taps, transposed
        if shown is not None:  # (the call's output size, scales and align_corners: grad_fn._saved_*)
            ctx.shown = (tuple(x.shape),) + shown
        data, xp = x._data, xp_of(x._data)
        exact = _aten_kernel(ctx, data, taps, transposed)
        if exact is not None:
            return exact
        first = data.ndim - len(taps)
        order = reversed(range(len(taps))) if transposed else range(len(taps))
        for i in order:
            idx, w, size = taps[i]
            if transposed:
                data = _scatter_axis(data, first + i, idx, w, size, xp)
            else:
                data = _gather_axis(data, first + i, idx, w, xp)
        if transposed and f"{ctx.node_base}{len(taps)}D" not in _BACKWARD_KEEPS_FORMAT:
            return xp.ascontiguousarray(data)
        return in_suggested_format(data, x._data)

    @staticmethod
    def backward(ctx, g):
        return _resample(g, ctx.taps, ctx.node_base, not ctx.transposed)


def _aten_kernel(ctx, data, taps, transposed):
    """PyTorch's arithmetic where core reproduces it (``core.nn.functional._bilinear_kernel``): float32
    ``upsample_bilinear2d`` and its backward, and nearest's backward in float32 and float64; else None."""
    if type(data) is not np.ndarray or ctx.__dict__.get("half_dtype") is not None:
        return None
    if ctx.node_base in ("UpsampleNearest", "UpsampleNearestExact"):
        if not transposed or not data.flags.c_contiguous or data.dtype not in (np.float32, np.float64):
            return None
        return _bilinear_kernel.scatter_backward(data, taps)
    if ctx.node_base != "UpsampleBilinear" or len(taps) != 2 or data.dtype != np.float32:
        return None
    if transposed:
        if not data.flags.c_contiguous:  # (a channels-last gradient: ATen's channels-last backward kernel)
            return None
        return _bilinear_kernel.bilinear_backward(data, taps)
    fmt_last = is_contiguous_in(data.shape, [st // data.itemsize for st in data.strides], channels_last) \
        and not data.flags.c_contiguous
    kernel = _bilinear_kernel.uses_channels_last_kernel(data.shape, [t[0].shape[1] for t in taps], fmt_last,
                                                        get_num_threads())
    return in_suggested_format(_bilinear_kernel.bilinear_forward(data, taps, kernel), data)


_CLASSES = {}


def _resample(x, taps, base, transposed=False, shown=None):
    """``x`` resampled by a node named as PyTorch's (``shown``: (output size, scales, align_corners) of the call)."""
    key = (base, len(taps), transposed)
    cls = _CLASSES.get(key)
    if cls is None:
        name = f"{base}{len(taps)}D" + ("Backward" if transposed else "")  # (its node: ...BackwardBackward0)
        cls = type(name, (Resample,), {"node_name": f"{name}Backward0", **_saved_attrs(base, len(taps))})
        cls._backward_cls.node_base = base
        _CLASSES[key] = cls
    return cls.apply(x, taps=taps, transposed=transposed, shown=shown)


def _saved_attrs(base: str, nd: int) -> dict:
    """PyTorch's ``Upsample*Backward0`` attributes: the input's sizes, the output size, one scale per spatial dim
    (None where the call gave a size) and, for the linear and cubic modes, ``align_corners``."""
    def item(i):
        return SavedFromCtx(lambda c: c["shown"][i])

    def scale(axis):
        return SavedFromCtx(lambda c: c["shown"][2][axis])

    names = ("scales",) if nd == 1 else ("scales_d", "scales_h", "scales_w")[3 - nd:]
    attrs = {"_saved_self_sym_sizes": item(0), "_saved_output_size": item(1),
             **{f"_saved_{n}": scale(i) for i, n in enumerate(names)}}
    if not base.startswith("UpsampleNearest"):
        attrs["_saved_align_corners"] = item(3)
    return attrs


def _scale(in_size, out_size, scale, align_corners, np_dtype):
    """PyTorch's ``area_pixel_compute_scale`` in the op's math dtype."""
    if align_corners:
        return np_dtype.type((in_size - 1) / (out_size - 1) if out_size > 1 else 0)
    if scale is not None and scale > 0:
        return np_dtype.type(1.0 / scale)
    return np_dtype.type(in_size) / np_dtype.type(out_size)


def _nearest_taps(in_size, out_size, scale, exact):
    j = np.arange(out_size, dtype=np.float32)
    if out_size == in_size:
        idx = np.arange(out_size)
    elif out_size == 2 * in_size and not exact:
        idx = np.arange(out_size) >> 1
    else:
        s = _scale(in_size, out_size, scale, False, np.dtype(np.float32))
        src = np.floor((j + np.float32(0.5)) * s if exact else j * s)
        idx = np.minimum(src.astype(np.int64), in_size - 1)
    return idx[None, :], None


def _source(in_size, out_size, scale, align_corners, dtype, cubic):
    s = _scale(in_size, out_size, scale, align_corners, dtype)
    j = np.arange(out_size).astype(dtype)
    if align_corners:
        return s * j
    if cubic:
        return s * (j + dtype.type(0.5)) - dtype.type(0.5)
    # NOTE: ATen's area_pixel_compute_source_index is compiled with the multiply-add fused (float32: exact in
    # float64, rounded once); float64 keeps the two roundings (its exact fused product is not reproduced here)
    if dtype == np.float32:
        src = (s.astype(np.float64) * (j + dtype.type(0.5)) - 0.5).astype(dtype)
    else:
        src = s * (j + dtype.type(0.5)) - dtype.type(0.5)
    return np.maximum(src, dtype.type(0))


def _linear_taps(in_size, out_size, scale, align_corners, dtype):
    src = _source(in_size, out_size, scale, align_corners, dtype, cubic=False)
    i0 = np.minimum(np.floor(src).astype(np.int64), in_size - 1)
    lam = np.clip(src - i0.astype(dtype), 0, 1).astype(dtype)
    i1 = i0 + (i0 < in_size - 1)
    return np.stack([i0, i1]), np.stack([dtype.type(1) - lam, lam])


def _cubic_weights(t, dtype):
    a = dtype.type(_CUBIC_A)

    def near(x):  # |x| <= 1
        return ((a + 2) * x - (a + 3)) * x * x + 1

    def far(x):  # 1 < |x| < 2
        return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a

    one = dtype.type(1)
    return np.stack([far(t + one), near(t), near(one - t), far(dtype.type(2) - t)]).astype(dtype)


def _cubic_taps(in_size, out_size, scale, align_corners, dtype):
    src = _source(in_size, out_size, scale, align_corners, dtype, cubic=True)
    i = np.floor(src).astype(np.int64)
    t = (src - i.astype(dtype)).astype(dtype)
    idx = np.clip(np.stack([i - 1, i, i + 1, i + 2]), 0, in_size - 1)
    return idx, _cubic_weights(t, dtype)


def _axis_taps(mode, in_size, out_size, scale, align_corners, dtype, xp):
    if mode in ("nearest", "nearest-exact"):
        idx, w = _nearest_taps(in_size, out_size, scale, mode == "nearest-exact")
    elif mode == "bicubic":
        idx, w = _cubic_taps(in_size, out_size, scale, align_corners, dtype)
    else:
        idx, w = _linear_taps(in_size, out_size, scale, align_corners, dtype)
    return xp.asarray(idx), (None if w is None else xp.asarray(w)), in_size


_DIMS = {"linear": 3, "bilinear": 4, "bicubic": 4, "trilinear": 5}


def _check_align_corners(mode, align_corners):
    if mode in ("nearest", "area", "nearest-exact") and align_corners is not None:
        raise ValueError("align_corners option can only be set with the interpolating modes: "
                         "linear | bilinear | bicubic | trilinear")


def _check_mode(input, mode, align_corners, antialias):
    if input.ndim in (3, 4, 5) and (mode in ("nearest", "nearest-exact", "area") or _DIMS.get(mode) == input.ndim):
        return
    if input.ndim == 4 and mode == "lanczos":
        if align_corners:
            raise ValueError("Lanczos mode does not support align_corners=True")
        if not antialias:
            raise ValueError("Lanczos mode requires antialias=True")
        return
    if input.ndim in (3, 4, 5) and mode in _DIMS and mode != "bicubic":
        raise NotImplementedError(f"Got {input.ndim}D input, but {mode} mode needs {_DIMS[mode]}D input")
    raise NotImplementedError(f"Input Error: Only 3D, 4D and 5D input Tensors supported (got {input.ndim}D) for the "
                              "modes: nearest | linear | bilinear | bicubic | trilinear | lanczos | area | "
                              f"nearest-exact (got {mode})")


def _kernel_name(input, mode, out):
    """The PyTorch CPU kernel that refuses a dtype: its channels-last kernel where it would take that one (a
    channels-last input of more than 3 channels; in 2-D also an output of at most 128 rows plus columns)."""
    fmt = channels_last if input.ndim == 4 else channels_last_3d
    wide = input.ndim in (4, 5) and input.shape[1] > 3 and is_contiguous_in(input.shape, input.stride(), fmt)
    if input.ndim == 4 and mode in ("nearest", "nearest-exact", "bilinear") and (wide or sum(out) <= 128):
        return f"upsample_{'bilinear' if mode == 'bilinear' else 'nearest'}2d_channels_last"
    if input.ndim == 5 and mode in ("nearest", "nearest-exact", "trilinear") and wide:
        return f"upsample_{'trilinear' if mode == 'trilinear' else 'nearest'}3d_channels_last"
    kind = {"nearest": "nearest", "nearest-exact": "nearest", "bicubic": "cubic"}.get(mode, "linear")
    return f"compute_indices_weights_{kind}"


def _check_dtype(input, mode, out):
    """PyTorch's kernels take the floating dtypes, and uint8 in 'nearest', 'nearest-exact', 'bilinear', 'bicubic'."""
    name = input.dtype.name
    if name in ("float16", "bfloat16", "float32", "float64") or \
            (name == "uint8" and mode in ("nearest", "nearest-exact", "bilinear", "bicubic")):
        return
    raise NotImplementedError(f"\"{_kernel_name(input, mode, out)}\" not implemented for "
                              f"'{SCALAR_NAMES.get(name, name)}'")


def _is_integer(x):
    return isinstance(x, (int, np.integer)) and not isinstance(x, bool) or \
        (hasattr(x, "is_floating_point") and not x.is_floating_point())


def _parser_error(input, size, scales) -> TypeError:
    """The TypeError of torch's upsample op (``upsample_nearest2d``...) for sizes that are not ints or scales that
    are not numbers: its first line, the types as its parser lists them."""
    def described(v):
        return "NoneType" if v is None else f"list of [{', '.join(type(x).__name__ for x in v)}]"

    name = f"upsample_nearest{input.ndim - 2}d"
    return TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, "
                     f"{'NoneType' if size is None else 'list'}, {'NoneType' if scales is None else 'list'}), but "
                     f"expected one of:\n * (Tensor input, tuple of ints output_size, tuple of floats scale_factors)\n"
                     f"      didn't match because some of the arguments have invalid types: (Tensor, "
                     f"!{described(size)}!, !{described(scales)}!)\n")


def _sizes(input, size, scale_factor, recompute_scale_factor, area):
    """(output sizes, scales) per spatial axis, with PyTorch's checks."""
    dim, spatial = input.ndim - 2, list(input.shape[2:])
    if size is not None and scale_factor is not None:
        raise ValueError("only one of size or scale_factor should be defined")
    if size is not None:
        if recompute_scale_factor:
            raise ValueError("recompute_scale_factor is not meaningful with an explicit size.")
        if isinstance(size, (list, tuple)):
            if len(size) != dim:
                raise ValueError("Input and output must have the same number of spatial dimensions, but got input "
                                 f"with spatial dimensions of {spatial} and output size of {size}. Please provide "
                                 "input tensor in (N, C, d1, d2, ...,dK) format and output size in (o1, o2, ...,oK) "
                                 "format.")
            if not all(_is_integer(s) for s in size):
                raise TypeError("expected size to be one of int or Tuple[int] or Tuple[int, int] or Tuple[int, int, "
                                f"int], but got size with types {[type(s) for s in size]}")
            return [int(s) for s in size], [None] * dim
        if not _is_integer(size):  # (torch repeats it into a list its upsample op's parser refuses)
            raise _parser_error(input, [size] * dim, None)
        return [int(size)] * dim, [None] * dim
    if scale_factor is None:
        raise ValueError("either size or scale_factor should be defined")
    if isinstance(scale_factor, (list, tuple)):
        if len(scale_factor) != dim:
            raise ValueError("Input and scale_factor must have the same number of spatial dimensions, but got input "
                             f"with spatial dimensions of {spatial} and scale_factor of shape {scale_factor}. Please "
                             "provide input tensor in (N, C, d1, d2, ...,dK) format and scale_factor in (s1, s2, "
                             "...,sK) format.")
        scales = scale_factor
    else:
        scales = [scale_factor] * dim
    if not all(isinstance(s, (int, float, np.integer, np.floating)) for s in scales):  # (a bool is a number)
        raise _parser_error(input, None, list(scales))
    scales = [float(s) for s in scales]
    out = [math.floor(n * s) for n, s in zip(spatial, scales)]
    return out, ([None] * dim if recompute_scale_factor or area else scales)


def _check_sizes(input, out):
    spatial = list(input.shape[2:])
    if min(spatial) > 0 and min(out) > 0:
        return
    names = "DHW"[3 - len(out):] if len(out) > 1 else "W"
    got_in = ", ".join(f"{n}: {s}" for n, s in zip(names, spatial))
    got_out = ", ".join(f"{n}: {s}" for n, s in zip(names, out))
    raise RuntimeError(f"Input and output sizes should be greater than 0, but got input ({got_in}) output ({got_out})")


def interpolate(input, size=None, scale_factor=None, mode="nearest", align_corners=None,
                recompute_scale_factor=None, antialias=False):
    """Resize the spatial axes of an (N, C, ...) tensor, as ``torch.nn.functional.interpolate``."""
    _check_align_corners(mode, align_corners)  # (torch's order of checks: this, the sizes, antialias, the mode)
    if mode not in ("nearest", "nearest-exact", "area") and align_corners is None:
        align_corners = False
    out, scales = _sizes(input, size, scale_factor, recompute_scale_factor, mode == "area")
    if antialias and not (mode in ("bilinear", "bicubic", "lanczos") and input.ndim == 4):
        raise ValueError("Anti-alias option is restricted to bilinear, bicubic, and lanczos modes and requires "
                         "a 4-D tensor as input")
    _check_mode(input, mode, align_corners, antialias)
    if mode == "area":
        return _area(input, out)
    _check_sizes(input, out)
    if antialias:
        check_aa_dtype(input)
        dtype = input._data.dtype if input.is_floating_point() else np.dtype(np.float64)  # (uint8's weights)
        return interpolate_aa(input, out, [_scale(n, o, s, align_corners, dtype)
                                           for n, o, s in zip(input.shape[2:], out, scales)], mode)
    _check_dtype(input, mode, out)
    if input.dtype.name == "uint8" and mode in ("bilinear", "bicubic"):
        return interpolate_uint8(input, out, [_scale(n, o, s, align_corners, np.dtype(np.float64))
                                              for n, o, s in zip(input.shape[2:], out, scales)], mode, align_corners)
    dtype = input._data.dtype if input.is_floating_point() else np.dtype(np.float32)
    if is_reduced(dtype):  # (its weights in float32 too)
        dtype = np.dtype(np.float32)
    xp = xp_of(input._data)
    taps = tuple(_axis_taps(mode, n, o, s, align_corners, dtype, xp)
                 for n, o, s in zip(input.shape[2:], out, scales))
    return _resample(input, taps, _NAMES[mode], shown=(tuple(out), tuple(scales), align_corners))


def _area(input, out):
    if input.ndim == 3:
        return adaptive_avg_pool1d(input, out[0])
    if input.ndim == 4:
        return adaptive_avg_pool2d(input, out)
    return adaptive_avg_pool3d(input, out)


def upsample(input, size=None, scale_factor=None, mode="nearest", align_corners=None):
    """Deprecated alias of ``interpolate``."""
    warn_caller("`nn.functional.upsample` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode, align_corners)


def upsample_nearest(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='nearest')``."""
    warn_caller("`nn.functional.upsample_nearest` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="nearest")


def upsample_bilinear(input, size=None, scale_factor=None):
    """Deprecated: ``interpolate(..., mode='bilinear', align_corners=True)``."""
    warn_caller("`nn.functional.upsample_bilinear` is deprecated. Use `nn.functional.interpolate` instead.")
    return interpolate(input, size, scale_factor, mode="bilinear", align_corners=True)
