"""``torch.ao.nn.quantized``: only the ``dynamic`` modules so far (static quantized modules are not here)."""

from core.ao.nn.quantized import dynamic

__all__ = ["dynamic"]
