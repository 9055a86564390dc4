"""``core.set_default_device`` / ``core.get_default_device``: where factories put tensors when no
``device=`` is given (``cpu`` unless set). ``core._factories.device_arg`` reads ``current``."""

from __future__ import annotations

from core._device import CPU, canonical

__all__ = ["set_default_device", "get_default_device"]

current = None  # None: the CPU, read on every factory call without a device
_unindexed = False  # set to 'cuda' without an index: reading it back asks for the current CUDA device


def set_default_device(device) -> None:
    """Factories called without ``device=`` make tensors on ``device`` (None resets to the CPU)."""
    global current, _unindexed
    _unindexed = False
    if device is None:
        current = None
        return
    dev = canonical(device)  # like PyTorch, a missing GPU shows at the first factory call
    current = None if dev is CPU else dev
    if isinstance(device, str):
        indexed = ":" in device
    else:  # an ordinal, or a device object
        indexed = isinstance(device, int) or getattr(device, "index", None) is not None
    _unindexed = dev.type == "cuda" and not indexed


_stack: list = []  # the defaults that ``with device:`` blocks replaced, innermost last


def push(device) -> None:
    """Enter a ``with device:`` block: ``device`` becomes the default until ``pop``."""
    _stack.append((current, _unindexed))
    set_default_device(device)


def pop() -> None:
    global current, _unindexed
    current, _unindexed = _stack.pop()


cuda_check = None  # core._backend's CUDA check, registered by it (this module sits below the backend)


def get_default_device():
    if _unindexed and cuda_check is not None:  # PyTorch resolves the current CUDA device, which initialises CUDA
        cuda_check()  # (its CPU build asserts)
    return CPU if current is None else current
