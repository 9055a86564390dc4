"""``torch.ao.nn.intrinsic.qat``: the fused conv+relu and linear+relu for quantization-aware training (a QAT
Conv2d/Linear followed by a ReLU in one module), converted to ``QuantizedConvReLU2d``/``QuantizedLinearReLU``."""

from __future__ import annotations

from core.ao.nn import qat
from core.nn import functional as F

__all__ = ["ConvReLU2d", "LinearReLU"]


class ConvReLU2d(qat.Conv2d):
    def forward(self, input):
        return F.relu(super().forward(input))


class LinearReLU(qat.Linear):
    def forward(self, input):
        return F.relu(super().forward(input))
