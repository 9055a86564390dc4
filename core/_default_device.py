"""``core.set_default_device`` / ``core.get_default_device``: where factories put tensors when no
``device=`` is given (``cpu`` unless set). ``core._factories.device_arg`` reads ``current``."""

from __future__ import annotations

from core._device import CPU, canonical

__all__ = ["set_default_device", "get_default_device"]

current = None  # None: the CPU, read on every factory call without a device


def set_default_device(device) -> None:
    """Factories called without ``device=`` make tensors on ``device`` (None resets to the CPU)."""
    global current
    if device is None:
        current = None
        return
    dev = canonical(device)  # like PyTorch, a missing GPU shows at the first factory call
    current = None if dev is CPU else dev


_stack: list = []  # the defaults that ``with device:`` blocks replaced, innermost last


def push(device) -> None:
    """Enter a ``with device:`` block: ``device`` becomes the default until ``pop``."""
    _stack.append(current)
    set_default_device(device)


def pop() -> None:
    global current
    current = _stack.pop()


def get_default_device():
    return CPU if current is None else current
