"""``torch.cpu.amp``: deprecated aliases of ``torch.amp.autocast('cpu')`` and ``torch.amp.GradScaler('cpu')``."""

from core.amp._deprecated import autocast_alias, grad_scaler_alias
from core.amp.autocast_mode import _DEFAULT_DTYPES

autocast = autocast_alias("cpu", _DEFAULT_DTYPES["cpu"])
GradScaler = grad_scaler_alias("cpu")

__all__ = ["autocast", "GradScaler"]
