"""``core.cuda``: is a GPU there, how many, and seeding it (all through CuPy, lazily)."""

from __future__ import annotations

from core import _backend, _random

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "synchronize",
           "current_device"]


def is_available() -> bool:
    """True when CuPy imports and sees at least one GPU; never raises."""
    return _backend.cuda_available()


def device_count() -> int:
    return _backend.cuda_device_count()


def current_device() -> int:
    _backend.xp_for(_backend.canonical("cuda"))
    return int(_backend.cupy_or_none().cuda.runtime.getDevice())


def manual_seed(seed: int) -> None:
    _random.manual_seed(seed)


manual_seed_all = manual_seed


def synchronize(device=None) -> None:
    cp = _backend.cupy_or_none()
    if cp is not None:
        cp.cuda.Stream.null.synchronize()


def __getattr__(name):
    """``core.cuda.amp`` (PyTorch's deprecated aliases) loads on first use."""
    if name == "amp":
        import importlib

        return importlib.import_module("core.cuda.amp")
    raise AttributeError(f"module 'core.cuda' has no attribute '{name}'")
