"""``core.amp``, as ``torch.amp``: the autocast region and the gradient scaler of mixed-precision training.

core computes in the dtypes it is given: autocast keeps full precision and says so (``autocast_mode``), while the
scaler's numbers are PyTorch's (``grad_scaler``).
"""

from core.amp.autocast_mode import autocast, custom_bwd, custom_fwd, is_autocast_available
from core.amp.grad_scaler import GradScaler

__all__ = ["autocast", "custom_bwd", "custom_fwd", "is_autocast_available", "GradScaler"]
