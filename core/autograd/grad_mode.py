"""Grad-mode switches: ``no_grad``, ``enable_grad``, ``set_grad_enabled``, ``inference_mode``.

The mode is thread-local, as in PyTorch. Each switch works as a context manager and as a
decorator.
"""

from __future__ import annotations

import functools
import threading

__all__ = ["no_grad", "enable_grad", "set_grad_enabled", "inference_mode", "is_grad_enabled",
           "is_inference_mode_enabled"]

_state = threading.local()


def is_grad_enabled() -> bool:
    return getattr(_state, "enabled", True)


def _set(enabled: bool) -> None:
    _state.enabled = enabled


def is_inference_mode_enabled() -> bool:
    return getattr(_state, "inference", False)


class _Mode:
    """Base of the switches: enter sets the mode, exit restores the previous one."""

    _target = True

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.__class__(*self._args()):
                return fn(*args, **kwargs)
        return wrapper

    def _args(self):
        return ()

    def __enter__(self):
        self._prev = is_grad_enabled()
        _set(self._target)
        return None

    def __exit__(self, *exc):
        _set(self._prev)
        return False

    def clone(self):
        return self.__class__(*self._args())


class no_grad(_Mode):
    """Disable graph recording inside the block (evaluation, parameter updates)."""

    _target = False


class enable_grad(_Mode):
    """Enable graph recording inside the block, even within ``no_grad``."""

    _target = True


class set_grad_enabled(_Mode):
    """Set grad mode: immediately when called, restored on exit when used with ``with``."""

    def __init__(self, mode: bool):
        self._prev = is_grad_enabled()
        self._target = bool(mode)
        _set(self._target)

    def _args(self):
        return (self._target,)

    def __call__(self, fn):
        _set(self._prev)
        return super().__call__(fn)

    def __enter__(self):
        return None


class inference_mode(_Mode):
    """Like ``no_grad`` (and tensors made inside are marked as inference tensors)."""

    def __init__(self, mode: bool = True):
        self.mode = bool(mode)
        self._target = not self.mode

    def _args(self):
        return (self.mode,)

    def __enter__(self):
        self._prev_inf = is_inference_mode_enabled()
        _state.inference = self.mode
        return super().__enter__()

    def __exit__(self, *exc):
        _state.inference = self._prev_inf
        return super().__exit__(*exc)
