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


def _fma(a, b, c):
    return (np.asarray(a, np.float64) * b + c).astype(_F32)


def uses_channels_last_kernel(shape, out_hw, channels_last: bool, threads: int) -> bool:
    """ATen's choice of ``upsample_bilinear2d``'s channels-last kernel for a float input."""
    return (channels_last and shape[1] > 3) or sum(out_hw) <= 128 or (threads == 1 and shape[1] == 3)


def bilinear_forward(arr, taps, channels_last_kernel: bool):
    """The (N, C, OH, OW) float32 result for ``arr`` (N, C, H, W) and ``taps`` ((idx (2, OH), weights (2, OH),
    H), (idx (2, OW), weights (2, OW), W)) as PyTorch's chosen kernel computes it."""
    (hi, hw, _), (wi, ww, _) = taps
    rows0, rows1 = arr[:, :, hi[0]], arr[:, :, hi[1]]
    x00, x01, x10, x11 = rows0[..., wi[0]], rows0[..., wi[1]], rows1[..., wi[0]], rows1[..., wi[1]]
    h0, h1 = hw[0][:, None], hw[1][:, None]
    w0, w1 = ww[0][None, :], ww[1][None, :]
    if not channels_last_kernel:
        t0 = _fma(x00, w0, x01 * w1)
        t1 = _fma(x10, w0, x11 * w1)
        return _fma(t0, h0, t1 * h1)
    w00, w01, w10, w11 = h0 * w0, h0 * w1, h1 * w0, h1 * w1
    full = arr.shape[1] // _LANES * _LANES
    out = np.empty(x00.shape, _F32)
    v = slice(0, full)
    out[:, v] = _fma(x00[:, v], w00, _fma(x01[:, v], w01, _fma(x11[:, v], w11, x10[:, v] * w10)))
    t = slice(full, None)
    out[:, t] = _fma(x11[:, t], w11, _fma(x10[:, t], w10, _fma(x00[:, t], w00, x01[:, t] * w01)))
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
