"""``core.cuda``: is a GPU there, how many, and seeding it (all through CuPy, lazily)."""

from __future__ import annotations

from core import _backend, _random

__all__ = ["is_available", "device_count", "manual_seed", "manual_seed_all", "synchronize",
           "current_device", "is_bf16_supported", "empty_cache", "memory_allocated", "memory_reserved",
           "max_memory_allocated", "max_memory_reserved"]


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


def is_bf16_supported(including_emulation: bool = True) -> bool:
    """False: core has no bfloat16 tensors (``core.bfloat16`` is a name only)."""
    return False


def empty_cache() -> None:
    """Return CuPy's cached, unused GPU memory to the device (nothing to do without a GPU)."""
    cp = _backend.cupy_or_none()
    if cp is not None:
        cp.get_default_memory_pool().free_all_blocks()


def memory_allocated(device=None) -> int:
    """Bytes held by tensors on the GPU (CuPy's pool in use); 0 without a GPU, as PyTorch's CPU build says."""
    cp = _backend.cupy_or_none()
    return int(cp.get_default_memory_pool().used_bytes()) if cp is not None and is_available() else 0


def memory_reserved(device=None) -> int:
    """Bytes CuPy's pool holds from the device; 0 without a GPU."""
    cp = _backend.cupy_or_none()
    return int(cp.get_default_memory_pool().total_bytes()) if cp is not None and is_available() else 0


max_memory_allocated = memory_allocated  # NOTE: CuPy keeps no peak; the current figure is a lower bound
max_memory_reserved = memory_reserved


def __getattr__(name):
    """``core.cuda.amp`` (PyTorch's deprecated aliases) loads on first use."""
    if name == "amp":
        import importlib

        return importlib.import_module("core.cuda.amp")
    raise AttributeError(f"module 'core.cuda' has no attribute '{name}'")
