"""``torch.ao.nn.quantized.dynamic.modules``."""

from core.ao.nn.quantized.dynamic.modules.linear import Linear

__all__ = ["Linear"]
