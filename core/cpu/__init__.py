"""``torch.cpu``: the CPU device module (always available, one device) and its deprecated ``amp`` aliases."""

from core.cpu import amp  # noqa: F401

__all__ = ["is_available", "device_count", "current_device", "synchronize"]


def is_available() -> bool:
    return True


def device_count() -> int:
    return 1


def current_device() -> str:
    return "cpu"


def synchronize(device=None) -> None:
    """Nothing to wait for: CPU work is done when its call returns."""
