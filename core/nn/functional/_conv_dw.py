"""A float32 depthwise convolution's forward in the order of oneDNN's depthwise kernel, which PyTorch's CPU
convolution hands it to.

PyTorch 2.13 gives a float32 convolution with more than one group to oneDNN (``ConvParams::use_mkldnn``) unless, on
one thread, a 1x1 kernel at stride 1 without dilation meets a batch under 16. For a depthwise convolution (one input
and one output channel per group: ``groups == in_channels == out_channels``) oneDNN runs its depthwise kernel, whose
accumulator per output element starts as the bias (zero without one) and takes each kernel tap's ``x * w`` with a
fused multiply-add, rows then columns of the kernel (``core._fused.fma``: one rounding per tap). Measured bit for bit:
xLSTM's and minLM's causal depthwise conv1d (kernel 3 and 4, padded), 2-d kernels 3x3 and 5x5 at stride 1 and 2;
a channel multiplier above one (other oneDNN kernels) and float64 (ATen's own loops) keep core's GEMM, as does the
backward.
"""

from __future__ import annotations

import numpy as np

from core._fused import fma
from core._threads import get_num_threads

__all__ = ["depthwise_forward"]


def _takes_onednn_depthwise(x, w, spec, bias) -> bool:
    if type(x) is not np.ndarray or type(w) is not np.ndarray or x.dtype != np.float32 or w.dtype != np.float32:
        return False
    if bias is not None and (type(bias) is not np.ndarray or bias.dtype != np.float32):
        return False
    n, c = x.shape[:2]
    o, cg, kh, kw = w.shape
    if not x.size or not w.size or cg != 1 or spec.groups != c or o != c or c < 2:
        return False
    strided, dilated = any(s != 1 for s in spec.stride), any(d != 1 for d in spec.dilation)
    return strided or dilated or n >= 16 or kh != 1 or kw != 1 or get_num_threads() > 1  # (else slow_conv2d)


def depthwise_forward(xpad, w, spec, bias, out_hw):
    """``conv(x, w) + bias`` of a padded 4-d float32 input in oneDNN's depthwise order, or None where PyTorch does
    not run that kernel (module docstring)."""
    if not _takes_onednn_depthwise(xpad, w, spec, bias):
        return None
    n, c = xpad.shape[:2]
    (oh, ow), (sh, sw), (dh, dw) = out_hw, spec.stride, spec.dilation
    kh, kw = w.shape[2:]
    out = np.zeros((n, c, oh, ow), np.float32)
    if bias is not None:
        out += bias.reshape(1, c, 1, 1)
    for i in range(kh):
        for j in range(kw):
            window = xpad[:, :, i * dh:i * dh + sh * (oh - 1) + 1:sh, j * dw:j * dw + sw * (ow - 1) + 1:sw]
            out = fma(np, window, w[:, 0, i, j].reshape(1, c, 1, 1), out)
    return out
