"""PyTorch's CPU ``group_norm`` forward arithmetic for float32, step for step (ATen's group_norm_kernel.cpp).

Each (sample, group) row of ``C / G * H * W`` elements takes its moments as layer_norm's kernel does
(``RowwiseMoments``: ``core.nn.functional._layer_norm_kernel``); ``rstd = 1 / sqrt(max(var, 0) + eps)`` is
computed in double (``eps`` is the kernel's double argument) and rounded once. Without weight and bias the output
is ``(x - mean) * rstd``; with either, per channel ``scale = rstd * weight``, ``shift = fma(-scale, mean, bias)``
and ``y = fma(scale, x, shift)`` (the compiler's contractions, measured against torch 2.13). NumPy's
double-precision statistics differed from torch in the last bit of a third of the outputs. float64 takes the same
steps at 4 lanes (its fma the exact two-product), bit for bit with torch, where asked (``group_norm_forward``).

The backward (``GroupNormBackwardKernelImplInternal``, contiguous inputs; its AVX2 build, 8 lanes, also on
AVX-512 machines: the kernel registers no AVX-512 variant) was measured the same way: per (sample, channel)
``ds = sum(dy * x)`` and ``db = sum(dy)`` by ``map2_reduce_all``/``reduce_all`` (8 lane sums, the partial last
vector added unfused, unlike layer_norm's, then the lanes' shuffle tree); per (sample, group) the channels'
``ds * gamma`` and ``db * gamma`` fused into 8 lane accumulators, the lanes added in order from 0, the channels
past the last multiple of 8 fused in one by one; ``c2 = fma(db, mean, -ds) * rstd * rstd * rstd * s``,
``c3 = fma(-db * rstd, s, -(c2 * mean))`` and ``dx = fma(rstd * gamma, dy, c2 * x) + c3``;
``dgamma = fma(fma(-db, mean, ds), rstd, acc)`` and ``dbeta = acc + db`` over the samples in order. Composite
double-precision gradients differed from torch in a quarter of the input gradients and in the weight gradient.
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import in_order
from core._numpy_c import copyto as _copyto
from core.nn.functional import _layer_norm_kernel as ln_kernel
from core.nn.functional._layer_norm_kernel import _fma, _lane_sum, _moments

__all__ = ["group_norm_forward", "group_norm_backward"]

_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)


def group_norm_forward(arr, weight, bias, groups: int, eps: float, exact64: bool = False):
    """``(y, mean, rstd)`` (mean and rstd: (N, G) in the input's dtype) as PyTorch's kernel computes them, for
    float32 NumPy arrays with at least one element per group (float64 too with ``exact64`` or layer_norm's
    ``EXACT_FLOAT64``: the kernel's double arithmetic costs ~10x NumPy's double statistics); None otherwise."""
    present = [a for a in (arr, weight, bias) if a is not None]
    dt = arr.dtype
    wanted = dt == _F32 or (dt == _F64 and (exact64 or ln_kernel.EXACT_FLOAT64))
    if not wanted or any(type(a) is not np.ndarray or a.dtype != dt for a in present) or arr.ndim < 2 or not arr.size:
        return None
    n, c = arr.shape[:2]
    rows = np.ascontiguousarray(arr).reshape(n * groups, -1)
    mean, var = _moments(rows)
    rstd = (1.0 / np.sqrt(np.maximum(var, 0).astype(np.float64) + eps)).astype(dt)
    if weight is None and bias is None:
        y = (rows - mean[:, None]) * rstd[:, None]
    else:
        per = c // groups
        x4 = rows.reshape(n, groups, per, -1)
        w = (np.ones(c, dt) if weight is None else weight.reshape(-1)).reshape(1, groups, per, 1)
        b = (np.zeros(c, dt) if bias is None else bias.reshape(-1)).reshape(1, groups, per, 1)
        scale = rstd.reshape(n, groups, 1, 1) * w
        shift = _fma(-scale, mean.reshape(n, groups, 1, 1), b)
        if dt == _F64:  # (float64's fma: the exact two-product, core._fused)
            y = _fma(scale, x4, shift)
        elif _finite(scale, shift):  # NOTE: a sample at a time through one float64 buffer (in cache), as _fma
            y = np.empty(x4.shape, _F32)
            t = np.empty(x4.shape[1:])
            scale64, shift64 = scale.astype(np.float64), shift.astype(np.float64)
            for i in range(n):
                _copyto(t, x4[i])
                np.multiply(t, scale64[i], out=t)
                np.add(t, shift64[i], out=t)
                _copyto(y[i], t, casting="same_kind")
        else:  # NaN meets NaN: which one NumPy's loop returns (its sign) depends on the operands' layout
            y = _fma(scale, x4, shift)
    return y.reshape(arr.shape), mean.reshape(n, groups), rstd.reshape(n, groups)


def _finite(*arrays) -> bool:
    """Whether the (small) per-group coefficients are all finite: then every operand of the elementwise steps is
    (an infinite or NaN input makes its group's mean so), no NaN meets another, and computing them a sample at a
    time gives the whole-array steps' bits, NaN payloads included."""
    return all(bool(np.isfinite(a).all()) for a in arrays)


_LANES = 8  # the AVX2 kernel's float32 vector


def _channel_sums(a, b):
    """``map2_reduce_all`` (``b`` None: ``reduce_all``): each row's sum of ``a * b`` (M, HxW) in the kernel's order."""
    rows, size = a.shape
    if size < _LANES:  # vec_reduce_all over the first ``size`` lanes: left to right
        p = a if b is None else a * b
        total = p[:, 0]
        for k in range(1, size):
            total = total + p[:, k]
        return total
    full = size // _LANES * _LANES
    p = a[:, :full] if b is None else a[:, :full] * b[:, :full]
    acc = in_order(p.reshape(rows, -1, _LANES), axis=1)
    if size > full:
        tail = a[:, full:] if b is None else a[:, full:] * b[:, full:]
        acc[:, :size - full] += tail
    return _lane_sum(acc)


def _weighted_group_sums(ds, db, gamma):
    """``CalcDsDb`` and its tail: per (sample, group) the sums of ``ds * gamma`` and ``db * gamma`` over the
    group's channels (``ds``, ``db``: (N, G, D); ``gamma``: (G, D))."""
    d = ds.shape[2]
    full = d // _LANES * _LANES
    acc_s = np.zeros(ds.shape[:2] + (_LANES,), _F32)
    acc_b = np.zeros_like(acc_s)
    for j in range(0, full, _LANES):
        acc_s = _fma(ds[..., j:j + _LANES], gamma[:, j:j + _LANES], acc_s)
        acc_b = _fma(db[..., j:j + _LANES], gamma[:, j:j + _LANES], acc_b)
    sum_s, sum_b = np.zeros(ds.shape[:2], _F32), np.zeros(ds.shape[:2], _F32)
    for lane in range(_LANES):  # std::accumulate over the stored lanes
        sum_s, sum_b = sum_s + acc_s[..., lane], sum_b + acc_b[..., lane]
    for j in range(full, d):
        sum_s, sum_b = _fma(ds[..., j], gamma[:, j], sum_s), _fma(db[..., j], gamma[:, j], sum_b)
    return sum_s, sum_b


def group_norm_backward(dy, arr, mean, rstd, weight, groups: int, need):
    """``(dx, dweight, dbias)`` (None where ``need`` says not) of a contiguous float32 group norm as PyTorch's
    kernel computes them, from the forward's ``mean`` and ``rstd`` ((N, G)); None where it does not apply."""
    if weight is not None and (type(weight) is not np.ndarray or weight.dtype != _F32):
        return None
    if type(dy) is not np.ndarray or dy.dtype != _F32 or arr.ndim < 2 or not arr.size:
        return None
    n, c = arr.shape[:2]
    per = c // groups
    x = np.ascontiguousarray(arr).reshape(n * c, -1)
    g = np.ascontiguousarray(dy).reshape(n * c, -1)
    ds, db = _channel_sums(g, x).reshape(n, groups, per), _channel_sums(g, None).reshape(n, groups, per)
    gamma = np.ones((groups, per), _F32) if weight is None else weight.reshape(groups, per)
    m, r = mean[..., None], rstd[..., None]
    dx = dw = dbias = None
    if need[0]:
        s = np.float32(1) / np.float32(per * x.shape[1])
        sum_s, sum_b = _weighted_group_sums(ds, db, gamma)
        c2 = _fma(sum_b, mean, -sum_s) * rstd * rstd * rstd * s
        c3 = _fma(-sum_b * rstd, s, -(c2 * mean))
        c1 = (r * gamma).reshape(n, c, 1)
        xs = x.reshape(n, groups, per * x.shape[1])
        if _finite(c1, c2, c3):  # (a sample at a time through float64 buffers, as the forward's fma)
            g3, c1_64 = g.reshape(n, c, -1), c1.astype(np.float64)
            dx = np.empty((n, groups, per * x.shape[1]), _F32)
            t, u = np.empty((2, c, x.shape[1]))
            for i in range(n):
                _copyto(t, g3[i])
                np.multiply(t, c1_64[i], out=t)
                _copyto(u, (c2[i, :, None] * xs[i]).reshape(c, -1))
                np.add(t, u, out=t)
                _copyto(dx[i].reshape(c, -1), t, casting="same_kind")
                np.add(dx[i], c3[i, :, None], out=dx[i])
            dx = dx.reshape(arr.shape)
        else:
            lin = (c2[..., None] * xs).reshape(n, c, -1)
            dx = (_fma(c1, g.reshape(n, c, -1), lin).reshape(n, groups, -1) + c3[..., None]).reshape(arr.shape)
    if need[1]:
        acc = np.zeros((groups, per), _F32)
        for i in range(n):
            acc = _fma(_fma(-db[i], m[i], ds[i]), r[i], acc)
        dw = acc.reshape(weight.shape) if weight is not None else acc.reshape(c)
    if need[2]:
        dbias = in_order(db.reshape(n, c), axis=0)
    return dx, dw, dbias
