"""``torch.cuda``'s device queries and events, through CuPy: ``get_device_name``, ``get_device_capability``,
``get_device_properties``, ``set_device``, ``mem_get_info`` and ``Event`` (CUDA-event timing).

Without a GPU each fails as PyTorch's CPU build does: the queries with ``AssertionError: Torch not compiled
with CUDA enabled``, ``set_device`` with its missing ``_C`` hook, ``Event()`` with its dummy-class error.
"""

from __future__ import annotations

import types

from core import _backend
from core._device import canonical
from core._device import device as _device
from core.cuda.streams import Event

__all__ = ["get_device_name", "get_device_capability", "get_device_properties", "set_device", "mem_get_info",
           "Event", "device", "device_of"]


def _index(device) -> int:
    cp = _backend._require_cupy()  # PyTorch's AssertionError without a GPU
    if device is None:
        return int(cp.cuda.runtime.getDevice())
    if isinstance(device, int):
        return device
    dev = canonical(device)
    return int(dev.index or 0)


def _properties(index: int) -> dict:
    return _backend.cupy_or_none().cuda.runtime.getDeviceProperties(index)


def get_device_name(device=None) -> str:
    name = _properties(_index(device))["name"]
    return name.decode() if isinstance(name, bytes) else str(name)


def get_device_capability(device=None) -> tuple:
    props = _properties(_index(device))
    return int(props["major"]), int(props["minor"])


def get_device_properties(device=None):
    """The device's name, compute capability, memory (bytes) and multiprocessor count."""
    index = _index(device)
    props = _properties(index)
    return types.SimpleNamespace(name=get_device_name(index), major=int(props["major"]), minor=int(props["minor"]),
                                 total_memory=int(props["totalGlobalMem"]),
                                 multi_processor_count=int(props["multiProcessorCount"]))


def set_device(device) -> None:
    """Make ``device`` the current GPU. Without one: PyTorch's CPU build lacks the hook and says so."""
    if not _backend.cuda_available():
        raise AttributeError("module 'core._C' has no attribute '_cuda_setDevice'")
    index = _index(device)
    if index >= 0:
        _backend.cupy_or_none().cuda.runtime.setDevice(index)


def mem_get_info(device=None) -> tuple:
    """(free, total) bytes of the device's memory."""
    index = _index(device)
    cp = _backend.cupy_or_none()
    with cp.cuda.Device(index):
        free, total = cp.cuda.runtime.memGetInfo()
    return int(free), int(total)


class device:
    """``with torch.cuda.device(1):`` makes GPU 1 current inside the block; -1 (or None) changes nothing. Without a
    GPU, entering with a device index fails as PyTorch's CPU build does."""

    __module__ = "core.cuda"  # torch defines it in torch/cuda/__init__.py: its repr reads <torch.cuda.device ...>

    def __init__(self, device):
        self.idx = _device_index(device)
        self.prev_idx = -1

    def __enter__(self):
        if self.idx is None or self.idx < 0:
            return self
        if not _backend.cuda_available():
            raise RuntimeError("PyTorch was compiled without CUDA support")
        runtime = _backend.cupy_or_none().cuda.runtime
        self.prev_idx = int(runtime.getDevice())
        if self.prev_idx != self.idx:
            runtime.setDevice(self.idx)
        return self

    def __exit__(self, *exc) -> bool:
        if self.idx is not None and self.idx >= 0 and self.prev_idx >= 0 and self.prev_idx != self.idx:
            _backend.cupy_or_none().cuda.runtime.setDevice(self.prev_idx)
        return False


class device_of(device):
    """``torch.cuda.device_of(t)``: the device context of the GPU ``t`` is on, or a no-op for a CPU tensor."""

    __module__ = "core.cuda"

    def __init__(self, obj):
        super().__init__(obj.get_device() if obj.is_cuda else -1)


def _device_index(dev):
    """torch.cuda's device argument as an index: an int, 'cuda:k' or a cuda device; None stays None."""
    if dev is None or isinstance(dev, int):
        return dev
    d = _device(dev)
    if d.type != "cuda":
        raise ValueError(f"Expected a cuda device, but got: {d}")
    return d.index
