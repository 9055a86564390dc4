"""3-D layers: ``Conv3d``, ``ConvTranspose3d``, ``MaxPool3d``, ``AvgPool3d``, ``AdaptiveAvgPool3d``,
``BatchNorm3d``, ``InstanceNorm3d`` and ``Dropout3d``, sharing their 1-d/2-d siblings' bases (and reprs)."""

from __future__ import annotations

from core.nn import functional as F
from core.nn.modules.activation_more import _InstanceNorm
from core.nn.modules.conv import _ConvNd, _ConvTransposeNd, _transposed_init, _tuples
from core.nn.modules.dropout import _DropoutNd
from core.nn.modules.normalization import _BatchNorm
from core.nn.modules.pooling import AvgPool2d, _AdaptiveNd, _MaxPoolNd

__all__ = ["Conv3d", "ConvTranspose3d", "MaxPool3d", "AvgPool3d", "AdaptiveAvgPool3d", "BatchNorm3d",
           "InstanceNorm3d", "Dropout3d"]


class Conv3d(_ConvNd):
    def __init__(self, in_channels, out_channels, kernel_size, stride=1, padding=0, dilation=1, groups=1, bias=True,
                 padding_mode="zeros", device=None, dtype=None):
        kernel_size, stride, padding, dilation, output_padding = _tuples(3, kernel_size, stride, padding, dilation)
        super().__init__(in_channels, out_channels, kernel_size, stride, padding, dilation, False, output_padding,
                         groups, bias, padding_mode, device, dtype)

    def _conv_forward(self, input, weight, bias):
        if self.padding_mode != "zeros":
            padded = F.pad(input, self._reversed_padding_repeated_twice, mode=self.padding_mode)
            return F.conv3d(padded, weight, bias, self.stride, 0, self.dilation, self.groups)
        return F.conv3d(input, weight, bias, self.stride, self.padding, self.dilation, self.groups)


class ConvTranspose3d(_ConvTransposeNd):
    __init__ = _transposed_init(3)

    def forward(self, input, output_size=None):
        return F.conv_transpose3d(input, self.weight, self.bias, self.stride, self.padding,
                                  self._output_padding(input, output_size), self.groups, self.dilation)


class MaxPool3d(_MaxPoolNd):
    _fn = staticmethod(F.max_pool3d)


class AvgPool3d(AvgPool2d):
    def forward(self, input):
        return F.avg_pool3d(input, self.kernel_size, self.stride, self.padding, self.ceil_mode,
                            self.count_include_pad, self.divisor_override)


class AdaptiveAvgPool3d(_AdaptiveNd):
    __constants__ = ["output_size"]

    _fn = staticmethod(F.adaptive_avg_pool3d)


class BatchNorm3d(_BatchNorm):
    def _check_input_dim(self, input) -> None:
        if input.dim() != 5:
            raise ValueError(f"expected 5D input (got {input.dim()}D input)")


class InstanceNorm3d(_InstanceNorm):
    _dims = 5


class Dropout3d(_DropoutNd):
    _fn = staticmethod(F.dropout3d)
