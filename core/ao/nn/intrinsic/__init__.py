"""``torch.ao.nn.intrinsic`` (also ``torch.nn.intrinsic``): the float modules ``fuse_modules`` makes, Sequentials
that ``convert`` turns into one quantized module (``ConvReLU2d`` -> ``QuantizedConvReLU2d``...)."""

from __future__ import annotations

from core.nn import Sequential

__all__ = ["BNReLU2d", "ConvReLU2d", "LinearReLU"]


class _FusedModule(Sequential):
    """A fused pattern, kept as its float modules until ``convert``."""


class ConvReLU2d(_FusedModule):
    def __init__(self, conv, relu):
        super().__init__(conv, relu)


class LinearReLU(_FusedModule):
    def __init__(self, linear, relu):
        super().__init__(linear, relu)


class BNReLU2d(_FusedModule):
    def __init__(self, batch_norm, relu):
        super().__init__(batch_norm, relu)
