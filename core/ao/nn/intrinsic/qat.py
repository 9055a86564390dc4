"""``torch.ao.nn.intrinsic.qat`` (also ``torch.nn.intrinsic.qat``): the fused modules quantization-aware training
swaps in. ``ConvReLU2d``/``LinearReLU`` are a QAT Conv2d/Linear followed by a ReLU; ``ConvBn2d``/``ConvBnReLU2d``
keep the batch norm inside and train through torch's "approximate" fusion: the weight scaled by
``bn.weight / running_std`` is fake-quantized, the convolution's output scaled back and normalized by the batch norm
(batch statistics while training, running ones once frozen by ``freeze_bn_stats``), so training sees the folded
int8 weight that ``convert`` will use."""

from __future__ import annotations

import math

import core
from core.ao.nn import intrinsic, qat
from core.nn import functional as F
from core.nn import init
from core.nn.parameter import Parameter

__all__ = ["ConvBn2d", "ConvBnReLU2d", "ConvReLU2d", "LinearBn1d", "LinearReLU", "freeze_bn_stats",
           "update_bn_stats"]


class ConvReLU2d(qat.Conv2d):
    _FLOAT_MODULE = intrinsic.ConvReLU2d

    def forward(self, input):
        return F.relu(super().forward(input))


class LinearReLU(qat.Linear):
    _FLOAT_MODULE = intrinsic.LinearReLU

    def forward(self, input):
        return F.relu(super().forward(input))


class ConvBn2d(core.nn.Conv2d):
    """Conv2d + BatchNorm2d for QAT: ``self.weight``/``self.bias`` are the conv's, ``self.bn`` the batch norm's
    parameters and statistics (torch's layout and state dict keys)."""

    _FLOAT_MODULE = intrinsic.ConvBn2d
    _FLOAT_CONV_MODULE = core.nn.Conv2d
    _FLOAT_BN_MODULE = core.nn.BatchNorm2d
    _FLOAT_RELU_MODULE: type | None = None

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=None,
                 padding_mode="zeros", eps=1e-05, momentum=0.1, freeze_bn=False, qconfig=None):
        # torch's order of initialization (so the global generator advances as in torch): the conv's weight, the
        # bias, then the batch norm's weight uniform in [0, 1) and the bias as a conv bias
        super().__init__(in_channels, out_channels, kernel_size, stride=stride, padding=padding, dilation=dilation,
                         groups=groups, bias=False, padding_mode=padding_mode)
        _attach_batch_norm(self, qconfig, core.nn.BatchNorm2d(out_channels, eps, momentum, True, True), bias,
                           out_channels, freeze_bn)
        self._enable_slow_path_for_better_numerical_stability = False

    def reset_running_stats(self) -> None:
        self.bn.reset_running_stats()

    def reset_bn_parameters(self) -> None:
        self.bn.reset_running_stats()
        init.uniform_(self.bn.weight)
        init.zeros_(self.bn.bias)
        if self.bias is not None:  # (the conv's bias)
            fan_in, _ = init._calculate_fan_in_and_fan_out(self.weight)
            bound = 1 / math.sqrt(fan_in)
            init.uniform_(self.bias, -bound, bound)

    def update_bn_stats(self):
        """Let the batch norm train again: batch statistics, running ones updated."""
        self.freeze_bn = False
        self.bn.training = True
        return self

    def freeze_bn_stats(self):
        """Normalize with the running statistics from now on (``model.train()`` keeps it so)."""
        self.freeze_bn = True
        self.bn.training = False
        return self

    def _forward(self, input):
        """torch's ``_forward_approximate``: conv with the fake-quantized, bn-scaled weight, unscaled, then bn."""
        running_std = core.sqrt(self.bn.running_var + self.bn.eps)
        scale_factor = self.bn.weight / running_std
        weight_shape = [-1] + [1] * (self.weight.dim() - 1)
        bias_shape = [1, -1] + [1] * (self.weight.dim() - 2)
        scaled_weight = self.weight_fake_quant(self.weight * scale_factor.reshape(weight_shape))
        zero_bias = (core.zeros_like(self.bias, dtype=input.dtype) if self.bias is not None
                     else core.zeros(self.out_channels, dtype=input.dtype))
        conv = self._conv_forward(input, scaled_weight, zero_bias)
        conv_orig = conv / scale_factor.reshape(bias_shape)
        if self.bias is not None:
            conv_orig = conv_orig + self.bias.reshape(bias_shape)
        return self.bn(conv_orig)

    def forward(self, input):
        return self._forward(input)

    def train(self, mode: bool = True):
        """Sets the mode, leaving a frozen batch norm in eval mode."""
        self.training = mode
        if not self.freeze_bn:
            for module in self.children():
                module.train(mode)
        return self

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The QAT module of a float ``intrinsic.ConvBn2d`` (or ``ConvBnReLU2d``), sharing its parameters and
        statistics."""
        if type(mod) is not cls._FLOAT_MODULE:
            raise AssertionError(f"qat.{cls.__name__}.from_float only works for {cls._FLOAT_MODULE.__name__}")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if not mod.qconfig:
            raise AssertionError("Input float module must have a valid qconfig")
        conv, bn = mod[0], mod[1]
        qat_convbn = cls(conv.in_channels, conv.out_channels, conv.kernel_size, conv.stride, conv.padding,
                         conv.dilation, conv.groups, conv.bias is not None, conv.padding_mode, bn.eps, bn.momentum,
                         False, mod.qconfig)
        qat_convbn.weight = conv.weight
        qat_convbn.bias = conv.bias
        _take_batch_norm(qat_convbn.bn, bn)
        return qat_convbn

    def to_float(self):
        """The float conv (with the batch norm folded in by its running statistics), and ReLU if fused."""
        from core.nn.utils import fuse_conv_bn_weights

        conv = self._FLOAT_CONV_MODULE(self.in_channels, self.out_channels, self.kernel_size, self.stride,
                                       self.padding, self.dilation, self.groups, self.bias is not None,
                                       self.padding_mode)
        conv.weight = Parameter(self.weight.detach())
        if self.bias is not None:
            conv.bias = Parameter(self.bias.detach())
        conv.weight, conv.bias = fuse_conv_bn_weights(conv.weight, conv.bias, self.bn.running_mean,
                                                      self.bn.running_var, self.bn.eps, self.bn.weight,
                                                      self.bn.bias)
        if self._FLOAT_RELU_MODULE is not None:
            fused = intrinsic.ConvReLU2d(conv, self._FLOAT_RELU_MODULE())
            fused.train(self.training)
            return fused
        conv.train(self.training)
        return conv


class ConvBnReLU2d(ConvBn2d):
    """Conv2d + BatchNorm2d + ReLU for QAT (``ConvBn2d`` then a ReLU)."""

    _FLOAT_MODULE = intrinsic.ConvBnReLU2d
    _FLOAT_RELU_MODULE = core.nn.ReLU

    def forward(self, input):
        return F.relu(self._forward(input))


class LinearBn1d(core.nn.Linear):
    """Linear + BatchNorm1d for QAT, the same approximate fusion as ``ConvBn2d`` (torch's ``LinearBn1d``)."""

    _FLOAT_MODULE = intrinsic.LinearBn1d

    def __init__(self, in_features, out_features, bias=True, eps=1e-05, momentum=0.1, freeze_bn=False,
                 qconfig=None):
        super().__init__(in_features, out_features, bias)  # (torch's draws: the weight and bias, then bn.weight)
        _attach_batch_norm(self, qconfig, core.nn.BatchNorm1d(out_features, eps, momentum, True, True), bias,
                           out_features, freeze_bn)

    reset_running_stats = ConvBn2d.reset_running_stats

    def reset_bn_parameters(self) -> None:
        self.bn.reset_running_stats()
        init.uniform_(self.bn.weight)
        init.zeros_(self.bn.bias)

    update_bn_stats = ConvBn2d.update_bn_stats
    freeze_bn_stats = ConvBn2d.freeze_bn_stats
    train = ConvBn2d.train

    def forward(self, input):
        running_std = core.sqrt(self.bn.running_var + self.bn.eps)
        scale_factor = self.bn.weight / running_std
        scaled_weight = self.weight_fake_quant(self.weight * scale_factor.reshape(-1, 1))
        zero_bias = core.zeros_like(self.bias) if self.bias is not None else core.zeros(self.out_features)
        out = F.linear(input, scaled_weight, zero_bias) / scale_factor.reshape(1, -1)
        if self.bias is not None:
            out = out + self.bias.reshape(1, -1)
        return self.bn(out)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The QAT module of a float ``intrinsic.LinearBn1d``, sharing its parameters and statistics."""
        if type(mod) is not intrinsic.LinearBn1d:
            raise AssertionError(f"qat.{cls.__name__}.from_float only works for LinearBn1d")
        if not hasattr(mod, "qconfig"):
            raise AssertionError("Input float module must have qconfig defined")
        if not mod.qconfig:
            raise AssertionError("Input float module must have a valid config")
        linear, bn = mod[0], mod[1]
        qat = cls(linear.in_features, linear.out_features, linear.bias is not None, bn.eps, bn.momentum, False,
                  mod.qconfig)
        qat.weight = linear.weight
        qat.bias = linear.bias
        _take_batch_norm(qat.bn, bn)
        return qat


def _attach_batch_norm(module, qconfig, bn, bias: bool, size: int, freeze_bn: bool) -> None:
    """What torch's QAT conv/linear + bn modules set up after their float layer, in torch's order: the qconfig, the
    batch norm, the weight's fake quantizer, the bias (left uninitialised, as torch's), then the batch norm's
    parameters and its mode."""
    if not qconfig:
        raise AssertionError("qconfig must be provided for QAT module")
    module.qconfig = qconfig
    module.freeze_bn = freeze_bn if module.training else True
    module.bn = bn
    module.weight_fake_quant = qconfig.weight()
    if bias:
        module.bias = Parameter(core.empty(size))
    else:
        module.register_parameter("bias", None)
    module.reset_bn_parameters()
    if module.training and not freeze_bn:
        module.update_bn_stats()
    else:
        module.freeze_bn_stats()


def _take_batch_norm(qat_bn, bn) -> None:
    """The QAT module's batch norm shares the float one's parameters and running statistics (torch's from_float)."""
    qat_bn.weight = bn.weight
    qat_bn.bias = bn.bias
    qat_bn.running_mean = bn.running_mean
    qat_bn.running_var = bn.running_var
    qat_bn.num_batches_tracked = bn.num_batches_tracked


_CONV_BN = (ConvBn2d, ConvBnReLU2d)


def freeze_bn_stats(mod) -> None:
    """For ``model.apply``: a QAT conv+bn module stops updating its batch norm's statistics and uses them."""
    if type(mod) in _CONV_BN:
        mod.freeze_bn_stats()


def update_bn_stats(mod) -> None:
    """For ``model.apply``: a QAT conv+bn module's batch norm trains again."""
    if type(mod) in _CONV_BN:
        mod.update_bn_stats()
