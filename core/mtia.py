"""``torch.mtia`` as PyTorch's CPU build answers it: no MTIA device (core has none).

``is_available()`` is False and ``device_count()`` 0, the seeding calls do nothing, and the calls that need the
backend raise PyTorch's RuntimeError.
"""

from __future__ import annotations

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all", "seed", "seed_all",
           "memory_allocated", "synchronize", "current_device", "set_device", "empty_cache"]


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Nothing to seed without a device."""


manual_seed_all = manual_seed


def seed() -> None:
    """Nothing to seed without a device."""


seed_all = seed


def memory_allocated(device=None) -> int:
    return 0


def _no_backend(call: str):
    def refuse(*args, **kwargs):
        raise RuntimeError(f"Cannot execute {call}() without MTIA backend.")
    return refuse


synchronize = current_device = _no_backend("getCurrentDevice")
set_device = _no_backend("setCurrentDevice")
empty_cache = _no_backend("emptyCache")
