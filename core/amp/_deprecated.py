"""The deprecated per-device aliases ``torch.cpu.amp.*`` and ``torch.cuda.amp.*``, built once for both devices.

Each constructor warns a FutureWarning naming its ``torch.amp`` replacement, as PyTorch 2.x does, then behaves as
``torch.amp.autocast(device, ...)`` / ``torch.amp.GradScaler(device, ...)``.
"""

from __future__ import annotations

from core._user_warning import warn_user
from core.amp.autocast_mode import autocast as _autocast
from core.amp.grad_scaler import GradScaler as _GradScaler


def _warn(device: str, what: str, args: str) -> None:
    warn_user(f"`torch.{device}.amp.{what}({args}...)` is deprecated. "
              f"Please use `torch.amp.{what}('{device}', {args}...)` instead.", FutureWarning)


def autocast_alias(device: str, default_dtype):
    """``torch.<device>.amp.autocast(enabled=True, dtype=<device default>, cache_enabled=True)``."""

    class autocast(_autocast):
        __doc__ = f"Deprecated: ``torch.amp.autocast('{device}', ...)``."

        def __init__(self, enabled: bool = True, dtype=default_dtype, cache_enabled: bool = True):
            _warn(device, "autocast", "args")
            super().__init__(device, enabled=enabled, dtype=dtype, cache_enabled=cache_enabled)

    autocast.__module__, autocast.__qualname__ = f"core.{device}.amp", "autocast"
    return autocast


def grad_scaler_alias(device: str):
    """``torch.<device>.amp.GradScaler(init_scale=2.**16, ...)``."""

    class GradScaler(_GradScaler):
        __doc__ = f"Deprecated: ``torch.amp.GradScaler('{device}', ...)``."

        def __init__(self, init_scale: float = 2.0**16, growth_factor: float = 2.0, backoff_factor: float = 0.5,
                     growth_interval: int = 2000, enabled: bool = True) -> None:
            _warn(device, "GradScaler", "args")
            super().__init__(device, init_scale=init_scale, growth_factor=growth_factor,
                             backoff_factor=backoff_factor, growth_interval=growth_interval, enabled=enabled)

    GradScaler.__module__, GradScaler.__qualname__ = f"core.{device}.amp", "GradScaler"
    return GradScaler
