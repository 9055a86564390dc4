"""``torch.ao`` in core: dynamic quantization (``ao.quantization.quantize_dynamic``) and the module it swaps in
(``ao.nn.quantized.dynamic.Linear``)."""

from core.ao import nn, quantization

__all__ = ["nn", "quantization"]
