"""``torch.cuda.amp``: deprecated aliases of ``torch.amp.autocast('cuda')``, ``torch.amp.GradScaler('cuda')`` and
``torch.amp.custom_fwd``/``custom_bwd`` with ``device_type='cuda'`` (custom Functions in older libraries use these).

Without a GPU both warn and disable themselves after the deprecation warning, as PyTorch's do.
"""

import warnings

from core.amp import autocast_mode as _autocast_mode
from core.amp._deprecated import autocast_alias, grad_scaler_alias
from core.amp.autocast_mode import _DEFAULT_DTYPES

autocast = autocast_alias("cuda", _DEFAULT_DTYPES["cuda"])
GradScaler = grad_scaler_alias("cuda")


def custom_fwd(fwd=None, *, cast_inputs=None):
    """``torch.cuda.amp.custom_fwd(args...)`` is deprecated. Please use
    ``torch.amp.custom_fwd(args..., device_type='cuda')`` instead."""
    warnings.warn("`torch.cuda.amp.custom_fwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_fwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return _autocast_mode.custom_fwd(fwd=fwd, device_type="cuda", cast_inputs=cast_inputs)


def custom_bwd(bwd):
    """``torch.cuda.amp.custom_bwd(args...)`` is deprecated. Please use
    ``torch.amp.custom_bwd(args..., device_type='cuda')`` instead."""
    warnings.warn("`torch.cuda.amp.custom_bwd(args...)` is deprecated. Please use "
                  "`torch.amp.custom_bwd(args..., device_type='cuda')` instead.", FutureWarning, stacklevel=2)
    return _autocast_mode.custom_bwd(bwd, device_type="cuda")


def amp_definitely_not_available() -> bool:
    """True without CUDA (and without torch_xla), as PyTorch's."""
    import importlib.util

    from core import cuda

    return not (cuda.is_available() or importlib.util.find_spec("torch_xla"))


__all__ = ["amp_definitely_not_available", "autocast", "custom_bwd", "custom_fwd", "GradScaler"]
