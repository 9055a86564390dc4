"""``core.profiler``: PyTorch's newer profiler API (``profile``, ``record_function``, ``ProfilerActivity``,
``schedule``) over ``core.autograd.profiler``'s recorder. Only the CPU is measured."""

import enum as _enum
import warnings as _warnings

from core.autograd import profiler as _autograd_profiler
from core.autograd.profiler import EventList as _EventList
from core.autograd.profiler import record_function

__all__ = ["profile", "record_function", "ProfilerActivity", "ProfilerAction", "schedule",
           "tensorboard_trace_handler", "kineto_available", "supported_activities"]


def kineto_available() -> bool:
    """Whether ``profile`` (Kineto's API in torch) can be used: True, as in torch's CPU builds (Lightning asks)."""
    return True


def supported_activities() -> set:
    """The activities ``profile`` can record: the CPU only (torch's CPU builds say the same)."""
    return {ProfilerActivity.CPU}


class ProfilerActivity(_enum.Enum):
    CPU = 0
    CUDA = 2
    XPU = 3
    MTIA = 4


class ProfilerAction(_enum.Enum):
    NONE = 0
    WARMUP = 1
    RECORD = 2
    RECORD_AND_SAVE = 3


def schedule(*, wait: int, warmup: int, active: int, repeat: int = 0, skip_first: int = 0):
    """PyTorch's step schedule: which action each ``prof.step()`` number takes."""
    def action(step: int) -> ProfilerAction:
        if step < skip_first:
            return ProfilerAction.NONE
        step -= skip_first
        cycle = wait + warmup + active
        if repeat > 0 and step // cycle >= repeat:
            return ProfilerAction.NONE
        pos = step % cycle
        if pos < wait:
            return ProfilerAction.NONE
        if pos < wait + warmup:
            return ProfilerAction.WARMUP
        return ProfilerAction.RECORD if pos < cycle - 1 else ProfilerAction.RECORD_AND_SAVE
    return action


def tensorboard_trace_handler(dir_name: str, worker_name: str | None = None, use_gzip: bool = False):
    """An ``on_trace_ready`` handler that writes a Chrome trace into ``dir_name``."""
    import os

    def handler(prof) -> None:
        os.makedirs(dir_name, exist_ok=True)
        prof.export_chrome_trace(os.path.join(dir_name, f"{worker_name or 'core'}.{prof.step_num}.pt.trace.json"))
    return handler


class profile(_autograd_profiler.profile):  # PyTorch's name
    """``with profile(activities=[ProfilerActivity.CPU]) as prof: ...`` then ``prof.key_averages().table()``.

    With a ``schedule``, only the steps it marks RECORD are kept (``prof.step()`` advances).
    """

    def __init__(self, *, activities=None, schedule=None, on_trace_ready=None, record_shapes: bool = False,
                 profile_memory: bool = False, with_stack: bool = False, with_flops: bool = False,
                 with_modules: bool = False, **kwargs):
        super().__init__(record_shapes=record_shapes)
        self.schedule, self.on_trace_ready, self.step_num = schedule, on_trace_ready, 0
        self.with_stack = with_stack
        self._kept: list = []
        self._acc_events, self._cycles = bool(kwargs.get("acc_events", False)), 0
        self._saved: list = []  # the last finished cycle's events
        self._just_saved = False  # True while no step has begun after a cycle finished

    def start(self) -> None:
        self._start()

    def stop(self) -> None:
        self._stop()
        if self.schedule is not None:  # (the cycle that just finished, else the one under way)
            self.function_events = _EventList(self._saved if self._just_saved else self._kept)
        if self.on_trace_ready is not None and self.schedule is None:
            self.on_trace_ready(self)

    def __exit__(self, *exc):
        self.stop()
        return False

    def step(self) -> None:
        """End one step: with a schedule, keep or drop what it recorded. As PyTorch's, the step number moves on
        first, so ``on_trace_ready`` at the end of a cycle sees the next step's number, and a new cycle starts
        from no events unless ``acc_events=True`` (PyTorch warns so once)."""
        act = self.schedule(self.step_num) if self.schedule is not None else None
        if act is not None:
            if act in (ProfilerAction.RECORD, ProfilerAction.RECORD_AND_SAVE):
                self._kept.extend(self._events)
            self._events.clear()
        self.step_num += 1
        self._just_saved = act is ProfilerAction.RECORD_AND_SAVE
        if self._just_saved:
            self._cycles += 1
            self._saved = list(self._kept)
            if self.on_trace_ready is not None:
                self.function_events = _EventList(self._saved)
                self.on_trace_ready(self)
            if not self._acc_events:
                if self._cycles == 1:
                    _warnings.warn("Warning: Profiler clears events at the end of each cycle. Only events from the "
                                  "current cycle will be reported. To keep events across cycles, set "
                                  "acc_events=True.", stacklevel=2)
                self._kept = []

    def events(self) -> _EventList:
        return self.function_events

    def export_stacks(self, path: str, metric: str = "self_cpu_time_total") -> None:
        """The flame-graph file of ops' Python stacks with ``metric`` each; core records no Python frames for its
        ops, so the file holds no stack lines (PyTorch's argument checks apply)."""
        if metric not in _STACK_METRICS:
            raise ValueError(f"metric should be one of: {list(_STACK_METRICS)}")
        if not self.with_stack:
            raise AssertionError("export_stacks() requires with_stack=True")
        with open(path, "w", encoding="utf-8"):
            pass


_STACK_METRICS = ("self_cpu_time_total", "self_cuda_time_total", "self_xpu_time_total", "self_privateuse1_time_total")
