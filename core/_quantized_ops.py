"""The quantized ops ``torch`` exposes at its top level: ``quantize_per_tensor_dynamic`` (scale and zero point
chosen from the tensor's range, as PyTorch's ``ChooseQuantizationParams``), ``quantized_max_pool1d``/``2d`` (the
maximum of the integers, same quantizer) and ``quantized_batch_norm`` (batch norm of the values, quantized with
the output's scale and zero point)."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._backend import to_numpy_array
from core._quantized import QuantizedTensor, _dequantize, _make, per_tensor_affine, qint8, quantize_per_tensor, quint8
from core._tensor import Tensor

__all__ = ["quantize_per_tensor_dynamic", "quantized_max_pool1d", "quantized_max_pool2d", "quantized_batch_norm"]

# (quantized_adaptive_avg_pool2d and quantized_mean serve F.adaptive_avg_pool2d and QuantizedTensor.mean)

_SMALL_SCALE = np.float32(6.1e-5)  # PyTorch's SMALL_SCALE_THRESHOLD


def choose_qparams(x_min: float, x_max: float, qmin: int, qmax: int, reduce_range: bool) -> tuple[float, int]:
    """``(scale, zero_point)`` covering ``[min(x_min, 0), max(x_max, 0)]``, as PyTorch's ``ChooseQuantizationParams``
    (no sparsity preservation, no power-of-two scale)."""
    if reduce_range:
        qmin, qmax = qmin // 2, qmax // 2
    lo, hi = np.float32(min(x_min, 0.0)), np.float32(max(x_max, 0.0))
    scale = (float(hi) - float(lo)) / (qmax - qmin)
    if np.float32(scale) == 0 or np.isinf(np.float32(1.0) / np.float32(scale)):
        scale = 0.1
    if scale < _SMALL_SCALE:
        original = scale
        scale = float(_SMALL_SCALE)
        if lo == 0:
            hi = _SMALL_SCALE * (qmax - qmin)
        elif hi == 0:
            lo = -_SMALL_SCALE * (qmax - qmin)
        else:
            amplifier = np.float32(_SMALL_SCALE / np.float32(original))
            lo, hi = lo * amplifier, hi * amplifier
    from_min, from_max = qmin - float(lo) / scale, qmax - float(hi) / scale
    error_min, error_max = abs(qmin) - abs(float(lo) / scale), abs(qmax) - abs(float(hi) / scale)
    initial = from_min if error_min < error_max else from_max
    zero_point = qmin if initial < qmin else qmax if initial > qmax else int(np.rint(initial))
    return scale, zero_point


def quantize_per_tensor_dynamic(input: Tensor, dtype, reduce_range: bool) -> Tensor:
    """``torch.quantize_per_tensor_dynamic``: per-tensor quantization with qparams from the tensor's min and max
    (``reduce_range`` halves the integer range, as PyTorch's x86 engine does)."""
    if dtype not in (qint8, quint8, _dtype.float16):
        raise RuntimeError(f"dtype {dtype!r}not supported")
    if dtype is _dtype.float16:
        return input.contiguous().to(_dtype.float16)
    arr = to_numpy_array(input.detach()._data).astype(np.float32)
    scale, zero_point = choose_qparams(float(arr.min()), float(arr.max()), dtype.qmin, dtype.qmax, reduce_range)
    return quantize_per_tensor(input, scale, zero_point, dtype)


def _pooled(q: QuantizedTensor, pool, *args) -> QuantizedTensor:
    """``pool`` of the integers (their order is the values' order), with ``q``'s quantizer."""
    if not isinstance(q, QuantizedTensor) or q.qscheme() is not per_tensor_affine:
        raise RuntimeError("quantized_max_pool expects a per-tensor quantized input")
    ints = Tensor._wrap(np.asarray(q._data).astype(np.float64))
    out = pool(ints, *args)
    return _make(to_numpy_array(out._data).astype(q.dtype.np), q.dtype, per_tensor_affine, q.q_scale(),
                 q.q_zero_point())


def quantized_max_pool1d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor:
    """``torch.quantized_max_pool1d``: max pooling of a quantized tensor, which stays quantized."""
    from core.nn import functional  # nn imports the tensor modules

    return _pooled(input, functional.max_pool1d, kernel_size, stride or None, padding, dilation, ceil_mode)


def quantized_max_pool2d(input, kernel_size, stride=(), padding=0, dilation=1, ceil_mode=False) -> Tensor:
    """``torch.quantized_max_pool2d``: max pooling of a quantized tensor, which stays quantized."""
    from core.nn import functional  # nn imports the tensor modules

    return _pooled(input, functional.max_pool2d, kernel_size, stride or None, padding, dilation, ceil_mode)


def quantized_batch_norm(input, weight, bias, mean, var, eps: float, output_scale: float,
                         output_zero_point: int) -> Tensor:
    """``torch.quantized_batch_norm``: ``(x - mean) / sqrt(var + eps) * weight + bias`` of the values, per channel
    (dim 1), quantized with ``output_scale`` and ``output_zero_point``."""
    x = _dequantize(input)
    shape = (1, -1) + (1,) * (x.ndim - 2)

    def channel(t):
        return to_numpy_array(t.detach()._data).astype(np.float32).reshape(shape)

    alpha = channel(weight) / np.sqrt(channel(var) + np.float32(eps))
    beta = channel(bias) - channel(mean) * alpha
    out = Tensor._wrap((x * alpha + beta).astype(np.float32))
    return quantize_per_tensor(out, output_scale, output_zero_point, input.dtype)


def _per_tensor(q, what: str) -> QuantizedTensor:
    if not isinstance(q, QuantizedTensor) or q.qscheme() is not per_tensor_affine:
        raise RuntimeError(f"{what} expects a per-tensor quantized input")
    return q


def quantized_adaptive_avg_pool2d(input, output_size) -> QuantizedTensor:
    """Adaptive average pooling of a quantized tensor: each window's integer sum times the float32
    ``1 / window size``, rounded (the input's quantizer kept).

    NOTE: equal to PyTorch's for nearly every window; where the exact mean is half-way between two integers
    PyTorch's kernel sometimes rounds the other way (about 1 window in 10,000 in random tests)."""
    q = _per_tensor(input, "adaptive_avg_pool2d")
    ints = np.asarray(q._data).astype(np.int64)
    height, width = ints.shape[-2:]
    size = output_size if isinstance(output_size, (tuple, list)) else (output_size, output_size)
    oh, ow = (height if size[0] is None else size[0]), (width if size[1] is None else size[1])
    out = np.empty(ints.shape[:-2] + (oh, ow), dtype=q.dtype.np)
    for i in range(oh):
        h0, h1 = (i * height) // oh, -((-(i + 1) * height) // oh)
        for j in range(ow):
            w0, w1 = (j * width) // ow, -((-(j + 1) * width) // ow)
            total = ints[..., h0:h1, w0:w1].sum(axis=(-1, -2)).astype(np.float32)
            inverse = np.float32(1) / np.float32((h1 - h0) * (w1 - w0))
            out[..., i, j] = np.clip(np.rint((total * inverse).astype(np.float32)), q.dtype.qmin, q.dtype.qmax)
    return _make(out, q.dtype, per_tensor_affine, q.q_scale(), q.q_zero_point())


def quantized_mean(input, dim=None, keepdim: bool = False) -> QuantizedTensor:
    """``mean`` of a quantized tensor as PyTorch's quantized reduction: the integer sum less ``zero_point * n``,
    times the float32 ``1 / n``, plus the zero point, rounded (the input's quantizer kept)."""
    q = _per_tensor(input, "mean")
    ints = np.asarray(q._data).astype(np.int64)
    dims = tuple(range(ints.ndim)) if dim is None or dim == [] else (dim,) if isinstance(dim, int) else tuple(dim)
    dims = tuple(sorted(d % ints.ndim for d in dims))
    if ints.ndim != 4 or dims != (2, 3):  # (PyTorch's other quantized means: the float mean, quantized again)
        values = Tensor._wrap(_dequantize(q)).mean(dims, keepdim=keepdim)
        return quantize_per_tensor(values, q.q_scale(), q.q_zero_point(), q.dtype)
    count = int(np.prod([ints.shape[d] for d in dims]))
    zero_point = q.q_zero_point()
    acc = (ints.sum(axis=dims, keepdims=keepdim) - zero_point * count).astype(np.float32)
    values = (np.float32(zero_point) + (acc * (np.float32(1) / np.float32(count))).astype(np.float32))
    out = np.clip(np.rint(values.astype(np.float32)), q.dtype.qmin, q.dtype.qmax).astype(q.dtype.np)
    return _make(out, q.dtype, per_tensor_affine, q.q_scale(), zero_point)
