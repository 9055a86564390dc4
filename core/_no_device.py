"""The answers of a PyTorch CPU build's device modules (``torch.xpu``, ``torch.mtia``) when no device exists:
nothing is available, the seeding calls do nothing (scripts seed every backend in their first lines), no memory
is in use. Each module adds the calls it refuses, with its own exception."""

from __future__ import annotations

__all__ = ["is_available", "device_count", "is_initialized", "manual_seed", "manual_seed_all", "seed", "seed_all",
           "memory_allocated"]


def is_available() -> bool:
    return False


def device_count() -> int:
    return 0


def is_initialized() -> bool:
    return False


def manual_seed(seed: int) -> None:
    """Nothing to seed without a device (no error, as PyTorch's lazy seeding)."""


manual_seed_all = manual_seed


def seed() -> None:
    """Nothing to seed without a device."""


seed_all = seed


def memory_allocated(device=None) -> int:
    return 0
