"""``torch.multiprocessing``: Python's ``multiprocessing`` plus ``spawn``/``start_processes``, as PyTorch's.

``spawn(fn, args, nprocs)`` starts ``nprocs`` processes running ``fn(i, *args)`` and, with ``join=True``, waits
for them; a process that raises makes the parent raise ``ProcessRaisedException`` with the child's traceback
(a crash, ``ProcessExitedException``). Each process is a separate core (core shares no tensors between
processes: ``core.distributed`` has a world of one process).
"""

import multiprocessing
import traceback as _traceback
from multiprocessing import *  # noqa: F403  (PyTorch's module re-exports Python's)

__all__ = [*multiprocessing.__all__, "spawn", "start_processes", "ProcessContext", "ProcessException",
           "ProcessRaisedException", "ProcessExitedException", "set_sharing_strategy", "get_sharing_strategy",
           "get_all_sharing_strategies"]

_SHARING = {"strategy": "file_descriptor"}  # torch's default on Linux; core shares no tensors between processes


def get_all_sharing_strategies() -> set:
    """The strategies torch can share CPU tensors between processes by (Linux's two)."""
    return {"file_descriptor", "file_system"}


def get_sharing_strategy() -> str:
    return _SHARING["strategy"]


def set_sharing_strategy(new_strategy: str) -> None:
    """Records the strategy, as torch does (scripts set ``file_system`` against "received 0 items of ancdata"); it
    changes nothing here, where no tensor crosses a process."""
    strategies = get_all_sharing_strategies()
    assert new_strategy in strategies, f"invalid sharing strategy {new_strategy!r}, expected one of {strategies}"
    _SHARING["strategy"] = new_strategy


class ProcessException(Exception):
    def __init__(self, msg: str, error_index: int, pid: int):
        super().__init__(msg)
        self.msg, self.error_index, self.pid = msg, error_index, pid


class ProcessRaisedException(ProcessException):
    """A child raised: the message holds its traceback."""


class ProcessExitedException(ProcessException):
    """A child exited with a non-zero code without a Python exception."""

    def __init__(self, msg: str, error_index: int, error_pid: int, exit_code: int, signal_name=None):
        super().__init__(msg, error_index, error_pid)
        self.exit_code, self.signal_name = exit_code, signal_name


def _wrap(fn, i, args, errors):
    try:
        fn(i, *args)
    except KeyboardInterrupt:
        pass
    except BaseException:  # the parent re-raises it
        errors.put((i, _traceback.format_exc()))
        raise SystemExit(1) from None


class ProcessContext:
    """The started processes; ``join()`` is True once all have ended, and raises for a failed one."""

    def __init__(self, processes, errors):
        self.processes, self._errors = processes, errors

    def pids(self):
        return [p.pid for p in self.processes]

    def join(self, timeout=None) -> bool:
        for p in self.processes:
            p.join(timeout)
        if any(p.is_alive() for p in self.processes):
            return False
        for i, p in enumerate(self.processes):
            if p.exitcode:
                if not self._errors.empty():
                    index, text = self._errors.get()
                    msg = f"\n\n-- Process {index} terminated with the following error:\n{text}"
                    raise ProcessRaisedException(msg, index, self.processes[index].pid)
                raise ProcessExitedException(f"process {i} terminated with exit code {p.exitcode}", i, p.pid,
                                             p.exitcode)
        return True


def start_processes(fn, args=(), nprocs: int = 1, join: bool = True, daemon: bool = False,
                    start_method: str = "spawn"):
    ctx = multiprocessing.get_context(start_method)
    errors = ctx.SimpleQueue()
    processes = [ctx.Process(target=_wrap, args=(fn, i, args, errors), daemon=daemon) for i in range(nprocs)]
    for p in processes:
        p.start()
    context = ProcessContext(processes, errors)
    if not join:
        return context
    while not context.join():
        pass
    return None


def spawn(fn, args=(), nprocs: int = 1, join: bool = True, daemon: bool = False, start_method: str = "spawn"):
    """``fn(i, *args)`` in ``nprocs`` new processes (``i`` = 0..nprocs-1)."""
    return start_processes(fn, args, nprocs, join, daemon, start_method)
