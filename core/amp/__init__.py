"""``core.amp``, as ``torch.amp``: the autocast region and the gradient scaler of mixed-precision training.

An enabled CPU autocast region casts per op as PyTorch's lists say (``autocast_mode``, ``_casting``): matmul, linear
and convolutions in bfloat16 (or float16), losses in float32; the scaler's numbers are PyTorch's (``grad_scaler``).
"""

from core.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from core.amp.grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
