"""PyTorch's ``TORCH_WARN_ONCE`` for core's mirrors of its one-time notes (sparse compressed tensors in beta, sparse
invariant checks left implicit, quantized tensor creation deprecated, a complex-to-real cast): a UserWarning the
first time in a process (every time under ``set_warn_always(True)``), attributed to the first caller outside
``core``."""

from __future__ import annotations

import sys
import warnings

__all__ = ["warn_once"]

_warned: set = set()  # the keys warn_once has warned for in this process


def warn_once(key: str, message: str) -> None:
    """``message`` as a UserWarning, unless ``key`` has warned before in this process (and ``set_warn_always`` is
    off: PyTorch's TORCH_WARN_ONCE warns every time under it)."""
    if key in _warned:
        from core._global_flags import is_warn_always_enabled  # (core._global_flags imports autograd)

        if not is_warn_always_enabled():
            return
    _warned.add(key)
    frame, level = sys._getframe(1), 2  # (stacklevel 2: the caller of warn_once)
    while frame is not None and frame.f_globals.get("__name__", "").startswith("core."):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, UserWarning, stacklevel=level)
