"""The backward engine's process switches PyTorch exposes at ``torch.autograd``: ``set_multithreading_enabled``
(a thread-local flag; core's engine runs backward on the calling thread either way), ``is_view_replay_enabled``
(False: core regenerates views' grad_fns, it does not replay view ops) and ``kineto_available`` (whether the
profiler has its Kineto backend; core's profiler is its own, so False)."""

from __future__ import annotations

import functools
import threading

__all__ = ["set_multithreading_enabled", "is_multithreading_enabled", "is_view_replay_enabled", "kineto_available"]


class _State(threading.local):
    multithreading = True


_state = _State()


def is_multithreading_enabled() -> bool:
    return _state.multithreading


class set_multithreading_enabled:
    """Set the flag at once; as a context manager (or decorator) restore it on exit."""

    __module__ = "core.autograd.grad_mode"

    def __init__(self, mode: bool) -> None:
        self.prev, self.mode = _state.multithreading, bool(mode)
        _state.multithreading = self.mode

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc) -> bool:
        _state.multithreading = self.prev
        return False

    def __call__(self, fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            with self.clone():
                return fn(*args, **kwargs)
        _state.multithreading = self.prev  # made to decorate: the flag changes only while fn runs
        return wrapper

    def clone(self) -> set_multithreading_enabled:
        return self.__class__(self.mode)


def is_view_replay_enabled() -> bool:
    return False


def kineto_available() -> bool:
    return False
