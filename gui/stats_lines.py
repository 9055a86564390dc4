"""The Inspector's statistics lines (``min -2.179  max 1.541 ... NaN 0``), a large tensor's computed off the GUI thread.

The numbers come from ``core.nodegraph.model.statistics.tensor_stats``; this module only decides where it runs.
A tensor of at most ``SYNC_NUMEL`` elements is summarised at once (a few milliseconds). A larger one (the
chapter's 32x3x224x224 batch took seconds) is summarised by a worker of a one-thread ``QThreadPool`` while its
line reads ``COMPUTING``; when the worker is done, ``arrived`` is emitted on the GUI thread and the Inspector
renders again, finding the numbers here.

A render is framed by ``begin(stamp)`` and ``finish()``; ``line(t)`` in between gives ``t``'s line. The stamp
says which values the session holds (it changes with every step), so numbers are reused only for the same tensor
object under the same stamp. ``finish`` starts one job for the large tensors that had no numbers, unless the job
in flight is for exactly them; any other render (another node, nothing selected, a new step) makes the job in
flight stale: its result is dropped when it comes (a generation count), and a job not started yet is taken out of
the pool. The worker touches no widget and no Qt object but its own signal holder; it holds its tensors, so a
node deleted meanwhile cannot pull them away. ``shutdown`` (the window closing) drops what waits and waits for
the job in flight (one ``tensor_stats`` call), so no Python runs on a worker thread while the app tears down.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QRunnable, QThreadPool, Signal

import core
from core.nodegraph.model.statistics import tensor_stats
from gui import format as fmt

if TYPE_CHECKING:
    from core.nodegraph.model.statistics import TensorStats

__all__ = ["COMPUTING", "SYNC_NUMEL", "StatsLines", "stats_line"]

SYNC_NUMEL = 100_000  # at most this many elements: summarised on the GUI thread (about 25 ms on a 2-core machine)
COMPUTING = "computing statistics…"


def stats_line(st: TensorStats | None) -> str:
    """``min -2.179  max 1.541  ...  NaN 0``, each name joined to its number by a no-break space: a narrow Inspector
    wraps between the pairs, never between 'norm' and its number."""
    if st is None or st.min is None:
        return f"NaN: {st.nan}" if st is not None else ""
    pairs = (("min", fmt.number(st.min)), ("max", fmt.number(st.max)), ("mean", fmt.number(st.mean)),
             ("std", fmt.number(st.std)), ("norm", fmt.number(st.norm)), ("NaN", str(st.nan)))
    return "  ".join(f"{name}\u00a0{value}" for name, value in pairs)


class _Done(QObject):
    """The worker's only Qt object: it carries the result to the GUI thread (a queued connection)."""

    done = Signal(int, object)  # (generation, [(tensor, line text), ...])


class _Job(QRunnable):
    """Summarise ``tensors`` with ``tensor_stats`` on a pool thread; the lines go back through ``signals``."""

    def __init__(self, generation: int, tensors: list[core.Tensor]) -> None:
        super().__init__()
        self.generation, self.tensors = generation, tensors
        self.signals = _Done()
        self.setAutoDelete(False)  # Python owns it (``StatsLines._jobs``): the pool never deletes it under Python

    def run(self) -> None:  # Qt override, on the pool's thread
        out = []
        for t in self.tensors:
            try:
                text = stats_line(tensor_stats(t))
            except Exception as exc:  # a failure is shown on the line, never raised on a pool thread
                text = f"no statistics: {exc}"
            out.append((t, text))
        self.signals.done.emit(self.generation, out)


class StatsLines(QObject):
    """Statistics lines for one render at a time; ``arrived`` says a large tensor's numbers came (render again)."""

    arrived = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("inspectorStats")
        self._pool = QThreadPool(self)
        self._pool.setMaxThreadCount(1)  # one job at a time: a newer one waits, an older one is dropped from the queue
        self._stamp: object = None
        self._known: dict[int, tuple[core.Tensor, object, str]] = {}  # id(tensor) -> (tensor, stamp, line)
        self._used: dict[int, tuple[core.Tensor, object, str]] = {}
        self._wanted: list[core.Tensor] = []
        self._asked: tuple[object, ...] | None = None  # what the job in flight summarises (ids and stamp)
        self._generation = 0
        self._jobs: dict[int, _Job] = {}  # kept alive (and their signal holders) until their result is in

    def begin(self, stamp: object) -> None:
        """A render of the values under ``stamp`` (the session and its step count) starts."""
        self._stamp, self._used, self._wanted = stamp, {}, []

    def line(self, t: object) -> str:
        """``t``'s statistics line: at once for a small tensor, the known numbers, or ``COMPUTING`` (asked for)."""
        if not isinstance(t, core.Tensor) or t.numel() <= SYNC_NUMEL:
            return stats_line(tensor_stats(t))
        hit = self._known.get(id(t))
        if hit is not None and hit[0] is t and hit[1] == self._stamp:
            self._used[id(t)] = hit
            return hit[2]
        if not any(w is t for w in self._wanted):
            self._wanted.append(t)
        return COMPUTING

    def finish(self) -> None:
        """The render is done: keep the numbers it showed, and ask for the ones it lacked (or drop a stale job)."""
        self._known = self._used
        if not self._wanted:
            self.cancel()
            return
        asked = (*(id(t) for t in self._wanted), self._stamp)
        if asked == self._asked:
            return  # the job in flight is for these very tensors
        self.cancel()
        self._asked = asked
        job = _Job(self._generation, self._wanted)
        job.signals.done.connect(self._done)
        self._jobs[self._generation] = job
        self._pool.start(job)

    def cancel(self) -> None:
        """Whatever is in flight or waiting is stale: its result will be dropped."""
        self._generation += 1
        self._asked = None
        for gen, job in list(self._jobs.items()):
            if self._pool.tryTake(job):  # not started: it never runs, so nothing will come back for it
                del self._jobs[gen]

    @property
    def busy(self) -> bool:
        """True while a job is asked for and its numbers have not come."""
        return self._asked is not None

    @property
    def running(self) -> bool:
        """True while a worker computes (a stale job too: it cannot be stopped half-way, only its result dropped)."""
        return self._pool.activeThreadCount() > 0

    def wait(self) -> None:
        """Block until the job in flight is done (a screenshot, a test); its result still arrives as an event."""
        self._pool.waitForDone()

    def shutdown(self) -> None:
        """The window closes: drop what waits and wait for the job in flight (no Python left on a pool thread)."""
        self.cancel()
        self._pool.waitForDone()
        self._jobs.clear()

    def _done(self, generation: int, lines: list[tuple[core.Tensor, str]]) -> None:
        """A job's result on the GUI thread: kept and announced when it is still what the Inspector shows."""
        self._jobs.pop(generation, None)
        if generation != self._generation:
            return
        self._asked = None
        for t, text in lines:
            self._known[id(t)] = (t, self._stamp, text)
        self.arrived.emit()
