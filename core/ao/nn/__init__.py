"""``torch.ao.nn``: quantized modules (static and dynamic) and the fused float ones (``intrinsic``)."""

from core.ao.nn import intrinsic, qat, quantized

__all__ = ["intrinsic", "qat", "quantized"]
