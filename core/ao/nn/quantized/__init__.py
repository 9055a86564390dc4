"""``torch.ao.nn.quantized``: the static modules (``Quantize``, ``DeQuantize``, ``Conv2d``, ``Linear``, ``ReLU6``)
and the ``dynamic`` ones; ``intrinsic`` holds the fused ``ConvReLU2d``/``LinearReLU``."""

from core.ao.nn.quantized import dynamic
from core.ao.nn.quantized.functional_modules import FloatFunctional, QFunctional
from core.ao.nn.quantized.modules import (
    Conv2d,
    ConvReLU2d,
    DeQuantize,
    Dropout,
    Linear,
    LinearReLU,
    Quantize,
    ReLU6,
)

__all__ = ["Conv2d", "ConvReLU2d", "DeQuantize", "Dropout", "FloatFunctional", "Linear", "LinearReLU", "QFunctional",
           "Quantize", "ReLU6", "dynamic"]
