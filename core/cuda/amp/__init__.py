"""``torch.cuda.amp``: deprecated aliases of ``torch.amp.autocast('cuda')`` and ``torch.amp.GradScaler('cuda')``.

Without a GPU both warn and disable themselves after the deprecation warning, as PyTorch's do.
"""

from core.amp._deprecated import autocast_alias, grad_scaler_alias
from core.amp.autocast_mode import _DEFAULT_DTYPES

autocast = autocast_alias("cuda", _DEFAULT_DTYPES["cuda"])
GradScaler = grad_scaler_alias("cuda")

__all__ = ["autocast", "GradScaler"]
