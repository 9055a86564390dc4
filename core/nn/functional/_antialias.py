"""``interpolate(..., antialias=True)`` ('bilinear', 'bicubic', 'lanczos') on 4-D input, and the uint8 route that
plain 'bilinear' and 'bicubic' take too, as PyTorch's CPU kernels compute them.

Output ``i`` of an axis averages the input taps ``xmin[i] .. xmin[i] + xsize[i] - 1`` around its centre
``scale * (i + 0.5)`` (``align_corners`` only changes the scale), weighted by a triangle ('bilinear'), a Keys
cubic with ``a = -0.5`` ('bicubic', Pillow's filter) or a Lanczos-3 window ``sinc(x) sinc(x / 3)`` ('lanczos',
Pillow's LANCZOS), stretched by the scale when downsampling and normalised to sum to one. ``axis_weights``
computes one axis's window and weights once, vectorised; the forward resamples the width, then the height, each
as one gathered weighted sum per tap, and leaves an axis whose size does not change untouched. Its backward is
PyTorch's: every output gradient spread over its 2-D window with the product of the two axes' weights (on every
axis, even one the forward left alone), and the backward's own backward is the forward again
(``UpsampleBilinear2DAaBackwardBackward0``), so higher derivatives come free.

uint8 images take PyTorch's integer route: float64 weights scaled to 16-bit integers, sums in integers. Plain
(not antialiased) 'bilinear' and 'bicubic' on uint8 take it too, with ``axis_weights_plain``: the float path's 2
or 4 taps around the source index (the cubic with ``a = -0.75``), taps past an edge added onto the edge's.

NOTE: the bits. PyTorch compiles these loops with fused multiply-adds, and its AVX512 build (the one checked)
packs the forward's first taps into 16-byte vectors: an output's sum adds ``t * w`` rounded, one 16-byte block of
taps after another, and fuses the taps left over after the last whole block; its weights' cubic and the
backward's accumulation are fused throughout. With ``_fma.fma`` float32 and float64 results carry PyTorch's
bits on such CPUs. Lanczos's float32 sine is the C library's ``sinf`` (see ``_sin``).

NOTE: a torch bug core does not copy: where the height changes and the (output) width is 1, torch's generic
separable kernel (every float one here, and uint8's for more than 4 channels or without AVX2) gives every output
row the first row's value, its vertical pass reading one row's taps for the whole column.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
from typing import NamedTuple

import numpy as np

from core._dtype import SCALAR_NAMES
from core._memory_format import in_suggested_format
from core.autograd.function import Function
from core.nn.functional._fma import fma
from core.ops._util import xp_of

__all__ = ["AxisWeights", "axis_weights", "axis_weights_plain", "check_aa_dtype", "interpolate_aa",
           "interpolate_uint8"]

_KEYS_A = -0.5  # Pillow's (and PyTorch's antialiased) cubic coefficient
_OPENCV_A = -0.75  # plain 'bicubic''s (OpenCV's)
_NAMES = {"bilinear": "UpsampleBilinear2DAa", "bicubic": "UpsampleBicubic2DAa", "lanczos": "UpsampleLanczos2DAa"}
_HALF_WIDTH = {"bilinear": 1.0, "bicubic": 2.0, "lanczos": 3.0}  # the filter's support at scale 1


class AxisWeights(NamedTuple):
    """One axis's windows: output ``i`` reads input ``xmin[i] + k`` with ``w[i, k]`` for ``k < xsize[i]``."""

    xmin: np.ndarray  # (out,) int64
    xsize: np.ndarray  # (out,) int64
    w: np.ndarray  # (out, K) in the op's dtype, zero from xsize on
    size: int  # the input size
    peak: float | None = None  # the largest weight uint8's precision is chosen by (None: the largest of w)


def _sinf_from_libc():
    name = ctypes.util.find_library("m") or ctypes.util.find_library("c")
    try:
        fn = ctypes.CDLL(name).sinf
    except (OSError, AttributeError, TypeError):
        return None
    fn.restype, fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return np.frompyfunc(fn, 1, 1)


_SINF = _sinf_from_libc()


def _sin(x):
    """sin(x) as PyTorch's build calls it: the C library's ``sin`` for float64 (NumPy's) and ``sinf`` for float32.

    NOTE: a float64 sine rounded to float32 differs from glibc's sinf in the last bit for about 1% of arguments,
    so float32 calls sinf itself where the C library has one."""
    if x.dtype == np.float32 and _SINF is not None:
        return _SINF(x).astype(np.float32) if x.size else x.copy()
    return np.sin(x.astype(np.float64)).astype(x.dtype)


def _sinc(x):
    """sin(pi x) / (pi x), 1 at 0, in x's dtype (``pi * x`` rounded first)."""
    px = x * x.dtype.type(math.pi)
    zero = x == 0
    return np.where(zero, x.dtype.type(1), _sin(px) / np.where(zero, x.dtype.type(1), px)).astype(x.dtype)


def _filter(x, mode: str, a: float = _KEYS_A):
    """The triangle, Keys cubic or Lanczos-3 kernel at ``x``, in x's dtype, fused as PyTorch's build fuses it."""
    x, dt = np.abs(x), x.dtype.type
    if mode == "bilinear":
        return np.where(x < 1, 1 - x, dt(0)).astype(x.dtype)
    if mode == "lanczos":  # NOTE: torch's sinc(x / 3.0) is a double's (x / 3.0 is), the product rounded once
        lanczos = _sinc(x).astype(np.float64) * _sinc(x.astype(np.float64) / 3.0)
        return np.where(x < 3, lanczos, 0.0).astype(x.dtype)
    a, one = dt(a), np.ones_like(x)
    near = fma(fma(np.full_like(x, a + 2), x, -(a + 3) * one, np) * x, x, one, np)  # ((a+2)x - (a+3))x^2 + 1
    far = fma(fma(fma(np.full_like(x, a), x, -5 * a * one, np), x, 8 * a * one, np), x, -4 * a * one, np)
    return np.where(x < 1, near, np.where(x < 2, far, dt(0))).astype(x.dtype)


def axis_weights(in_size: int, out_size: int, scale, mode: str) -> AxisWeights:
    """Windows and normalised weights of one axis; ``scale`` is ``area_pixel_compute_scale`` in the op's dtype.

    Every step rounds where PyTorch's ``_compute_indices_min_size_weights_aa`` rounds: the centre, support and
    inverse scale are computed in double and stored in the op's dtype; a tap's offset is ``(j + xmin) - centre``
    in the op's dtype, then ``+ 0.5`` and ``* invscale`` in double."""
    dt = np.dtype(type(scale))
    s = float(scale)
    half_taps = _HALF_WIDTH[mode]
    support = dt.type(half_taps * s if s >= 1.0 else half_taps)
    k_max = int(np.ceil(support)) * 2 + 1
    center = (s * (np.arange(out_size) + 0.5)).astype(dt)
    invscale = 1.0 / s if s >= 1.0 else 1.0
    xmin = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    xmax = np.minimum(((center + support).astype(np.float64) + 0.5).astype(np.int64), in_size)
    xsize = np.clip(xmax - xmin, 0, k_max)
    taps = np.arange(k_max)
    offset = (taps[None, :] + xmin[:, None]).astype(dt) - center[:, None]
    w = _filter(((offset.astype(np.float64) + 0.5) * float(dt.type(invscale))).astype(dt), mode)
    w = np.where(taps[None, :] < xsize[:, None], w, dt.type(0))
    total = np.zeros(out_size, dt)
    for k in range(k_max):  # PyTorch's running total, tap by tap
        total = total + w[:, k]
    w = np.where(total[:, None] != 0, w / np.where(total == 0, 1, total)[:, None], w).astype(dt)
    return AxisWeights(xmin, xsize, w, in_size)


def axis_weights_plain(in_size: int, out_size: int, scale: float, mode: str, align_corners: bool) -> AxisWeights:
    """uint8's weights without antialias ('bilinear', 'bicubic'), in float64 as PyTorch's
    ``_compute_indices_min_size_weights``: the float path's source index and fraction, its 2 or 4 taps, each tap
    past an edge added onto the edge's weight, no normalisation; ``peak`` is the largest value any weight held
    on the way (a partial sum at an edge can exceed its final one), which PyTorch picks the precision from."""
    taps = 4 if mode == "bicubic" else 2
    half = taps // 2
    j = np.arange(out_size, dtype=np.float64)
    if align_corners:
        src = scale * j
    else:
        src = fma(np.full_like(j, scale), j + 0.5, np.full_like(j, -0.5))
        src = src if mode == "bicubic" else np.maximum(src, 0.0)
    index = np.minimum(np.floor(src.astype(np.float32)).astype(np.int64), in_size - 1)  # (floorf: a float's)
    lam = np.clip(src - index, 0.0, 1.0)
    first = index - half + 1
    xmin = np.maximum(first, 0)
    xsize = np.clip(np.minimum(first + taps, in_size) - xmin, 0, taps)
    w, peak = np.zeros((out_size, taps)), np.zeros(out_size)
    rows, slot = np.arange(out_size), np.zeros(out_size, np.int64)
    for k in range(taps):
        slot = np.where(first + k <= 0, 0, np.where(first + k >= in_size - 1, xsize - 1, slot))
        w[rows, slot] += _filter(np.float64(k + 1 - half) - lam, mode, _OPENCV_A)
        peak = np.maximum(peak, w[rows, slot])
        slot = slot + 1
    return AxisWeights(xmin, xsize, w, in_size, float(peak.max(initial=0.0)))


def _along(v, axis: int, ndim: int):
    shape = [1] * ndim
    shape[axis] = v.shape[0]
    return v.reshape(shape)


def _resample_axis(data, axis: int, aw: AxisWeights, xp):
    """sum_k w[i, k] * data[.., xmin[i] + k, ..] along ``axis``, summed in PyTorch's order (see the module NOTE).

    Tap k adds to the outputs whose window reaches it: rounded where it lies in a whole 16-byte block of taps
    1.., fused after the last one. Where that is every output the tap is one full-width step, otherwise one step
    per kind on just those outputs."""
    ndim, n_in = data.ndim, data.shape[axis]
    lanes = 16 // data.dtype.itemsize
    last_block = lanes * ((aw.xsize - 1) // lanes)
    w = xp.asarray(aw.w)
    out = xp.take(data, xp.asarray(np.minimum(aw.xmin, n_in - 1)), axis=axis) * _along(w[:, 0], axis, ndim)
    for k in range(1, aw.w.shape[1]):
        added, fused = (k <= last_block), (k > last_block) & (k < aw.xsize)
        if added.all():
            out += xp.take(data, xp.asarray(aw.xmin + k), axis=axis) * _along(w[:, k], axis, ndim)
            continue
        for rows, fuse in ((np.nonzero(added)[0], False), (np.nonzero(fused)[0], True)):
            if rows.size:
                at = (slice(None),) * axis + (xp.asarray(rows),)
                t = xp.take(data, xp.asarray(aw.xmin[rows] + k), axis=axis)
                wk = _along(w[rows, k], axis, ndim)
                out[at] = fma(t, xp.broadcast_to(wk, t.shape), out[at], xp) if fuse else out[at] + t * wk
    return out


def _int16_weights(aw: AxisWeights):
    """uint8's weights: the float64 ones times 2^precision, rounded half away from zero, with the largest
    precision (at most 22) whose largest weight stays under 2^15 (PyTorch's ``_compute_index_ranges_int16_weights``)."""
    w_max = float(aw.w.max(initial=0.0)) if aw.peak is None else aw.peak
    precision = 0
    while precision < 22 and int(0.5 + w_max * (1 << (precision + 1))) < (1 << 15):
        precision += 1
    v = aw.w * (1 << precision)
    return np.trunc(np.where(v < 0, v - 0.5, v + 0.5)).astype(np.int64), precision


def _resample_axis_uint8(data, axis: int, aw: AxisWeights, xp):
    """uint8 along one axis in integers, as PyTorch: 2^(precision - 1) plus the weighted taps, shifted back down
    by the precision and clamped to [0, 255]."""
    weights, precision = _int16_weights(aw)
    ndim, n_in = data.ndim, data.shape[axis]
    wide = data.astype(np.int64)
    acc = None
    for k in range(weights.shape[1]):
        valid = k < aw.xsize
        t = xp.take(wide, xp.asarray(np.minimum(aw.xmin + k, n_in - 1)), axis=axis)
        term = t * _along(xp.asarray(np.where(valid, weights[:, k], 0)), axis, ndim)
        acc = term + (1 << (precision - 1)) if acc is None else acc + term
    return xp.clip(acc >> precision, 0, 255).astype(np.uint8)


def _forward(data, weights, skip, xp):
    """Resample the width (axis 3), then the height (axis 2), leaving out the axes in ``skip``."""
    resample = _resample_axis_uint8 if data.dtype == np.uint8 else _resample_axis
    for axis in (3, 2):
        if axis not in skip:
            data = resample(data, axis, weights[axis - 2], xp)
    return data


def _contributors(aw: AxisWeights):
    """Per input index, the outputs whose window holds it, in increasing order, with their weights:
    (index (in, C), weight (in, C), valid (in, C))."""
    out_size, k_max = aw.w.shape
    cols = aw.xmin[:, None] + np.arange(k_max)[None, :]
    holds = np.zeros((out_size, aw.size), bool)
    dense = np.zeros((out_size, aw.size), aw.w.dtype)
    rows, ks = np.nonzero(np.arange(k_max)[None, :] < aw.xsize[:, None])
    holds[rows, cols[rows, ks]] = True
    dense[rows, cols[rows, ks]] = aw.w[rows, ks]
    count = holds.sum(0)
    c_max = max(int(count.max()), 1)
    order = np.argsort(~holds, axis=0, kind="stable")[:c_max].T  # (in, C): holders first, in output order
    return order, dense[order, np.arange(aw.size)[:, None]], np.arange(c_max)[None, :] < count[:, None]


def _backward(g, weights, xp):
    """PyTorch's backward: grad_in[r, c] accumulates, fused, wx * wy * g[o, p] over the outputs (o, p) whose
    window holds (r, c), in (o, p) order."""
    (oy, wy, vy), (ox, wx, vx) = (_contributors(aw) for aw in weights)
    n, c = g.shape[:2]
    acc = xp.zeros((n, c, weights[0].size, weights[1].size), g.dtype)
    for a in range(oy.shape[1]):
        rows = xp.asarray(oy[:, a])[:, None]
        for b in range(ox.shape[1]):
            w = xp.asarray(wx[None, :, b] * wy[:, a, None])
            new = fma(w, g[:, :, rows, xp.asarray(ox[:, b])[None, :]], acc, xp)
            valid = vy[:, a, None] & vx[None, :, b]
            acc = new if valid.all() else xp.where(xp.asarray(valid), new, acc)
    return acc


class UpsampleAa(Function):
    """The antialiased resampling of an (N, C, H, W) tensor; ``weights`` holds the (height, width) AxisWeights.

    The output keeps the memory format its input suggests (a channels-last image stays channels-last); the
    backward's does for 'bilinear' only, as PyTorch's kernels allocate theirs."""

    @staticmethod
    def forward(ctx, x, *, weights, skip, transposed=False):
        ctx.weights, ctx.skip, ctx.transposed = weights, skip, transposed
        data, xp = x._data, xp_of(x._data)
        if transposed:
            out = _backward(data, weights, xp)
            return in_suggested_format(out, data) if ctx.node_base == _NAMES["bilinear"] else out
        out = _forward(data, weights, skip, xp)
        return in_suggested_format(out.copy() if out is data else out, data)

    @staticmethod
    def backward(ctx, g):
        return _apply(g, ctx.weights, ctx.skip, ctx.node_base, not ctx.transposed)


_CLASSES = {}


def _apply(x, weights, skip, base, transposed=False):
    cls = _CLASSES.get((base, transposed))
    if cls is None:
        name = base + ("Backward" if transposed else "")
        cls = type(name, (UpsampleAa,), {"node_name": f"{name}Backward0"})
        cls._backward_cls.node_base = base
        _CLASSES[base, transposed] = cls
    return cls.apply(x, weights=weights, skip=skip, transposed=transposed)


def check_aa_dtype(input) -> None:
    """PyTorch's antialiased kernels take float32, float64 and uint8 (weights in float64, sums in integers)."""
    name = input.dtype.name
    if name not in ("float32", "float64", "uint8"):
        raise NotImplementedError("\"compute_index_ranges_weights\" not implemented for "
                                  f"'{SCALAR_NAMES.get(name, name)}'")


def _unchanged(spatial, out):
    return tuple(axis + 2 for axis in range(2) if spatial[axis] == out[axis])


def interpolate_aa(input, out, scales, mode: str):
    """``input`` (N, C, H, W) resized to ``out`` (H', W'); ``scales``: per axis, ``area_pixel_compute_scale`` in the
    input's dtype (float64 for uint8)."""
    spatial = tuple(input.shape[2:])
    weights = tuple(axis_weights(n, o, s, mode) for n, o, s in zip(spatial, out, scales))
    return _apply(input, weights, _unchanged(spatial, out), _NAMES[mode])


def interpolate_uint8(input, out, scales, mode: str, align_corners: bool):
    """Plain 'bilinear' or 'bicubic' on a uint8 (N, C, H, W) ``input``: PyTorch's integer route (no gradient to
    record); ``scales`` as for ``interpolate_aa``."""
    spatial = tuple(input.shape[2:])
    weights = tuple(axis_weights_plain(n, o, float(s), mode, align_corners) for n, o, s in zip(spatial, out, scales))
    return _apply(input, weights, _unchanged(spatial, out), _NAMES[mode])
