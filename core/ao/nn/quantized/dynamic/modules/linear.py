"""``torch.ao.nn.quantized.dynamic.Linear`` (``DynamicQuantizedLinear``) with FBGEMM's numerics, bit for bit.

The weight is quantized once, symmetric in ``qint8`` (scale ``max(|min|, |max|) / 127.5``, zero point 0): per
tensor as torch's default weight observer, or per output channel with ``per_channel_dynamic_qconfig``.
Each call then, as ``quantized::linear_dynamic`` on x86:

1. quantizes the input to ``quint8`` with qparams from its min and max over the whole tensor, range reduced to
   ``[0, 127]`` (``reduce_range=True``: FBGEMM's int16 accumulation must not saturate);
2. multiplies the integers exactly (in float64, whose sums of these products stay exact integers; int32 in
   FBGEMM) and subtracts the input zero point times each weight row's sum;
3. dequantizes as FBGEMM's ``ReQuantizeForFloat`` does: ``fma(acc, float(x_scale * w_scale), bias)``, one
   float32 multiplier (per output channel when per channel) and the bias added in the same rounding.
"""

from __future__ import annotations

import numpy as np

import core
from core import _dtype
from core._backend import to_numpy_array
from core._quantized import (
    per_channel_affine,
    per_channel_symmetric,
    qint8,
    quantize_per_channel,
    quantize_per_tensor,
    quint8,
)
from core._quantized_ops import choose_qparams
from core.ao.nn.quantized._qparams import OutputQParams, PackedWeightBias
from core.nn import Module

__all__ = ["Linear", "LinearPackedParams"]

_EPS = np.finfo(np.float32).eps


def _weight_qparams(weight: np.ndarray) -> float:
    """The scale torch's default weight observer (MinMaxObserver, qint8, per-tensor symmetric) gives ``weight``."""
    lo = min(np.float32(weight.min()), np.float32(0)) if weight.size else np.float32(0)
    hi = max(np.float32(weight.max()), np.float32(0)) if weight.size else np.float32(0)
    scale = np.float32(max(-lo, hi)) / np.float32(255 / 2)
    return float(max(np.float32(scale), _EPS))


class LinearPackedParams(Module):
    """The packed weight and bias (``_packed_params``): ``(qweight, bias)`` in the state dict, as torch's."""

    _version = 3

    def __init__(self, dtype=qint8):
        super().__init__()
        self.dtype = dtype
        self._packed_params = None

    def set_weight_bias(self, weight, bias) -> None:
        self._packed_params = (weight, bias)

    def _weight_bias(self):
        return self._packed_params

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "dtype"] = self.dtype
        destination[prefix + "_packed_params"] = self._weight_bias()

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.dtype = state_dict.pop(prefix + "dtype", self.dtype)
        weight, bias = state_dict.pop(prefix + "_packed_params")
        self.set_weight_bias(weight, bias)

    def __repr__(self):
        return repr(self._weight_bias())


class Linear(OutputQParams, PackedWeightBias, Module):
    """A Linear layer with a ``qint8`` weight, quantizing its input per call (see the module docstring)."""

    _version = 4
    _qparams_required = False  # its output is float: a state dict without scale/zero_point keeps 1.0 and 0

    def __init__(self, in_features: int, out_features: int, bias_: bool = True, dtype=qint8):
        super().__init__()
        if dtype is not qint8:
            raise RuntimeError("Unsupported dtype specified for dynamic quantized Linear!")
        self.in_features, self.out_features = in_features, out_features
        bias = core.zeros(out_features, dtype=_dtype.float32) if bias_ else None
        qweight = quantize_per_tensor(core.zeros(out_features, in_features), 1.0, 0, qint8)
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(qweight, bias)
        self.scale, self.zero_point = 1.0, 0
        self.version = self._version

    def _get_name(self) -> str:
        return "DynamicQuantizedLinear"

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, "
                f"dtype={self._packed_params.dtype}, qscheme={self.weight().qscheme()}")

    def __repr__(self) -> str:  # (the packed parameters are not shown, as torch hides them)
        return f"{self._get_name()}({self.extra_repr()})"


    def forward(self, x):
        if x.shape[-1] != self.in_features:
            raise RuntimeError(f"The number of rows in the packB should be equal to K: {self.in_features}")
        out = _linear_dynamic(to_numpy_array(x.detach()._data), self.weight(), self.bias())
        return core.tensor(out.reshape(*x.shape[:-1], self.out_features)).to(x.dtype)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False, qconfig=None):
        """The dynamic quantized twin of a float ``nn.Linear`` (its bias is kept as it is), its weight quantized
        as ``qconfig``'s weight observer says (``mod.qconfig``, else per tensor as torch's default)."""
        from core.ao.quantization.qconfig import default_dynamic_qconfig

        qconfig = qconfig or getattr(mod, "qconfig", None) or default_dynamic_qconfig
        weight = mod.weight.detach().float()
        observer = qconfig.weight()
        observer(weight)
        scales, zero_points = observer.calculate_qparams()
        if observer.qscheme is per_channel_symmetric:
            qweight = quantize_per_channel(weight, scales.double(), zero_points, observer.ch_axis, qint8)
        else:
            qweight = quantize_per_tensor(weight, float(scales[0]), int(zero_points[0]), qint8)
        qlinear = cls(mod.in_features, mod.out_features, dtype=qint8)
        qlinear.set_weight_bias(qweight, mod.bias)
        return qlinear


def weight_scales(qweight) -> tuple[np.ndarray, np.ndarray]:
    """The weight's scales (float32) and zero points (float64), one per output channel (repeated when per tensor):
    what the dynamic and the static quantized layers requantize with."""
    rows = qweight.shape[0]
    if qweight.qscheme() is per_channel_affine:
        return (to_numpy_array(qweight.q_per_channel_scales()._data).astype(np.float32),
                to_numpy_array(qweight.q_per_channel_zero_points()._data).astype(np.float64))
    return (np.full(rows, qweight.q_scale(), np.float32), np.full(rows, float(qweight.q_zero_point())))


def _linear_dynamic(x: np.ndarray, qweight, bias) -> np.ndarray:
    """``quantized::linear_dynamic(x, packed, reduce_range=True)`` on FBGEMM, for a 2-d view of ``x``."""
    x2 = x.reshape(-1, x.shape[-1]).astype(np.float32)
    x_min = float(x2.min()) if x2.size else 0.0
    x_max = float(x2.max()) if x2.size else 0.0
    a_scale, a_zp = choose_qparams(x_min, x_max, quint8.qmin, quint8.qmax, True)
    qx = quantize_per_tensor(core.tensor(x2), a_scale, a_zp, quint8)
    # NOTE: the integer products in float64 BLAS: every partial sum is an integer below 2**53 (|a*w| <= 32640),
    # so the result is exact, as FBGEMM's int32 accumulation is, and a BERT-sized layer takes milliseconds
    a = np.asarray(qx._data).astype(np.float64)
    w = np.asarray(qweight._data).astype(np.float64)
    w_scale, w_zp = weight_scales(qweight)
    acc = a @ w.T - a_zp * w.sum(axis=1)[None, :] - w_zp[None, :] * a.sum(axis=1)[:, None]
    multiplier = (np.float32(a_scale) * w_scale).astype(np.float32)  # one per output channel when per channel
    # NOTE: one rounding for acc * multiplier + bias (FBGEMM's fused multiply-add): the float32 product is exact in
    # float64, so only the sum rounds, first to float64 and then to float32
    product = acc.astype(np.float32).astype(np.float64) * multiplier.astype(np.float64)[None, :]
    if bias is not None:
        product = product + to_numpy_array(bias.detach()._data).astype(np.float32).astype(np.float64)[None, :]
    return product.astype(np.float32)

