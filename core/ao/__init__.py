"""``torch.ao`` in core: quantization (``ao.quantization``: dynamic, eager-mode static and QAT) and the modules it
swaps in (``ao.nn.quantized``, ``ao.nn.quantized.dynamic``, ``ao.nn.qat``, ``ao.nn.intrinsic``)."""

from core.ao import nn, quantization

__all__ = ["nn", "quantization"]
