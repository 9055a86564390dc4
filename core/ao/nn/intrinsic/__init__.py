"""``torch.ao.nn.intrinsic`` (also ``torch.nn.intrinsic``): the float modules ``fuse_modules`` makes, Sequentials
that ``convert`` turns into one quantized module (``ConvReLU2d`` -> ``QuantizedConvReLU2d``...)."""

from __future__ import annotations

import core
from core.nn import Sequential

__all__ = ["BNReLU2d", "ConvBn2d", "ConvBnReLU2d", "ConvReLU2d", "LinearBn1d", "LinearReLU"]


class _FusedModule(Sequential):
    """A fused pattern, kept as its float modules until ``convert``."""


class ConvBn2d(_FusedModule):
    """Conv2d then BatchNorm2d, as ``fuse_modules_qat`` keeps them for ``prepare_qat``'s QAT ``ConvBn2d``."""

    def __init__(self, conv, bn):
        if type(conv) is not core.nn.Conv2d or type(bn) is not core.nn.BatchNorm2d:
            raise AssertionError(f"Incorrect types for input modules: {type(conv).__name__} and {type(bn).__name__}")
        super().__init__(conv, bn)


class ConvBnReLU2d(_FusedModule):
    """Conv2d, BatchNorm2d and ReLU, as ``fuse_modules_qat`` keeps them for the QAT ``ConvBnReLU2d``."""

    def __init__(self, conv, bn, relu):
        if type(conv) is not core.nn.Conv2d or type(bn) is not core.nn.BatchNorm2d or type(relu) is not core.nn.ReLU:
            raise AssertionError(f"Incorrect types for input modules: {type(conv).__name__}, {type(bn).__name__}, and "
                                 f"{type(relu).__name__}")
        super().__init__(conv, bn, relu)


class LinearBn1d(_FusedModule):
    """Linear then BatchNorm1d, as ``fuse_modules_qat`` keeps them for the QAT ``LinearBn1d``."""

    def __init__(self, linear, bn):
        if type(linear) is not core.nn.Linear or type(bn) is not core.nn.BatchNorm1d:
            raise AssertionError(f"Incorrect types for input modules: {type(linear).__name__} and "
                                 f"{type(bn).__name__}")
        super().__init__(linear, bn)


class ConvReLU2d(_FusedModule):
    def __init__(self, conv, relu):
        super().__init__(conv, relu)


class LinearReLU(_FusedModule):
    def __init__(self, linear, relu):
        super().__init__(linear, relu)


class BNReLU2d(_FusedModule):
    def __init__(self, batch_norm, relu):
        super().__init__(batch_norm, relu)


def __getattr__(name: str):
    """``intrinsic.qat`` on first use, as torch's package has it imported (importing it here would be circular)."""
    if name == "qat":
        import importlib

        return importlib.import_module("core.ao.nn.intrinsic.qat")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
