"""A float32 2-d (or 1-d) convolution that PyTorch runs through ATen's own ``slow_conv2d`` (not oneDNN), in its
order: per sample, the output starts as the bias, then MKL's sgemm adds ``weight (O, K) @ columns (K, OH*OW)``.

PyTorch 2.13's CPU convolution picks oneDNN (``ConvParams::use_mkldnn``) for a float32 input unless, on one thread,
a 1x1 kernel at stride 1 without dilation meets a batch under 16, or the input is one sample whose kernel is not
larger than 3 in both directions, with one group, of at most 20480 elements; those (not dilated, one group) run
``slow_conv2d``: im2col, and the GEMM with beta = 1 from the bias (``core._small_gemm`` knows MKL's order for the
shapes it covers; from a bias it is the in-order chain or the blocked FMA kernel). Its backward: the weight
gradient is each sample's ``grad (O, OH*OW) @ columns.T`` added to the running sum in sample order (beta = 1: after
the product in MKL's dot kernels, the starting value of its FMA blocks), the input gradient of a 1x1 kernel at
stride 1 without padding each sample's ``weight.T @ grad`` (other kernels: those columns, ``thnn_columns``, then
core's col2im). Measured bit for bit: a lambda-network's 1x1 layers and head (8 -> 3 channels, 36 pixels), and the
oracle tests' shapes.
Everything else keeps ``core.nn.functional._conv``'s NumPy GEMM.
"""

from __future__ import annotations

import numpy as np

from core import _small_gemm
from core._memory_format import channels_last, format_of
from core._threads import get_num_threads

__all__ = ["takes_thnn", "thnn_columns", "thnn_forward", "thnn_input_grad", "thnn_weight_grad"]


def takes_thnn(x, w, spec) -> bool:
    """Whether PyTorch 2.13 runs this convolution of 4-d float32 NumPy arrays through ``slow_conv2d`` (module
    docstring), where core knows MKL's order."""
    if not _small_gemm.FMA_BLOCKS or type(x) is not np.ndarray or type(w) is not np.ndarray or x.dtype != np.float32 \
            or w.dtype != np.float32 or not x.size or not w.size or format_of(x) is channels_last \
            or format_of(w) is channels_last:
        return False
    n, c, h, wd = x.shape
    kh, kw = w.shape[2:]
    strided, dilated = any(s != 1 for s in spec.stride), any(d != 1 for d in spec.dilation)
    if dilated or spec.groups != 1 or get_num_threads() != 1:
        return False
    pointwise = not strided and n < 16 and kh == 1 and kw == 1
    small = not (kh > 3 and kw > 3) and n == 1 and n * c * h * wd <= 20480
    return pointwise or small


def _chain_from(start, a, b):
    """``start + a @ b`` with each product rounded and added in order of k (no FMA): MKL's in-order kernel."""
    out = start.copy()
    for k in range(a.shape[1]):
        out += a[:, k, None] * b[k]
    return out


def _sgemm_from_bias(a, b, bias):
    """``a @ b`` added to ``bias`` (one value per row) in MKL's order, or None where ``core._small_gemm`` does not know
    it (the caller keeps NumPy's)."""
    (m, k), n = a.shape, b.shape[1]
    if bias is None:
        return _small_gemm.mkl_gemm(a, b)
    if m >= 4 and n >= 12:
        if m * n * k > _small_gemm.FMA_BLOCKS_LIMIT or not _small_gemm.FMA_BLOCKS and k > 1:
            return None
        if k == 1:  # (one product each, rounded, then added; a (1, N) b is also "column-major" to _fma_blocks)
            return bias[:, None] + a * b
        return _small_gemm._fma_blocks(a, b, bias[:, None])  # (the blocks added in order to the bias)
    if n == 1 and m > 1:  # (one pixel: MKL's gemv, y = A x + y, the bias added to the finished dots)
        y = _small_gemm.mkl_gemm(a, b)
        return None if y is None else y + bias[:, None]
    if m * n * k > _small_gemm.LIMIT or not _small_gemm._in_order_region(m, k, n, False, False, False, True):
        return None
    return _chain_from(np.broadcast_to(bias[:, None], (m, n)), a, b)


def thnn_forward(x, w, spec, bias=None):
    """``conv(x, w) + bias`` on 4-d float32 NumPy arrays as PyTorch's ``slow_conv2d`` computes it, or None where
    PyTorch takes another kernel or the GEMM's order is not known here."""
    if (bias is not None and (type(bias) is not np.ndarray or bias.dtype != np.float32)) or not takes_thnn(x, w, spec):
        return None
    n, o = x.shape[0], w.shape[0]
    a = np.ascontiguousarray(w.reshape(o, -1))
    out = None
    for t, cols in enumerate(_columns(x, w.shape, spec)):
        y = _sgemm_from_bias(a, cols, bias)
        if y is None:
            return None
        if out is None:
            out = np.empty((n, o, y.shape[1]), np.float32)
        out[t] = y
    return out.reshape(n, o, *_out_hw(x, w.shape, spec))


def _out_hw(x, wshape, spec):
    (pt, pb), (pl, pr) = spec.padding
    return ((x.shape[2] + pt + pb - wshape[2]) // spec.stride[0] + 1,
            (x.shape[3] + pl + pr - wshape[3]) // spec.stride[1] + 1)


def _columns(x, wshape, spec):
    """Each sample's im2col (C*kh*kw, OH*OW), as ``slow_conv2d`` unfolds it (a copy: exact)."""
    c, (kh, kw) = x.shape[1], wshape[2:]
    (pt, pb), (pl, pr) = spec.padding
    xpad = np.pad(x, ((0, 0), (0, 0), (pt, pb), (pl, pr))) if pt or pb or pl or pr else x
    (sh, sw), (oh, ow) = spec.stride, _out_hw(x, wshape, spec)
    _, s_c, s_h, s_w = xpad.strides
    for t in range(x.shape[0]):
        cols = np.lib.stride_tricks.as_strided(xpad[t], (c, kh, kw, oh, ow), (s_c, s_h, s_w, s_h * sh, s_w * sw))
        yield np.ascontiguousarray(cols).reshape(c * kh * kw, oh * ow)


def thnn_weight_grad(x, g, wshape, spec):
    """The weight gradient of ``slow_conv2d`` (module docstring), or None where MKL's order is not known here."""
    if type(g) is not np.ndarray or g.dtype != np.float32 or not g.size:
        return None
    o = wshape[0]
    total = None
    for t, cols in enumerate(_columns(x, wshape, spec)):
        gt = np.ascontiguousarray(g[t].reshape(o, -1))
        m, n = o, cols.shape[0]
        if m >= 4 and n >= 12:  # (the running sum is the FMA blocks' starting value)
            if m * n * cols.shape[1] > _small_gemm.FMA_BLOCKS_LIMIT:
                return None
            if cols.shape[1] == 1:  # (one pixel: one rounded product each, added to the running sum)
                product = gt * cols.T
                total = product if total is None else total + product
                continue
            if not _small_gemm.FMA_BLOCKS:
                return None  # (NumPy's BLAS does not give the blocks' chains here: _small_gemm.FMA_BLOCKS)
            total = _small_gemm._fma_blocks(gt, np.ascontiguousarray(cols.T), total)
            continue
        product = _small_gemm.mkl_gemm(gt, cols.T)  # (a transposed b: the running sum added after the product)
        if product is None:
            return None
        total = product if total is None else total + product
    return None if total is None else total.reshape(wshape)


def thnn_input_grad(g, w, in_hw, spec):
    """The input gradient of ``slow_conv2d`` for a 1x1 kernel at stride 1 without padding (each sample's
    ``weight.T @ grad``: no col2im), or None."""
    pointwise = w.shape[2:] == (1, 1) and all(s == 1 for s in spec.stride) and not any(sum(spec.padding, ()))
    if type(g) is not np.ndarray or g.dtype != np.float32 or not g.size or not pointwise \
            or tuple(in_hw) != tuple(g.shape[2:]):
        return None
    n, o = g.shape[:2]
    wt = w.reshape(o, -1).T
    out = np.empty((n, wt.shape[0], g.shape[2] * g.shape[3]), np.float32)
    for t in range(n):
        y = _small_gemm.mkl_gemm(wt, np.ascontiguousarray(g[t].reshape(o, -1)))
        if y is None:
            return None
        out[t] = y
    return out.reshape(n, wt.shape[0], *g.shape[2:])


def thnn_columns(wt, gm, out):
    """The input gradient's columns of ``slow_conv2d`` for any kernel (one group): each sample's ``weight.T @ grad``
    as PyTorch's MKL sgemm adds it (``weight.T`` a transposed view, as PyTorch passes it), into ``out`` (m, 1, K, L)
    for ``wt`` (1, K, O) and ``gm`` (m, 1, O, L): ``core.nn.functional._conv.conv_input_grad``'s GEMM, whose col2im
    then adds the columns as PyTorch's does. NumPy's where ``core._small_gemm`` does not know MKL's order.

    NOTE: on the AMD Zen 4 NumPy's stacked GEMM gave these bits too (its OpenBLAS kernel is MKL's FMA chain); on a
    Zen 3 its Haswell kernel is another order for some tiles (measured: 3x3 kernels' input gradients 5-10% an ulp
    off), so the products go through ``_small_gemm`` one sample at a time."""
    weight_t = np.ascontiguousarray(wt[0].T).T
    for i in range(gm.shape[0]):
        y = _small_gemm.mkl_gemm(weight_t, gm[i, 0])
        out[i, 0] = np.matmul(weight_t, gm[i, 0]) if y is None else y
    return out
