"""``interpolate(..., antialias=True)`` for 'bilinear' and 'bicubic' on 4-D input, as PyTorch's CPU kernel computes it.

Output ``i`` of an axis averages the input taps ``xmin[i] .. xmin[i] + xsize[i] - 1`` around its centre
``scale * (i + 0.5)`` (``align_corners`` only changes the scale), weighted by a triangle ('bilinear') or a Keys
cubic with ``a = -0.5`` ('bicubic', Pillow's filter) that is stretched by the scale when downsampling, and
normalised to sum to one. ``axis_weights`` computes one axis's window and weights once, vectorised; the forward
resamples the width, then the height, each as one gathered weighted sum per tap, and leaves an axis whose size
does not change untouched. Its backward is PyTorch's: every output gradient spread over its 2-D window with the
product of the two axes' weights (on every axis, even one the forward left alone), and the backward's own
backward is the forward again (``UpsampleBilinear2DAaBackwardBackward0``), so higher derivatives come free.
uint8 images take PyTorch's integer route: float64 weights scaled to 16-bit integers, sums in integers.

NOTE: the bits. PyTorch compiles these loops with fused multiply-adds, and its AVX512 build (the one checked)
packs the forward's first taps into 16-byte vectors: an output's sum adds ``t * w`` rounded, one 16-byte block of
taps after another, and fuses the taps left over after the last whole block; its weights' cubic and the
backward's accumulation are fused throughout. With ``_fma.fma`` float32 and float64 results carry PyTorch's
bits on such CPUs.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from core._dtype import SCALAR_NAMES
from core.autograd.function import Function
from core.nn.functional._fma import fma
from core.ops._util import xp_of

__all__ = ["AxisWeights", "axis_weights", "check_aa_dtype", "interpolate_aa"]

_KEYS_A = -0.5  # Pillow's (and PyTorch's antialiased) cubic coefficient; plain 'bicubic' uses -0.75
_NAMES = {"bilinear": "UpsampleBilinear2DAa", "bicubic": "UpsampleBicubic2DAa"}


class AxisWeights(NamedTuple):
    """One axis's windows: output ``i`` reads input ``xmin[i] + k`` with ``w[i, k]`` for ``k < xsize[i]``."""

    xmin: np.ndarray  # (out,) int64
    xsize: np.ndarray  # (out,) int64
    w: np.ndarray  # (out, K) in the op's dtype, zero from xsize on
    size: int  # the input size


def _filter(x, cubic: bool):
    """The triangle or Keys cubic (a = -0.5) kernel at ``x``, in x's dtype, fused as PyTorch's build fuses it."""
    x, dt = np.abs(x), x.dtype.type
    if not cubic:
        return np.where(x < 1, 1 - x, dt(0)).astype(x.dtype)
    a, one = dt(_KEYS_A), np.ones_like(x)
    near = fma(fma(np.full_like(x, a + 2), x, -(a + 3) * one, np) * x, x, one, np)  # ((a+2)x - (a+3))x^2 + 1
    far = fma(fma(fma(np.full_like(x, a), x, -5 * a * one, np), x, 8 * a * one, np), x, -4 * a * one, np)
    return np.where(x < 1, near, np.where(x < 2, far, dt(0))).astype(x.dtype)


def axis_weights(in_size: int, out_size: int, scale, cubic: bool) -> AxisWeights:
    """Windows and normalised weights of one axis; ``scale`` is ``area_pixel_compute_scale`` in the op's dtype.

    Every step rounds where PyTorch's ``_compute_indices_min_size_weights_aa`` rounds: the centre, support and
    inverse scale are computed in double and stored in the op's dtype; a tap's offset is ``(j + xmin) - centre``
    in the op's dtype, then ``+ 0.5`` and ``* invscale`` in double."""
    dt = np.dtype(type(scale))
    s = float(scale)
    half_taps = 2.0 if cubic else 1.0
    support = dt.type(half_taps * s if s >= 1.0 else half_taps)
    k_max = int(np.ceil(support)) * 2 + 1
    center = (s * (np.arange(out_size) + 0.5)).astype(dt)
    invscale = 1.0 / s if s >= 1.0 else 1.0
    xmin = np.maximum(((center - support).astype(np.float64) + 0.5).astype(np.int64), 0)
    xmax = np.minimum(((center + support).astype(np.float64) + 0.5).astype(np.int64), in_size)
    xsize = np.clip(xmax - xmin, 0, k_max)
    taps = np.arange(k_max)
    offset = (taps[None, :] + xmin[:, None]).astype(dt) - center[:, None]
    w = _filter(((offset.astype(np.float64) + 0.5) * float(dt.type(invscale))).astype(dt), cubic)
    w = np.where(taps[None, :] < xsize[:, None], w, dt.type(0))
    total = np.zeros(out_size, dt)
    for k in range(k_max):  # PyTorch's running total, tap by tap
        total = total + w[:, k]
    w = np.where(total[:, None] != 0, w / np.where(total == 0, 1, total)[:, None], w).astype(dt)
    return AxisWeights(xmin, xsize, w, in_size)


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
    w_max = float(aw.w.max(initial=0.0))
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
    """The antialiased resampling of an (N, C, H, W) tensor; ``weights`` holds the (height, width) AxisWeights."""

    @staticmethod
    def forward(ctx, x, *, weights, skip, transposed=False):
        ctx.weights, ctx.skip, ctx.transposed = weights, skip, transposed
        data, xp = x._data, xp_of(x._data)
        if transposed:
            return _backward(data, weights, xp)
        out = _forward(data, weights, skip, xp)
        return out.copy() if out is data else xp.ascontiguousarray(out)

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


def interpolate_aa(input, out, scales, mode: str):
    """``input`` (N, C, H, W) resized to ``out`` (H', W'); ``scales``: per axis, ``area_pixel_compute_scale`` in the
    input's dtype (float64 for uint8)."""
    spatial = tuple(input.shape[2:])
    weights = tuple(axis_weights(n, o, s, mode == "bicubic") for n, o, s in zip(spatial, out, scales))
    skip = tuple(axis + 2 for axis in range(2) if spatial[axis] == out[axis])
    return _apply(input, weights, skip, _NAMES[mode])
