"""``torch.futures``: a value that is set later, with callbacks chained on it (Captum's perturbation methods accept a
forward function that returns one; RPC and ``jit.fork`` return them in torch).

A callback runs inline: at once if the future is done, otherwise in the thread that completes it. ``wait()`` blocks
until another thread sets the result. An error in a ``then`` callback completes the future ``then`` returned with
torch's RuntimeError (the callback's exception and where it was raised); one in an ``add_done_callback`` callback
is reported on stderr and dropped, as torch logs it.
"""

from __future__ import annotations

import sys as _sys
import threading as _threading
import traceback as _traceback
from typing import Any as _Any
from typing import Callable as _Callable
from typing import Generic, TypeVar

__all__ = ["Future", "collect_all", "wait_all"]

T = TypeVar("T")
S = TypeVar("S")


class _Future:
    """``torch._C.Future`` (``torch.Future``): the state, its lock and the callbacks waiting for it."""

    def __init__(self, devices: list | None = None):
        self._devices = list(devices or [])
        self._done = _threading.Event()
        self._lock = _threading.Lock()
        self._value: _Any = None
        self._error: BaseException | None = None
        self._callbacks: list[_Callable[[_Future], None]] = []

    def done(self) -> bool:
        return self._done.is_set()

    def wait(self):
        self._done.wait()
        return self.value()

    def value(self):
        if not self._done.is_set():
            raise RuntimeError("completed() INTERNAL ASSERT FAILED: this Future has no value yet; call wait() first")
        if self._error is not None:
            raise self._error
        return self._value

    def _complete(self, value, error: BaseException | None) -> None:
        with self._lock:
            if self._done.is_set():
                raise RuntimeError("Attempting to mark a completed Future as complete again. Note that a Future can "
                                   "only be marked completed once.")
            self._value, self._error = value, error
            self._done.set()
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback(self)

    def set_result(self, result) -> None:
        self._complete(result, None)

    def set_exception(self, result) -> None:
        if not isinstance(result, Exception):
            raise AssertionError(f"{result} is of type {type(result)}, not an Exception.")
        self._complete(None, result)

    def _add(self, callback: _Callable[[_Future], None]) -> None:
        with self._lock:
            if not self._done.is_set():
                self._callbacks.append(callback)
                return
        callback(self)

    def then(self, callback):
        child = _Future(self._devices)

        def run(fut):
            try:
                result = callback(fut)
            except Exception as exc:  # the child future carries it, as torch's does
                child._complete(None, RuntimeError(_callback_error(exc)))
            else:
                child._complete(result, None)

        self._add(run)
        return child

    def add_done_callback(self, callback) -> None:
        def run(fut):
            try:
                callback(fut)
            except Exception as exc:  # torch logs it and carries on
                print(_callback_error(exc), file=_sys.stderr)

        self._add(run)


_Future.__name__ = _Future.__qualname__ = "Future"
_Future.__module__ = "core"


def _callback_error(exc: BaseException) -> str:
    """torch's message for a callback that raised: the exception, then its frames, innermost first."""
    frames = _traceback.extract_tb(exc.__traceback__)[1:]  # not the frame that called the callback
    where = "".join(f"  {f.filename}({f.lineno}): {f.name}\n" for f in reversed(frames))
    return f"Got the following error when running the callback: {type(exc).__name__}: {exc}\n\nAt:\n{where}"


class Future(_Future, Generic[T]):
    """``torch.futures.Future`` (also ``torch.jit.Future``): an unset future whose result a producer sets."""

    def __init__(self, *, devices: list | None = None):
        from core._device import device

        found = [device(d) for d in devices or []]
        for d in found:
            if d.type == "cpu" and d.index is None:
                raise ValueError(f"Expected devices to have indices, got {d}")
            if d.type != "cpu":
                raise RuntimeError(f"PyTorch is not linked with support for {d.type} devices")
        super().__init__(found)


Future.__module__ = "core.jit"


def collect_all(futures: list) -> _Future:
    """A future completed once every one of ``futures`` is, holding that list (or the first error among them)."""
    futures = list(futures)
    for fut in futures:
        if not isinstance(fut, _Future):
            raise TypeError("_collect_all(): incompatible function arguments. The following argument types are "
                            "supported:\n    1. (arg0: collections.abc.Sequence[torch._C.Future]) -> torch._C.Future"
                            f"\n\nInvoked with: {futures!r}")
    combined = _Future()
    remaining = [len(futures)]
    lock = _threading.Lock()

    def one_done(_):
        with lock:
            remaining[0] -= 1
            last = remaining[0] == 0
        if last:
            error = next((f._error for f in futures if f._error is not None), None)
            combined._complete(None if error else futures, error)

    if not futures:
        combined.set_result([])
    for fut in futures:
        fut._add(one_done)
    return combined


def wait_all(futures: list) -> list:
    """The values of ``futures`` once all are done (the first error raised)."""
    return [fut.wait() for fut in collect_all(futures).wait()]
