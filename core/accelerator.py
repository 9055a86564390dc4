"""``core.accelerator``: the device-agnostic questions PyTorch 2.6+ scripts ask first.

``current_accelerator()`` is ``device('cuda')`` when CuPy sees a GPU and None otherwise, as on a
CPU-only PyTorch; ``is_available()`` and ``device_count()`` follow it.
"""

import warnings as _warnings

from core import _backend
from core import cuda as _cuda
from core._device import device as _device

__all__ = ["is_available", "current_accelerator", "device_count", "current_device_index", "current_device_idx",
           "set_device_index", "set_device_idx", "device_index", "synchronize", "empty_cache", "memory_allocated",
           "max_memory_allocated", "memory_reserved", "max_memory_reserved", "memory_stats", "reset_peak_memory_stats",
           "reset_accumulated_memory_stats", "current_stream", "get_device_capability", "get_memory_info",
           "empty_host_cache"]

_NONE = "Cannot access accelerator device when none is available."


def is_available() -> bool:
    return _backend.cuda_available()


def current_accelerator(check_available: bool = False):
    return _device("cuda") if _backend.cuda_available() else None


def device_count() -> int:
    return _backend.cuda_device_count() if _backend.cuda_available() else 0


def _require() -> None:
    if not _backend.cuda_available():
        raise RuntimeError(_NONE)


def current_device_index() -> int:
    _require()
    return _cuda.current_device()


def current_device_idx() -> int:
    _warnings.warn("Use `current_device_index` instead.", FutureWarning, stacklevel=2)
    return current_device_index()


def set_device_index(device, /) -> None:
    _require()
    _cuda.set_device(device)


def set_device_idx(device, /) -> None:
    _warnings.warn("Use `set_device_index` instead.", FutureWarning, stacklevel=2)
    set_device_index(device)


class device_index:
    """``with device_index(i):`` makes ``i`` the current accelerator's device for the block (None: no change)."""

    def __init__(self, device, /) -> None:
        self.idx, self.prev_idx = device, -1

    def __enter__(self) -> None:
        if self.idx is not None:
            self.prev_idx = current_device_index()
            set_device_index(self.idx)

    def __exit__(self, *exc_info) -> None:
        if self.idx is not None:
            set_device_index(self.prev_idx)


def synchronize(device=None) -> None:
    _require()
    _cuda.synchronize(device)


def _cuda_call(name: str):
    """``core.accelerator.<name>``: ``core.cuda.<name>`` with a GPU, PyTorch's RuntimeError without one."""
    def call(*args, **kwargs):
        _require()
        return getattr(_cuda, name, lambda *a, **k: None)(*args, **kwargs)  # (a statistic core.cuda keeps none of)
    call.__name__ = call.__qualname__ = name
    return call


empty_cache, memory_allocated, max_memory_allocated, memory_reserved, max_memory_reserved, memory_stats, \
    reset_peak_memory_stats, reset_accumulated_memory_stats, current_stream, get_device_capability = (
        _cuda_call(n) for n in ("empty_cache", "memory_allocated", "max_memory_allocated", "memory_reserved",
                                "max_memory_reserved", "memory_stats", "reset_peak_memory_stats",
                                "reset_accumulated_memory_stats", "current_stream", "get_device_capability"))
get_memory_info = _cuda_call("mem_get_info")


def empty_host_cache() -> None:
    _require()
