"""PyTorch's ``TORCH_WARN_ONCE`` for core's mirrors of its one-time notes (sparse compressed tensors in beta, sparse
invariant checks left implicit, quantized tensor creation deprecated, a complex-to-real cast): a UserWarning the
first time in a process (every time under ``set_warn_always(True)``), attributed to the first caller outside
``core``."""

from __future__ import annotations

from core._user_warning import warn_user

__all__ = ["warn_once"]

_warned: set = set()  # the keys warn_once has warned for in this process


def warn_once(key: str, message: str, warn=warn_user) -> None:
    """``message`` as a UserWarning, unless ``key`` has warned before in this process (and ``set_warn_always`` is
    off: PyTorch's TORCH_WARN_ONCE warns every time under it). ``warn``: ``warn_in_core`` for a note PyTorch
    raises under one of its Python wrappers (so names its own file)."""
    if key in _warned:
        from core._global_flags import is_warn_always_enabled  # (core._global_flags imports autograd)

        if not is_warn_always_enabled():
            return
    _warned.add(key)
    warn(message)
