"""``torch.ao.nn.qat``: the float ``Conv2d`` and ``Linear`` that ``prepare_qat`` swaps in, whose weight goes
through a fake quantizer (``weight_fake_quant``) on every call, so training sees int8 weights' rounding."""

from __future__ import annotations

import core
from core.nn import functional as F

__all__ = ["Conv2d", "Linear"]


class Conv2d(core.nn.Conv2d):
    """A Conv2d whose weight is fake-quantized by ``qconfig.weight()``."""

    _FLOAT_MODULE = core.nn.Conv2d

    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1,
                 bias=True, padding_mode="zeros", qconfig=None, device=None, dtype=None):
        super().__init__(in_channels, out_channels, kernel_size, stride=stride, padding=padding,
                         dilation=dilation, groups=groups, bias=bias, padding_mode=padding_mode)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.weight_fake_quant = qconfig.weight()

    def forward(self, input):
        return self._conv_forward(input, self.weight_fake_quant(self.weight), self.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The QAT twin of a float Conv2d (or of a fused ConvReLU2d's conv), sharing its parameters."""
        qconfig = mod.qconfig
        conv = mod[0] if isinstance(mod, core.nn.Sequential) else mod
        qat = cls(conv.in_channels, conv.out_channels, conv.kernel_size, stride=conv.stride, padding=conv.padding,
                  dilation=conv.dilation, groups=conv.groups, bias=conv.bias is not None,
                  padding_mode=conv.padding_mode, qconfig=qconfig)
        qat.weight = conv.weight
        qat.bias = conv.bias
        return qat


class Linear(core.nn.Linear):
    """A Linear layer whose weight is fake-quantized by ``qconfig.weight()``."""

    _FLOAT_MODULE = core.nn.Linear

    def __init__(self, in_features, out_features, bias=True, qconfig=None, device=None, dtype=None):
        super().__init__(in_features, out_features, bias)
        if not qconfig:
            raise AssertionError("qconfig must be provided for QAT module")
        self.qconfig = qconfig
        self.weight_fake_quant = qconfig.weight()

    def forward(self, input):
        return F.linear(input, self.weight_fake_quant(self.weight), self.bias)

    @classmethod
    def from_float(cls, mod, use_precomputed_fake_quant: bool = False):
        """The QAT twin of a float Linear (or of a fused LinearReLU's linear), sharing its parameters."""
        qconfig = mod.qconfig
        linear = mod[0] if isinstance(mod, core.nn.Sequential) else mod
        qat = cls(linear.in_features, linear.out_features, bias=linear.bias is not None, qconfig=qconfig)
        qat.weight = linear.weight
        qat.bias = linear.bias
        return qat
