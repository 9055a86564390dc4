"""``torch.cuda.streams``: ``Stream``, ``ExternalStream`` and ``Event``, wrappers around CuPy's streams and events.

They carry PyTorch's names, module and methods, so ``dir(torch.cuda.Stream)``, ``repr`` and the errors of
PyTorch's CPU-only build are what a script sees without a GPU: ``Stream()`` raises ``RuntimeError: torch.cuda.Stream
requires CUDA support``, ``Event()`` the dummy base class's ``RuntimeError``. With CuPy and a GPU each wraps
CuPy's object (``_stream``/``_event``), and the stream functions of ``core.cuda`` hand out these wrappers.
"""

from __future__ import annotations

import ctypes

from core import _backend

__all__ = ["Stream", "ExternalStream", "Event", "wrap_stream"]


def _cupy():
    return _backend.cupy_or_none()


class Stream:
    """A CUDA stream: a queue of GPU work. ``with torch.cuda.stream(s):`` runs a block's ops on it."""

    __module__ = "core.cuda.streams"

    def __new__(cls, device=None, priority: int = 0, **kwargs):
        if not _backend.cuda_available():
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        return wrap_stream(_cupy().cuda.Stream(non_blocking=True, priority=priority or None), cls)

    def wait_event(self, event: Event) -> None:
        self._stream.wait_event(event._event)

    def wait_stream(self, stream: Stream) -> None:
        self.wait_event(stream.record_event())

    def record_event(self, event: Event | None = None) -> Event:
        event = Event() if event is None else event
        event.record(self)
        return event

    def query(self) -> bool:
        return bool(self._stream.done)

    def synchronize(self) -> None:
        self._stream.synchronize()

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self._stream.ptr)

    def __cuda_stream__(self) -> tuple:
        return 0, self._stream.ptr

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and self._stream.ptr == other._stream.ptr

    def __hash__(self) -> int:
        return hash(self._stream.ptr)

    def __repr__(self) -> str:
        device = int(_cupy().cuda.runtime.getDevice())
        return f"<torch.cuda.Stream device=cuda:{device} cuda_stream={self._stream.ptr:#x}>"


class ExternalStream(Stream):
    """A stream allocated outside (``stream_ptr``, a ``cudaStream_t``), wrapped without taking ownership."""

    __module__ = "core.cuda.streams"

    def __new__(cls, stream_ptr, device=None, **kwargs):
        if not _backend.cuda_available():
            raise RuntimeError("torch.cuda.Stream requires CUDA support")
        return wrap_stream(_cupy().cuda.ExternalStream(stream_ptr), cls)


def wrap_stream(cupy_stream, cls=Stream) -> Stream:
    """A ``Stream`` around an existing CuPy stream (``current_stream()``, ``default_stream()``)."""
    self = object.__new__(cls)
    self._stream = cupy_stream
    return self


class Event:
    """A CUDA event: a marker in a stream (``record``, ``wait``, ``query``, ``synchronize``, ``elapsed_time`` in
    milliseconds between two events made with ``enable_timing=True``)."""

    __module__ = "core.cuda.streams"

    def __new__(cls, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False,
                external: bool = False):
        if not _backend.cuda_available():
            raise RuntimeError("Tried to instantiate dummy base class Event")
        self = object.__new__(cls)
        self._event = _cupy().cuda.Event(block=blocking, disable_timing=not enable_timing, interprocess=interprocess)
        return self

    @classmethod
    def from_ipc_handle(cls, device, handle):
        raise NotImplementedError("CuPy's events are not shared between processes through PyTorch's IPC handles")

    def record(self, stream: Stream | None = None) -> None:
        self._event.record(None if stream is None else stream._stream)

    def wait(self, stream: Stream | None = None) -> None:
        (_cupy().cuda.get_current_stream() if stream is None else stream._stream).wait_event(self._event)

    def query(self) -> bool:
        return bool(self._event.done)

    def elapsed_time(self, end_event: Event) -> float:
        return float(_cupy().cuda.get_elapsed_time(self._event, end_event._event))

    def synchronize(self) -> None:
        self._event.synchronize()

    def ipc_handle(self):
        raise NotImplementedError("CuPy's events are not shared between processes through PyTorch's IPC handles")

    @property
    def _as_parameter_(self):
        return ctypes.c_void_p(self._event.ptr)

    def __repr__(self) -> str:
        return f"<torch.cuda.Event {self._event.ptr:#x}>" if self._event.ptr else "<torch.cuda.Event uninitialized>"
