"""``core.accelerator``: the device-agnostic questions PyTorch 2.6+ scripts ask first.

``current_accelerator()`` is ``device('cuda')`` when CuPy sees a GPU and None otherwise, as on a
CPU-only PyTorch; ``is_available()`` and ``device_count()`` follow it.
"""

from __future__ import annotations

from core import _backend, cuda
from core._device import device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "synchronize"]


def is_available() -> bool:
    return _backend.cuda_available()


def current_accelerator(check_available: bool = False):
    return device("cuda") if _backend.cuda_available() else None


def device_count() -> int:
    return _backend.cuda_device_count() if _backend.cuda_available() else 0


def current_device_index() -> int:
    if not _backend.cuda_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    return cuda.current_device()


def synchronize(device=None) -> None:
    if not _backend.cuda_available():
        raise RuntimeError("Cannot access accelerator device when none is available.")
    cuda.synchronize(device)
