"""PyTorch's CPU float32 bilinear ``interpolate`` arithmetic, forward and backward, step for step.

ATen's ``upsample_bilinear2d`` (UpSampleKernel.cpp) computes each output from its four taps in one expression,
not axis by axis as ``Resample`` does, and which kernel runs decides the order (measured against torch 2.13 on
an AMD EPYC Zen 4, GCC's contractions into fused multiply-adds included):

- its channels-last kernel (a channels-last input of more than 3 channels, an output of at most 128 rows plus
  columns, or one thread and 3 channels): per output ``w00 = h0 * w0`` ... ``w11 = h1 * w1`` (each rounded),
  the channels in vectors of 8 as ``fma(x00, w00, fma(x01, w01, fma(x11, w11, x10 * w10)))`` and the channels
  past the last multiple of 8 as ``fma(x11, w11, fma(x10, w10, fma(x00, w00, x01 * w01)))``;
- otherwise its generic kernel: ``fma(t0, h0, t1 * h1)`` with ``t0 = fma(x00, w0, x01 * w1)`` and
  ``t1 = fma(x10, w0, x11 * w1)``.

The backward (``cpu_upsample_linear_backward``, contiguous grad_output) walks each plane's outputs in raster
order and adds ``(h * w) * g`` to the four taps' input gradients, fused: each input element gathers its
contributions in that order here (at most a few per axis), one fused step per rank. Nearest's backward
(``cpu_upsample_nearest_backward``, 1-3 spatial dims, any float dtype) adds the gradients in the same raster
order (``scatter_backward`` without weights); core's matrix product added them in another order. A float32 fused
multiply-add is computed in float64 and rounded once (the product of two float32 values is exact there).
"""

from __future__ import annotations

import numpy as np

__all__ = ["bilinear_forward", "bilinear_backward", "scatter_backward", "uses_channels_last_kernel"]

_F32 = np.dtype(np.float32)
_LANES = 8


def uses_channels_last_kernel(shape, out_hw, channels_last: bool, threads: int) -> bool:
    """ATen's choice of ``upsample_bilinear2d``'s channels-last kernel for a float input."""
    return (channels_last and shape[1] > 3) or sum(out_hw) <= 128 or (threads == 1 and shape[1] == 3)


def bilinear_forward(arr, taps, channels_last_kernel: bool):
    """The (N, C, OH, OW) float32 result for ``arr`` (N, C, H, W) and ``taps`` ((idx (2, OH), weights (2, OH),
    H), (idx (2, OW), weights (2, OW), W)) as PyTorch's chosen kernel computes it.

    NOTE: each tap one ``take`` along the flattened planes, each fused step into one float64 buffer and rounded
    back in place (the product of two float32 values is exact in float64, the sum rounded once to float32)."""
    (hi, hw, _), (wi, ww, _) = taps
    n, c, h, w = arr.shape
    oh, ow = hi.shape[1], wi.shape[1]
    flat = arr.reshape(n, c, h * w)
    x00, x01, x10, x11 = (flat.take((r[:, None] * w + q[None, :]).reshape(-1), axis=-1) for r in hi for q in wi)
    step, out = np.empty(x00.shape, np.float64), np.empty(x00.shape, _F32)
    h0, h1, w0, w1 = hw[0][:, None], hw[1][:, None], ww[0][None, :], ww[1][None, :]
    if not channels_last_kernel:  # fma(t0, h0, t1 * h1), t0 = fma(x00, w0, x01 * w1), t1 = fma(x10, w0, x11 * w1)
        w0, w1, h0, h1 = (np.broadcast_to(v, (oh, ow)).reshape(-1) for v in (w0, w1, h0, h1))
        t0 = _fused(x00, w0.astype(np.float64), x01 * w1, step, np.empty(x00.shape, _F32))
        t1 = _fused(x10, w0.astype(np.float64), x11 * w1, step, x11)
        return _fused(t0, h0.astype(np.float64), t1 * h1, step, out).reshape(n, c, oh, ow)
    taps_ = (x00, x01, x10, x11)
    weights = [(a * b).reshape(-1) for a in (h0, h1) for b in (w0, w1)]  # w00, w01, w10, w11, each rounded
    full = c // _LANES * _LANES
    # the vectors' fma(x00, w00, fma(x01, w01, fma(x11, w11, x10 * w10))), the rest's
    # fma(x11, w11, fma(x10, w10, fma(x00, w00, x01 * w01))): innermost product first
    for part, order in ((slice(0, full), (2, 3, 1, 0)), (slice(full, None), (1, 0, 2, 3))):
        o, s = out[:, part], step[:, part]
        np.multiply(taps_[order[0]][:, part], weights[order[0]], out=o)
        for j in order[1:]:
            _fused(taps_[j][:, part], weights[j].astype(np.float64), o, s, o)
    return out.reshape(n, c, oh, ow)


def _fused(a, b, c, step, out):
    """``out = fma(a, b, c)`` for float32 ``a``, ``c`` and float64 ``b`` (a float32 value): in ``step``, rounded
    once into ``out`` (which may be ``c``)."""
    np.multiply(a, b, out=step)
    step += c
    np.copyto(out, step, casting="same_kind")
    return out


def _contributions(taps):
    """For each input element (flat over the spatial dims), its contributions in the kernel's order: (output
    flat index, weight or None) arrays shaped (K, inputs) and a mask of the valid ones. ``taps`` per axis:
    (idx (k, O), weights (k, O) or None, input size); outputs in raster order, each adding to its taps in order
    (the last axis's taps innermost)."""
    outs = [int(t[0].shape[1]) for t in taps]
    sizes = [int(t[2]) for t in taps]
    target = np.zeros(outs + [1] * len(taps), np.int64)
    weight = np.ones(outs + [1] * len(taps), _F32) if taps[0][1] is not None else None
    for axis, (idx, w, size) in enumerate(taps):
        shape = [1] * (2 * len(taps))
        shape[axis], shape[len(taps) + axis] = idx.shape[1], idx.shape[0]
        target = target * size + idx.T.reshape(shape)
        if weight is not None:
            weight = weight * w.T.reshape(shape).astype(_F32)
    out = np.broadcast_to(np.arange(int(np.prod(outs))).reshape(outs + [1] * len(taps)), target.shape).reshape(-1)
    target = target.reshape(-1)
    order = np.argsort(target, kind="stable")
    target, out = target[order], out[order]
    inputs = int(np.prod(sizes))
    counts = np.bincount(target, minlength=inputs)
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]])
    rank = np.arange(target.size) - starts[target]
    depth = int(counts.max()) if counts.size else 0
    src = np.zeros((depth, inputs), np.int64)
    mask = np.zeros((depth, inputs), bool)
    src[rank, target], mask[rank, target] = out, True
    wt = None
    if weight is not None:
        wt = np.zeros((depth, inputs), _F32)
        wt[rank, target] = weight.reshape(-1)[order]
    return src, wt, mask


def scatter_backward(g, taps):
    """The input gradient (N, C, *sizes) of a resampling with ``taps`` for the contiguous gradient ``g``, added
    as PyTorch's CPU backward kernels add it: each plane's outputs in raster order, ``acc += (w...) * g`` fused
    (``acc += g`` for nearest)."""
    lead = g.shape[:2]
    sizes = tuple(int(t[2]) for t in taps)
    src, wt, mask = _contributions(taps)
    # NOTE: the planes lie along the last axis (inputs, planes): each rank gathers whole rows of the gradient,
    # and a rank that only some inputs have (the borders' clamped taps) touches only those rows.
    flat_t = g.reshape(lead[0] * lead[1], -1).T
    if wt is None:
        grads = np.ascontiguousarray(flat_t)
    else:  # the fused step in float64: the float32 product is exact there, the sum rounded once to float32
        grads = np.empty(flat_t.shape, np.float64)
        grads[...] = flat_t
        wt = wt.astype(np.float64)
    acc = np.zeros((int(np.prod(sizes)), flat_t.shape[1]), g.dtype)
    buf = np.empty(acc.shape, grads.dtype)
    for r in range(src.shape[0]):
        rows = None if mask[r].all() else np.flatnonzero(mask[r])
        step = np.take(grads, src[r], axis=0, out=buf) if rows is None else grads[src[r, rows]]
        if wt is not None:
            step *= (wt[r] if rows is None else wt[r, rows])[:, None]
        step += acc if rows is None else acc[rows]
        if rows is None:
            acc[...] = step
        else:
            acc[rows] = step
    return np.ascontiguousarray(acc.T).reshape(*lead, *sizes)


def bilinear_backward(g, taps):
    """The input gradient (N, C, H, W) float32 of ``bilinear_forward`` for the contiguous gradient ``g``."""
    return scatter_backward(g, taps)
