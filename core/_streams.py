"""``torch.Stream`` and ``torch.Event``: device-generic streams, as PyTorch's CPU build has them.

On the CPU a stream runs everything in order at once (``query()`` True, ``synchronize()`` nothing) and has no
events (``record_event``/``wait_stream`` raise PyTorch's RuntimeError); an event only records its flags. A CUDA
stream or event without CUDA raises PyTorch's "not linked" RuntimeError; with CuPy and a GPU it is
``torch.cuda.Stream``'s CuPy stream (or CuPy's event).
"""

from __future__ import annotations

from core import _backend
from core._device import device as _device

__all__ = ["Stream", "Event"]

_NO_EVENTS = "cpu backend doesn't support events."


def _resolve(device):
    dev = _device("cpu" if device is None else device)
    if dev.type == "cuda" and not _backend.cuda_available():
        raise RuntimeError("PyTorch is not linked with support for cuda devices")
    return dev


class Stream:
    """An in-order queue of work on a device (the CPU's runs at once)."""

    __module__ = "core"  # torch.Stream's typename

    def __new__(cls, device=None, *, priority: int = 0, **kwargs):
        dev = _resolve(device)
        if dev.type == "cuda":
            from core.cuda import Stream as CudaStream

            return CudaStream(dev, priority=priority)
        return super().__new__(cls)

    def __init__(self, device=None, *, priority: int = 0, **kwargs):
        self.device = _device("cpu")
        self.device_type, self.device_index, self.stream_id = 0, -1, 0  # PyTorch's numbers for the CPU stream

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def record_event(self, event=None):
        raise RuntimeError(_NO_EVENTS)

    def wait_event(self, event) -> None:
        return None

    def wait_stream(self, stream) -> None:  # (PyTorch records an event on the other stream)
        raise RuntimeError(_NO_EVENTS)

    def is_capturing(self) -> bool:
        return False

    def __enter__(self):
        return self

    def __exit__(self, *exc) -> bool:
        return False

    def __eq__(self, other) -> bool:
        return isinstance(other, Stream) and other.device == self.device and other.stream_id == self.stream_id

    def __hash__(self) -> int:
        return hash((self.device.type, self.stream_id))

    def __repr__(self) -> str:
        return "torch.Stream device_type=cpu, device_index=-1, stream_id=0"


class Event:
    """A synchronisation marker; on the CPU there is nothing to wait for."""

    __module__ = "core"

    def __new__(cls, device=None, *, enable_timing: bool = False, blocking: bool = False, interprocess: bool = False):
        dev = _resolve(device)
        if dev.type == "cuda":
            return _backend.cupy_or_none().cuda.Event(block=blocking, disable_timing=not enable_timing,
                                                      interprocess=interprocess)
        return super().__new__(cls)

    def __init__(self, device=None, *, enable_timing: bool = False, blocking: bool = False,
                 interprocess: bool = False):
        self.device = _device("cpu")
        self.event_id = 0
        self._flag = int(bool(enable_timing))

    def record(self, stream=None) -> None:
        raise RuntimeError(_NO_EVENTS)

    def query(self) -> bool:
        return True

    def synchronize(self) -> None:
        return None

    def wait(self, stream=None) -> None:
        return None

    def elapsed_time(self, end_event) -> float:
        if not (self._flag and getattr(end_event, "_flag", 0)):
            raise ValueError("Both events must be created with argument 'enable_timing=True'.")
        raise ValueError("Both events must be recorded before calculating elapsed time.")  # (a CPU event never is)

    def __repr__(self) -> str:
        return f"torch.Event device_type=cpu, device_index=-1, event_flag={self._flag}, event_id=0"
