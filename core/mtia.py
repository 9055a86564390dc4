"""``torch.mtia`` as PyTorch's CPU build answers it: no MTIA device (core has none).

``is_available()`` is False and ``device_count()`` 0, the seeding calls do nothing (``core._no_device``), and the
calls that need the backend raise PyTorch's RuntimeError.
"""

from __future__ import annotations

from core import _no_device

is_available, device_count, is_initialized = _no_device.is_available, _no_device.device_count, _no_device.is_initialized
manual_seed = manual_seed_all = _no_device.manual_seed
seed = seed_all = _no_device.seed
memory_allocated = _no_device.memory_allocated

__all__ = [*_no_device.__all__, "synchronize", "current_device", "set_device", "empty_cache"]


def _no_backend(call: str):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"Cannot execute {call}() without MTIA backend.")
    return refuse


synchronize = current_device = _no_backend("getCurrentDevice")
set_device = _no_backend("setCurrentDevice")
empty_cache = _no_backend("emptyCache")
