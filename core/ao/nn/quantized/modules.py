"""``torch.ao.nn.quantized``'s static modules: ``Quantize``/``DeQuantize`` and the int8 ``Conv2d`` and ``Linear``
(with their fused-ReLU twins ``ConvReLU2d``/``LinearReLU``), numerically FBGEMM's, bit for bit:

1. the accumulator is exact: ``sum((x_q - x_zp) * w_q)`` of the integers (float64 here, whose sums stay exact
   integers; int32 in FBGEMM), the weights symmetric (zero point 0) per tensor or per output channel;
2. FBGEMM's ``ReQuantizeOutput`` with a float bias, in float32: ``raw = float(acc) + bias / (x_scale * w_scale)``,
   then ``lrintf(raw * (x_scale * w_scale / out_scale)) + out_zp`` clamped to ``0..255`` (from ``out_zp`` with
   a fused ReLU).
"""

from __future__ import annotations

import numpy as np

import core
from core import _cpu
from core._backend import to_numpy_array
from core._quantized import (
    QuantizedTensor,
    _make,
    per_channel_affine,
    per_channel_symmetric,
    per_tensor_affine,
    qint8,
    quantize_per_channel,
    quantize_per_tensor,
    quint8,
)
from core._tensor import Tensor
from core.ao.nn.quantized._qparams import OutputQParams, PackedWeightBias
from core.ao.nn.quantized.dynamic.modules.linear import LinearPackedParams, weight_scales
from core.nn import Module
from core.nn import functional as F

__all__ = ["Conv2d", "ConvReLU2d", "DeQuantize", "Dropout", "Linear", "LinearReLU", "Quantize", "ReLU6"]


def _act_qparams(observer) -> tuple[float, int]:
    scale, zero_point = observer.calculate_qparams()
    return float(scale.reshape(-1)[0]), int(zero_point.reshape(-1)[0])


def _quantized_weight(weight, observer):
    """The float weight quantized as its observer says (``observer`` has seen it)."""
    scales, zero_points = observer.calculate_qparams()
    weight = weight.detach().float()
    if observer.qscheme in (per_channel_symmetric, per_channel_affine):
        return quantize_per_channel(weight, scales.double(), zero_points.long(), observer.ch_axis, qint8)
    return quantize_per_tensor(weight, float(scales.reshape(-1)[0]), int(zero_points.reshape(-1)[0]), qint8)


def _weight_observer(mod):
    """A QAT module's weight fake quantizer, else a new observer from the qconfig; either sees the weight."""
    observer = getattr(mod, "weight_fake_quant", None) or mod.qconfig.weight()
    observer(mod.weight)
    return observer


def _requantize(acc: np.ndarray, x_scale: float, w_scale: np.ndarray, bias, scale: float, zero_point: int,
                relu: bool, channel_axis: int) -> np.ndarray:
    """FBGEMM's ``ReQuantizeOutput`` (float bias) of int32 accumulators ``acc``, channels along ``channel_axis``."""
    shape = [1] * acc.ndim
    shape[channel_axis] = -1
    act_times_w = (np.float32(x_scale) * w_scale).astype(np.float32)
    multiplier = (act_times_w / np.float32(scale)).astype(np.float32).reshape(shape)
    raw = acc.astype(np.float32)
    if bias is not None:
        b = to_numpy_array(bias.detach()._data).astype(np.float32)
        raw = (raw + (b / act_times_w).astype(np.float32).reshape(shape)).astype(np.float32)
    rounded = np.rint((raw * multiplier).astype(np.float32)).astype(np.int64) + zero_point
    return np.clip(rounded, zero_point if relu else 0, 255).astype(np.uint8)


def _check_input(x, name: str) -> QuantizedTensor:
    if not isinstance(x, QuantizedTensor):
        raise NotImplementedError(f"Could not run '{name}' with arguments from the 'CPU' backend. This could be "
                                  "because the operator doesn't exist for this backend, or was omitted during the "
                                  "selective/custom build process (if using custom build).")
    return x


class Quantize(Module):
    """Quantizes its float input per tensor with fixed qparams (what a ``QuantStub`` becomes)."""

    def __init__(self, scale: float, zero_point: int, dtype, factory_kwargs=None):
        super().__init__()
        self.register_buffer("scale", core.tensor([scale]))
        self.register_buffer("zero_point", core.tensor([zero_point], dtype=core.long))
        self.dtype = dtype

    def forward(self, x):
        return quantize_per_tensor(x, float(self.scale), int(self.zero_point), self.dtype)

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant: bool = False):
        scale, zero_point = _act_qparams(mod.activation_post_process)
        return Quantize(scale, zero_point, mod.activation_post_process.dtype)

    def extra_repr(self) -> str:
        return f"scale={self.scale}, zero_point={self.zero_point}, dtype={self.dtype}"


class DeQuantize(Module):
    """Dequantizes its input (what a ``DeQuantStub`` becomes)."""

    def forward(self, x):
        return x.dequantize()

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant: bool = False):
        return DeQuantize()


class ReLU6(Module):
    """``min(max(x, 0), 6)`` of a quantized tensor, on its integers."""

    def __init__(self, inplace: bool = False):
        super().__init__()
        self.inplace = inplace

    def _get_name(self) -> str:
        return "QuantizedReLU6"

    def forward(self, x):
        x = _check_input(x, "quantized::relu6")
        six = int(np.rint(6.0 / x.q_scale())) + x.q_zero_point()
        ints = np.clip(np.asarray(x._data).astype(np.int64), x.q_zero_point(), min(six, x.dtype.qmax))
        return _make(ints.astype(x.dtype.np), x.dtype, per_tensor_affine, x.q_scale(), x.q_zero_point())

    @staticmethod
    def from_float(mod, use_precomputed_fake_quant: bool = False):
        return ReLU6(mod.inplace)


class Dropout(core.nn.Dropout):
    """``QuantizedDropout``: the identity on quantized tensors (a converted model runs in eval mode)."""

    def _get_name(self) -> str:
        return "QuantizedDropout"

    def forward(self, input):
        return input

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        return cls(mod.p, mod.inplace)


class Conv2d(Module):
    """``QuantizedConv2d``: int8 weights, quint8 input and output (see the module docstring)."""

    _FLOAT_MODULE = core.nn.Conv2d
    _relu = False

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", device=None, dtype=None):
        super().__init__()
        pair = core.nn.modules.utils._pair
        self.in_channels, self.out_channels, self.groups = in_channels, out_channels, groups
        self.kernel_size, self.stride = pair(kernel_size), pair(stride)
        self.padding, self.dilation = pair(padding), pair(dilation)
        self.transposed, self.output_padding, self.padding_mode = False, pair(0), padding_mode
        qweight = quantize_per_tensor(core.zeros(out_channels, in_channels // groups, *self.kernel_size), 1.0, 0,
                                      qint8)
        self.set_weight_bias(qweight, core.zeros(out_channels) if bias else None)
        self.scale, self.zero_point = 1.0, 0

    def _get_name(self) -> str:
        return "QuantizedConvReLU2d" if self._relu else "QuantizedConv2d"

    def set_weight_bias(self, w, b) -> None:
        self.__dict__["_weight"], self.__dict__["_bias"] = w, b  # (packed, not parameters nor buffers)

    def _weight_bias(self):
        return self._weight, self._bias

    def weight(self):
        return self._weight

    def bias(self):
        return self._bias

    def extra_repr(self) -> str:
        s = (f"{self.in_channels}, {self.out_channels}, kernel_size={self.kernel_size}, stride={self.stride}, "
             f"scale={self.scale}, zero_point={self.zero_point}")
        if self.padding != (0, 0):
            s += f", padding={self.padding}"
        if self.dilation != (1, 1):
            s += f", dilation={self.dilation}"
        if self.groups != 1:
            s += f", groups={self.groups}"
        if self._bias is None:
            s += ", bias=False"
        return s

    def _save_to_state_dict(self, destination, prefix, keep_vars):
        super()._save_to_state_dict(destination, prefix, keep_vars)
        destination[prefix + "weight"] = self._weight
        destination[prefix + "bias"] = self._bias
        destination[prefix + "scale"] = core.tensor(self.scale)
        destination[prefix + "zero_point"] = core.tensor(self.zero_point)

    def _load_from_state_dict(self, state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                              error_msgs):
        self.set_weight_bias(state_dict.pop(prefix + "weight"), state_dict.pop(prefix + "bias"))
        self.scale = float(state_dict.pop(prefix + "scale"))
        self.zero_point = int(state_dict.pop(prefix + "zero_point"))
        super()._load_from_state_dict(state_dict, prefix, local_metadata, strict, missing_keys, unexpected_keys,
                                      error_msgs)

    def forward(self, x):
        x = _check_input(x, "quantized::conv2d.new")
        if self.padding_mode != "zeros":
            raise NotImplementedError("core's quantized Conv2d pads with zeros only")
        a = Tensor._wrap(np.asarray(x._data).astype(np.float64) - x.q_zero_point())
        w = Tensor._wrap(np.asarray(self._weight._data).astype(np.float64))
        if _VNNI:
            acc = to_numpy_array(F.conv2d(a, w, None, self.stride, self.padding, self.dilation, self.groups)._data)
        else:
            acc = _conv_saturating_acc(np.asarray(x._data), np.asarray(self._weight._data), x.q_zero_point(),
                                       self.stride, self.padding, self.dilation, self.groups)
        w_scale, _ = weight_scales(self._weight)
        out = _requantize(acc, x.q_scale(), w_scale, self._bias, self.scale, self.zero_point, self._relu, 1)
        return _make(out, quint8, per_tensor_affine, self.scale, self.zero_point)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The quantized twin of a float (or fused ConvReLU2d) module that ``prepare`` observed; a QAT conv+bn
        module first folds its batch norm's running statistics into its weight and bias, as torch's."""
        activation = mod.activation_post_process
        conv = mod[0] if isinstance(mod, core.nn.Sequential) else mod
        if hasattr(mod, "bn") and hasattr(mod, "weight_fake_quant"):
            from core.nn.utils import fuse_conv_bn_weights

            mod.weight, mod.bias = fuse_conv_bn_weights(mod.weight, mod.bias, mod.bn.running_mean,
                                                        mod.bn.running_var, mod.bn.eps, mod.bn.weight, mod.bn.bias)
        if conv is not mod:
            conv.qconfig = mod.qconfig
        qconv = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding,
                    conv.dilation, conv.groups, conv.bias is not None, conv.padding_mode)
        qconv.set_weight_bias(_quantized_weight(conv.weight, _weight_observer(conv)), conv.bias)  # (as Linear's)
        qconv.scale, qconv.zero_point = _act_qparams(activation)
        return qconv


class ConvReLU2d(Conv2d):
    """``QuantizedConvReLU2d``: the conv with its ReLU fused into the requantization's clamp."""

    _relu = True


class Linear(OutputQParams, PackedWeightBias, Module):
    """``QuantizedLinear``: int8 weight, quint8 input and output (see the module docstring)."""

    _version = 3
    _relu = False

    def __init__(self, in_features: int, out_features: int, bias_: bool = True, dtype=qint8):
        super().__init__()
        self.in_features, self.out_features = in_features, out_features
        qweight = quantize_per_tensor(core.zeros(out_features, in_features), 1.0, 0, qint8)
        self._packed_params = LinearPackedParams(dtype)
        self._packed_params.set_weight_bias(qweight, core.zeros(out_features) if bias_ else None)
        self.scale, self.zero_point = 1.0, 0

    def _get_name(self) -> str:
        return "QuantizedLinearReLU" if self._relu else "QuantizedLinear"

    def extra_repr(self) -> str:
        return (f"in_features={self.in_features}, out_features={self.out_features}, scale={self.scale}, "
                f"zero_point={self.zero_point}, qscheme={self.weight().qscheme()}")

    def __repr__(self) -> str:  # (the packed parameters are not shown, as torch hides them)
        return f"{self._get_name()}({self.extra_repr()})"

    def forward(self, x):
        x = _check_input(x, "quantized::linear")
        a = np.asarray(x._data).astype(np.float64).reshape(-1, self.in_features) - x.q_zero_point()
        w = np.asarray(self.weight()._data).astype(np.float64)
        w_scale, _ = weight_scales(self.weight())
        acc = a @ w.T if _VNNI else _saturating_acc(np.asarray(x._data).reshape(-1, self.in_features),
                                                    np.asarray(self.weight()._data), x.q_zero_point())
        out = _requantize(acc, x.q_scale(), w_scale, self.bias(), self.scale, self.zero_point, self._relu, 1)
        return _make(out.reshape(*x.shape[:-1], self.out_features), quint8, per_tensor_affine, self.scale,
                     self.zero_point)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The quantized twin of a float (or fused LinearReLU) module that ``prepare`` observed."""
        activation = mod.activation_post_process
        linear = mod[0] if isinstance(mod, core.nn.Sequential) else mod
        if hasattr(mod, "bn") and hasattr(mod, "weight_fake_quant"):  # a QAT LinearBn1d: its bn folded first
            from core.nn.utils import fuse_linear_bn_weights

            mod.weight, mod.bias = fuse_linear_bn_weights(mod.weight, mod.bias, mod.bn.running_mean,
                                                          mod.bn.running_var, mod.bn.eps, mod.bn.weight, mod.bn.bias)
        if linear is not mod:
            linear.qconfig = mod.qconfig
        qlinear = cls(linear.in_features, linear.out_features, linear.bias is not None)
        # NOTE: the float module's bias Parameter itself, as torch's from_float passes it (bias() and a saved
        # state_dict then hold a Parameter that requires grad, as torch's do)
        qlinear.set_weight_bias(_quantized_weight(linear.weight, _weight_observer(linear)), linear.bias)
        qlinear.scale, qlinear.zero_point = _act_qparams(activation)
        return qlinear


class LinearReLU(Linear):
    """``QuantizedLinearReLU``: the linear layer with its ReLU fused into the requantization's clamp."""

    _relu = True


_VNNI = "avx512_vnni" in _cpu.FLAGS or "avx_vnni" in _cpu.FLAGS


def _saturating_acc(xq: np.ndarray, wq: np.ndarray, x_zp: int) -> np.ndarray:
    """FBGEMM's int8 accumulators without VNNI (``vpmaddubsw``): each pair of adjacent products of the uint8 input and
    the int8 weight summed and saturated to int16, then the pairs summed, less ``x_zp`` times the weight's row sums."""
    m, k = xq.shape
    x, w = xq.astype(np.int64), wq.astype(np.int64)
    if k % 2:
        x, w = np.pad(x, ((0, 0), (0, 1))), np.pad(w, ((0, 0), (0, 1)))
    acc = np.empty((m, w.shape[0]), np.float64)
    step = max(1, 4_000_000 // (w.size or 1))  # rows at a time: each takes (out, k) int64 products
    for r in range(0, m, step):
        prod = x[r:r + step, None, :] * w[None, :, :]
        pairs = np.clip(prod.reshape(prod.shape[0], w.shape[0], -1, 2).sum(-1), -32768, 32767)
        acc[r:r + step] = pairs.sum(-1)
    return acc - x_zp * w.sum(1)


def _pair(v) -> tuple:
    return (v, v) if isinstance(v, int) else tuple(v)


def _conv_saturating_acc(xq, wq, x_zp: int, stride, padding, dilation, groups: int) -> np.ndarray:
    """``_saturating_acc`` of a convolution as FBGEMM's im2col reads it (NHWC: each output's row of kernel height,
    width, then input channels), the padding filled with ``x_zp``; (N, C_out, H_out, W_out) float64."""
    (sh, sw), (ph, pw), (dh, dw) = _pair(stride), _pair(padding), _pair(dilation)
    n, c, _, _ = xq.shape
    o, cg, kh, kw = wq.shape
    x = np.pad(xq.astype(np.int64), ((0, 0), (0, 0), (ph, ph), (pw, pw)), constant_values=x_zp)
    ho, wo = (x.shape[2] - dh * (kh - 1) - 1) // sh + 1, (x.shape[3] - dw * (kw - 1) - 1) // sw + 1
    cols = np.empty((n, ho, wo, kh, kw, c), np.int64)
    for i in range(kh):
        for j in range(kw):
            patch = x[:, :, i * dh:i * dh + sh * (ho - 1) + 1:sh, j * dw:j * dw + sw * (wo - 1) + 1:sw]
            cols[:, :, :, i, j, :] = patch.transpose(0, 2, 3, 1)
    og, out = o // groups, np.empty((n, o, ho, wo), np.float64)
    for g in range(groups):
        col = cols[..., g * cg:(g + 1) * cg].reshape(n * ho * wo, kh * kw * cg)
        w = wq[g * og:(g + 1) * og].astype(np.int64).transpose(0, 2, 3, 1).reshape(og, kh * kw * cg)
        out[:, g * og:(g + 1) * og] = _saturating_acc(col, w, x_zp).reshape(n, ho, wo, og).transpose(0, 3, 1, 2)
    return out
