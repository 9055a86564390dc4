"""``torch.ao.nn``: quantized modules (only ``quantized.dynamic.Linear`` so far)."""

from core.ao.nn import quantized

__all__ = ["quantized"]
