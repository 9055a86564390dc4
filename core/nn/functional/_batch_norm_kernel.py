"""PyTorch's CPU ``batch_norm`` forward arithmetic for float32, step for step, so normalised values print alike.

PyTorch's kernel (ATen's batch_norm_kernel.cpp, one thread) computes, per channel ``c`` over the ``N`` values of
the batch and spatial positions:

- statistics of a batch with spatial dims (the contiguous path): ``mean = sum / N`` with the sum in double;
  ``var_sum`` = the double sum of the float32 squares ``(x - mean)^2``, stored as float32;
- statistics of an ``(N, C)`` batch (the channels-last path, also taken when there are no spatial dims): each of
  PyTorch's threads adds its chunk of rows in float32 one after another, the chunks are added in double,
  ``mean = sum / N``; ``var_sum`` accumulates ``(x - mean)^2`` the same way with a fused multiply-add (so this
  path depends on the thread count: core uses ``core.get_num_threads()``, whose default is PyTorch's);
- ``invstd = 1 / sqrt(var + eps)`` in double from the float32 ``var = var_sum / N``; with running statistics
  (evaluation) ``1 / sqrt(running_var + eps)`` in float32;
- ``alpha = invstd * weight``, ``beta = bias - mean * alpha`` (fused), ``y = x * alpha + beta`` (fused);
- ``running_mean = momentum * mean + (1 - momentum) * running_mean`` in float32, and the same for
  ``running_var`` with the unbiased ``var_sum / (N - 1)``, whose first product is fused with the sum.

Float32 fused multiply-adds are computed in float64 and rounded once (exact but for ~1 in 10^9 double roundings).

NOTE: hot paths at model sizes (a UNet's or ResNet's batch norms are millions of values): a large fused
multiply-add runs a block of samples at a time through one reused float64 buffer (the same elementwise double
arithmetic, so the same bits, without three fresh double-size temporaries), and the backward's 8-lane sums
reduce the vectors with ``np.add.reduce`` over the outer axis, which NumPy adds vector after vector in order,
as the ``cumsum`` it replaced did, without a cumulative array as big as the input.
"""

from __future__ import annotations

import numpy as np

from core._cascade_sum import in_order
from core._fused import fma as _exact_fma
from core._threads import get_num_threads

__all__ = ["batch_norm_forward", "batch_norm_backward", "batch_norm_eval_backward"]

_F32, _F64 = np.float32, np.float64


_FMA_BLOCK = 1 << 18  # float64 elements (2 MiB): larger fused multiply-adds go a block of samples at a time


def _fma(a, b, c):
    shape = np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
    if len(shape) < 2 or np.prod(shape) <= _FMA_BLOCK:
        return (np.asarray(a, _F64) * np.asarray(b, _F64) + np.asarray(c, _F64)).astype(_F32)
    out = np.empty(shape, _F32)
    a, b, c = (np.broadcast_to(v, shape) for v in (a, b, c))
    rows = max(1, _FMA_BLOCK // int(np.prod(shape[1:])))
    buffer = np.empty((rows,) + shape[1:], _F64)
    for start in range(0, shape[0], rows):
        block = slice(start, min(start + rows, shape[0]))
        t = buffer[:block.stop - start]
        np.multiply(a[block], b[block], out=t, dtype=_F64)
        np.add(t, c[block], out=t, dtype=_F64)
        out[block] = t
    return out


def _channels_last_stats(rows: np.ndarray, threads: int):
    """``(mean, var_sum)`` of an (N, C) float32 array as PyTorch's channels-last path adds them with ``threads``
    threads: each thread adds its chunk of rows (``parallel_for``'s ceil(N / threads) rows) into its own float32
    buffer, and the buffers are added in double."""
    n = rows.shape[0]
    chunk = -(-n // threads) if n > threads else n  # no more rows than threads: one float32 pass (measured)
    parts = [rows[start:start + chunk] for start in range(0, n, chunk)]
    total = np.zeros(rows.shape[1], _F64)
    for part in parts:  # NOTE: over the outer axis NumPy adds row after row, in float32 here
        total += np.add.reduce(part, axis=0, dtype=_F32)
    mean = (total / n).astype(_F32)
    var_sum = np.zeros(rows.shape[1], _F64)
    for part in parts:
        squares = np.square((part - mean).astype(_F64))  # exact: a float32 difference squared fits a double
        acc = np.zeros(rows.shape[1], _F32)
        for square in squares:  # NOTE: acc + d * d rounded once per row, the kernel's fused multiply-add
            acc = (square + acc).astype(_F32)
        var_sum += acc
    return mean, var_sum.astype(_F32)


def _contiguous_stats(arr: np.ndarray):
    """``(mean, var_sum)`` per channel of an (N, C, *spatial) float32 array: double sums, float32 squares."""
    dims = (0, *range(2, arr.ndim))
    count = arr.size // arr.shape[1]
    mean = (arr.sum(axis=dims, dtype=_F64) / count).astype(_F32)
    shape = [1] * arr.ndim
    shape[1] = arr.shape[1]
    d = arr - mean.reshape(shape)
    return mean, np.square(d, out=d).sum(axis=dims, dtype=_F64).astype(_F32)


def batch_norm_forward(arr, weight, bias, running_mean, running_var, training: bool, momentum: float, eps: float):
    """``(out, mean, invstd, new_running_mean, new_running_var)`` as PyTorch computes them for a C-contiguous
    float32 NumPy batch (running values None where not updated); None for any other input."""
    if type(arr) is not np.ndarray or arr.dtype != _F32 or arr.ndim < 2 or not arr.flags.c_contiguous or not arr.size:
        return None
    n, channels = arr.size // arr.shape[1], arr.shape[1]
    w = np.ones(channels, _F32) if weight is None else weight
    b = np.zeros(channels, _F32) if bias is None else bias
    new_mean = new_var = None
    if training:
        spatial = arr.size // (arr.shape[0] * channels)
        if spatial == 1:
            mean, var_sum = _channels_last_stats(arr.reshape(n, channels), get_num_threads())
        else:
            mean, var_sum = _contiguous_stats(arr)
        var = (var_sum / _F32(n)).astype(_F32)
        invstd = (1.0 / np.sqrt(var.astype(_F64) + eps)).astype(_F32)
        keep, step = _F32(1 - momentum), _F32(momentum)
        if running_mean is not None:
            new_mean = (step * mean + keep * running_mean.astype(_F32)).astype(_F32)
        if running_var is not None:
            unbiased = (var_sum / _F32(n - 1)).astype(_F32) if n > 1 else np.full(channels, np.nan, _F32)
            new_var = _fma(step, unbiased, keep * running_var.astype(_F32))  # NOTE: fused here, not for the mean
    else:
        mean = running_mean.astype(_F32)
        invstd = (_F32(1) / np.sqrt((running_var.astype(_F32) + _F32(eps)).astype(_F32))).astype(_F32)
    alpha = (invstd * w.astype(_F32)).astype(_F32)
    beta = _fma(-mean, alpha, b)
    shape = [1] * arr.ndim
    shape[1] = channels
    out = _fma(arr, alpha.reshape(shape), beta.reshape(shape))
    return out, mean, invstd, new_mean, new_var


# ----- backward (training mode) ------------------------------------------------------------------------------
# PyTorch's batch_norm_cpu_backward kernel runs at 8 float32 lanes here (its AVX2 build, measured). Per channel:
# - an (N, C) batch (channels-last path): each thread's chunk of rows adds ``sum += dy`` and the fused
#   ``dotp = fma(x - mean, dy, dotp)`` in float32, the chunks in double; then in float32
#   ``k = dotp * invstd * invstd / N``, ``grad_mean = sum / N`` and
#   ``dx = (dy - grad_mean - (x - mean) * k) * invstd * w``, its last product-difference fused for the columns of
#   whole 8-lane vectors and rounded twice for the last ``C % 8``;
# - a batch with spatial dims (contiguous path): each plane's ``dy`` and ``(x - mean) * dy`` summed in 8-lane
#   order (the partial last vector's products fused into the lanes), the planes added in double; ``k`` as above
#   in float32 from the rounded sums, ``grad_mean`` in double, ``dx`` fused everywhere.
# ``grad_weight = dotp * invstd`` and ``grad_bias = sum``.

_LANES = 8


def batch_norm_backward(arr, g, weight, mean, invstd, grad_sum=None):
    """``(grad_input, grad_weight, grad_bias)`` of training-mode batch norm as PyTorch's CPU kernel rounds them,
    for a C-contiguous float32 NumPy ``arr``, a float32 ``g`` and the forward's float32 ``mean``/``invstd`` per
    channel; a ``g`` that is not C-contiguous takes PyTorch's generic path (``_strided_backward``), given
    ``grad_sum``, ``g``'s float32 sum per channel as ``torch.sum`` adds it. None for any other input."""
    if not all(type(a) is np.ndarray and a.dtype == _F32 for a in (arr, g)) or not arr.flags.c_contiguous or \
            arr.shape != g.shape or arr.ndim < 2 or not arr.size:
        return None
    channels = arr.shape[1]
    w = np.ones(channels, _F32) if weight is None else weight.astype(_F32, copy=False)
    mean, invstd = mean.reshape(-1).astype(_F32), invstd.reshape(-1).astype(_F32)
    if not g.flags.c_contiguous:
        return None if grad_sum is None else _strided_backward(arr, g, w, mean, invstd, grad_sum)
    if arr.size // (arr.shape[0] * channels) == 1:
        return _channels_last_backward(arr.reshape(-1, channels), g.reshape(-1, channels), w, mean, invstd,
                                       arr.shape)
    return _contiguous_backward(arr, g, w, mean, invstd)


def _channels_last_sums(x, dy, mean):
    """``(x - mean, sum of dy, sum of (x - mean) * dy)`` per column as the channels-last path adds them."""
    n, channels = x.shape
    threads = get_num_threads()
    chunk = -(-n // threads) if n > threads else n
    total, dot = np.zeros(channels, _F64), np.zeros(channels, _F64)
    xm = x - mean
    for start in range(0, n, chunk):
        total += np.add.reduce(dy[start:start + chunk], axis=0, dtype=_F32)
        acc = np.zeros(channels, _F32)
        for xr, dr in zip(xm[start:start + chunk], dy[start:start + chunk]):
            acc = _fma(xr, dr, acc)
        dot += acc
    return xm, total.astype(_F32), dot.astype(_F32)


def _channels_last_backward(x, dy, w, mean, invstd, shape):
    n, channels = x.shape
    xm, total, dot = _channels_last_sums(x, dy, mean)
    count = _F32(n)
    k = dot * invstd * invstd / count
    centred = dy - total / count
    gx = _fma(-xm, k, centred)
    tail = channels - channels % _LANES
    gx[:, tail:] = centred[:, tail:] - xm[:, tail:] * k[tail:]
    return (gx * invstd * w).reshape(shape), dot * invstd, total


def _contiguous_backward(arr, g, w, mean, invstd):
    n, channels = arr.shape[:2]
    x3, dy = arr.reshape(n, channels, -1), g.reshape(n, channels, -1)
    xm = x3 - mean[:, None]
    total = np.cumsum(_lane_sum(dy).astype(_F64), axis=0)[-1]  # planes added in double, in order
    dot = np.cumsum(_lane_sum(xm, dy).astype(_F64), axis=0)[-1]
    count = arr.size // channels
    k = dot.astype(_F32) * invstd * invstd / _F32(count)
    grad_mean = (total / count).astype(_F32)
    gx = _fma(np.negative(xm, out=xm), k[:, None], dy - grad_mean[:, None])
    gx *= invstd[:, None]
    gx *= w[:, None]
    return gx.reshape(arr.shape), (dot * invstd).astype(_F32), total.astype(_F32)


def batch_norm_eval_backward(arr, g, weight, running_mean, running_var, eps: float):
    """``(grad_input, grad_weight, grad_bias)`` of evaluation-mode batch norm as PyTorch's CPU kernel rounds them:
    ``invstd = 1 / sqrt(running_var + eps)`` in double, rounded to float32, ``dx = dy * (invstd * w)``, the sums
    of ``dy`` and ``(x - running_mean) * dy`` as the training kernel adds them; ``grad_weight = dotp * invstd``.
    C-contiguous float32 NumPy arrays, or float64 ones with spatial dims (4-lane sums, their lanes added in
    order; ``invstd`` stays double); None otherwise."""
    if arr.dtype == _F64:
        return _eval_backward64(arr, g, weight, running_mean, running_var, eps)
    if not all(type(a) is np.ndarray and a.dtype == _F32 for a in (arr, g, running_mean, running_var)) or \
            not arr.flags.c_contiguous or not g.flags.c_contiguous or arr.shape != g.shape or arr.ndim < 2 or \
            not arr.size:
        return None
    n, channels = arr.shape[:2]
    w = np.ones(channels, _F32) if weight is None else weight.reshape(-1).astype(_F32, copy=False)
    invstd = (1.0 / np.sqrt(running_var.reshape(-1).astype(_F64) + eps)).astype(_F32)
    mean = running_mean.reshape(-1)
    if arr.size // (n * channels) == 1:  # (N, C): the channels-last path
        _, total, dot = _channels_last_sums(arr.reshape(-1, channels), g.reshape(-1, channels), mean)
        gx = g.reshape(-1, channels) * invstd * w
        return gx.reshape(arr.shape), (dot.astype(_F64) * invstd).astype(_F32), total
    dy = g.reshape(n, channels, -1)
    xm = arr.reshape(n, channels, -1) - mean[:, None]
    total = np.cumsum(_lane_sum(dy).astype(_F64), axis=0)[-1]  # planes added in double, in order
    dot = np.cumsum(_lane_sum(xm, dy).astype(_F64), axis=0)[-1]
    gx = dy * invstd[:, None] * w[:, None]  # NOTE: (dy * invstd) * w, two roundings, as the kernel's vec::map
    return gx.reshape(arr.shape), (dot * invstd).astype(_F32), total.astype(_F32)


def _eval_backward64(arr, g, weight, running_mean, running_var, eps: float):
    """``batch_norm_eval_backward`` of float64 arrays: ``dx = (dy * invstd) * w``; with spatial dims each plane's
    sums in ``vec::reduce_all``'s 4-lane order (the partial last vector's products fused into the lanes, the lanes
    added left to right), the planes added in order; an (N, C) batch's per thread chunk of rows, ``dotp`` fused,
    the chunks added in order (the channels-last path)."""
    if not all(type(a) is np.ndarray and a.dtype == _F64 for a in (arr, g, running_mean, running_var)) or \
            not arr.flags.c_contiguous or not g.flags.c_contiguous or arr.shape != g.shape or arr.ndim < 2 or \
            not arr.size:
        return None
    n, channels = arr.shape[:2]
    w = np.ones(channels) if weight is None else weight.reshape(-1).astype(_F64, copy=False)
    invstd = 1.0 / np.sqrt(running_var.reshape(-1) + eps)
    if arr.size // (n * channels) == 1:
        rows, dy = arr.reshape(-1, channels), g.reshape(-1, channels)
        chunk = -(-len(rows) // get_num_threads()) if len(rows) > get_num_threads() else len(rows)
        total, dot = np.zeros(channels), np.zeros(channels)
        xm = rows - running_mean.reshape(-1)
        for start in range(0, len(rows), chunk):
            total += np.add.reduce(dy[start:start + chunk], axis=0)
            acc = np.zeros(channels)
            for xr, dr in zip(xm[start:start + chunk], dy[start:start + chunk]):
                acc = _exact_fma(np, xr, dr, acc)
            dot += acc
        return (dy * invstd * w).reshape(arr.shape), dot * invstd, total
    dy = g.reshape(n, channels, -1)
    xm = arr.reshape(n, channels, -1) - running_mean.reshape(-1)[:, None]
    total = np.cumsum(_lane_sum64(dy), axis=0)[-1]
    dot = np.cumsum(_lane_sum64(xm, dy), axis=0)[-1]
    gx = dy * invstd[:, None] * w[:, None]
    return gx.reshape(arr.shape), dot * invstd, total


def _lane_sum64(a, b=None, lanes: int = 4):
    """Float64 sums over the last axis of ``a`` (or the products ``a * b``) in 4 lanes, lanes added in order."""
    p = a if b is None else a * b
    size = p.shape[-1]
    if size < lanes:
        return np.take(np.cumsum(p, axis=-1), -1, axis=-1)
    full, rest = divmod(size, lanes)
    acc = np.add.reduce(p[..., :full * lanes].reshape(*p.shape[:-1], full, lanes), axis=-2)
    if rest:
        tail = slice(full * lanes, None)
        acc[..., :rest] = p[..., tail] + acc[..., :rest] if b is None else _exact_fma(np, a[..., tail], b[..., tail],
                                                                                        acc[..., :rest])
    total = acc[..., 0].copy()
    for lane in range(1, lanes):
        total += acc[..., lane]
    return total


def _strided_backward(arr, g, w, mean, invstd, grad_sum):
    """PyTorch's ``batch_norm_backward`` when ``g`` is not laid out as the input (a permuted gradient, as einsum's
    backward hands over): not the vectorised kernel but ATen's generic loop, per channel in float32 but for
    ``dotp``, the double sum of the float32 products ``(x - mean) * dy`` in the input's order (n, then the spatial
    positions); ``k = dotp * invstd * invstd / N``, ``dx = (dy - sum / N - (x - mean) * k) * invstd * w``, each
    step rounded (no FMA: Normalization.cpp's scalar code), ``grad_weight = dotp * invstd`` in double and
    ``grad_bias = grad_sum`` (``torch.sum`` of ``g`` over all dims but 1, by the caller)."""
    n, channels = arr.shape[:2]
    x3, dy = arr.reshape(n, channels, -1), g.reshape(n, channels, -1)
    count = _F32(arr.size // channels)
    xm = x3 - mean[:, None]
    products = np.ascontiguousarray((xm * dy).transpose(0, 2, 1)).reshape(-1, channels)  # (n, spatial) x C
    dotp = in_order(products.astype(_F64))  # NOTE: added in double one after another, as the serial loop
    k = dotp.astype(_F32) * invstd * invstd / count
    grad_mean = grad_sum.astype(_F32) / count
    gx = dy - grad_mean[:, None]
    gx -= xm * k[:, None]
    gx *= invstd[:, None]
    gx *= w[:, None]
    return gx.reshape(arr.shape), (dotp * invstd.astype(_F64)).astype(_F32), grad_sum.astype(_F32)


def _lane_sum(a, b=None):
    """Float32 sums over the last axis in ``vec::reduce_all``'s 8-lane order, of ``a`` or (``b`` given) of the
    products ``a * b``, rounded, but fused into the lanes for a partial last vector."""
    p = a if b is None else a * b
    size = p.shape[-1]
    if size < _LANES:
        return np.take(np.cumsum(p, axis=-1), -1, axis=-1)
    full, rest = divmod(size, _LANES)
    acc = np.add.reduce(p[..., :full * _LANES].reshape(*p.shape[:-1], full, _LANES), axis=-2)  # vector by vector
    if rest:
        tail = slice(full * _LANES, None)
        acc[..., :rest] = p[..., tail] + acc[..., :rest] if b is None else _fma(a[..., tail], b[..., tail],
                                                                                  acc[..., :rest])
    for half in (4, 2, 1):
        acc = acc + acc[..., np.arange(_LANES) ^ half]
    return acc[..., 0]
