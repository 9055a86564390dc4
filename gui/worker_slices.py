"""The window's one worker thread for long computations: a step runner's slice of steps or a slice of training.

Both ``gui.step_runner`` and ``gui.training.trainer`` hand their slices here (``run``): a job is pulled on the one
worker thread while the GUI thread waits for it up to ``WAIT_S`` of this process's CPU time (``WAIT_WALL_S`` of wall
time), so a short slice is done, and applied by its ``then``, before ``run`` returns, as a call on the GUI thread
would be. A job still computing after that hands the GUI thread back to the event loop: ``busy_changed(True)`` (the
window's ``gui.busy_guard`` disables what would edit the graph or read the session), a timer polls the worker, and
``then`` runs on the GUI thread once the job is done; ``busy_changed(False)`` follows when no job is in flight and
no owner ``keep_busy``s (training whose slices went long keeps the window busy from one slice to the next, so its
controls do not flicker on and off at every step); ``late`` tells ``then`` which of the two ways its job went.

While a job runs the session bridge ``hold``s its events and messages (``release``d on the GUI thread before
``then``) and the cyclic garbage collector is off, so it never frees a Qt object on the worker. ``halt`` is set by a
cancel: jobs look at it between their steps. Only one job is ever in flight: ``run`` while one is first waits for it
(``settle``), so the session is only ever touched by one thread at a time.

This module computes nothing; it only decides on which thread a slice runs and when its result is applied.
"""

from __future__ import annotations

import gc
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor, wait
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

if TYPE_CHECKING:
    from gui.session_bridge import SessionBridge

__all__ = ["WorkerSlices"]


class WorkerSlices(QObject):
    """Runs one job at a time on its worker thread (see the module docstring); ``busy_changed(bool)``."""

    WAIT_S = 0.1  # the GUI thread waits this much CPU time for a job; a longer one lets the window answer
    WAIT_WALL_S = 1.0  # ... and at most this much wall time
    POLL_MS = 10  # how often a busy window looks whether the worker is done
    busy_changed = Signal(bool)

    def __init__(self, bridge: SessionBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("workerSlices")
        self.bridge = bridge
        self.busy = False  # the window's event loop runs while a job computes (or an owner keeps it busy)
        self.late = False  # the job being applied was not done within the wait (it computed while the window ran)
        self.halt = threading.Event()  # a cancel: jobs pull no step after the one in flight
        self._pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="nodegrad-step")
        self._job: tuple[Future[Any], Callable[[Any], None]] | None = None  # in flight while the event loop runs
        self._keepers: set[int] = set()
        self._gc_was_on = False
        self._poll = QTimer(self)
        self._poll.setObjectName("workerSlicesPoll")
        self._poll.setInterval(self.POLL_MS)
        self._poll.timeout.connect(self._look)

    @property
    def in_flight(self) -> bool:
        """True while a job computes on the worker and the event loop runs meanwhile."""
        return self._job is not None

    def run(self, job: Callable[[], Any], then: Callable[[Any], None]) -> bool:
        """Run ``job()`` on the worker and ``then(result)`` on the GUI thread; True when both ran before returning."""
        self.settle()
        self.halt.clear()
        self.bridge.hold()
        self._gc_was_on = gc.isenabled()
        gc.disable()  # NOTE: a collection on the worker could free a Qt object there, off its thread
        future = self._pool.submit(job)
        if self._wait(future):
            self.late = False
            self._apply(future, then)
            return True
        self._job = (future, then)
        self._poll.start()
        self._set_busy(True)
        return False

    def _wait(self, future: Future[Any]) -> bool:
        """Wait for the job while it has used under ``WAIT_S`` of CPU time (a loaded machine gives it less per
        second: a step a test or a user sees done at once on an idle one is done at once there too) and under
        ``WAIT_WALL_S`` of wall time (a step that waits rather than computes); True when it is done."""
        cpu_end, wall_end = time.process_time() + self.WAIT_S, time.perf_counter() + self.WAIT_WALL_S
        while not wait([future], timeout=0.01).done:
            if time.process_time() > cpu_end or time.perf_counter() > wall_end:
                return False
        return True

    def _look(self) -> None:
        """The poll while busy: apply the job once it is done."""
        if self._job is not None and self._job[0].done():
            self._finish()

    def _finish(self) -> None:
        assert self._job is not None
        (future, then), self._job = self._job, None
        self._poll.stop()
        self.late = True
        self._apply(future, then)
        if self._job is None and not self._keepers:
            self._set_busy(False)

    def _apply(self, future: Future[Any], then: Callable[[Any], None]) -> None:
        """The job is done: the event loop may touch the session again; its owner applies what it did."""
        if self._gc_was_on:
            gc.enable()
        self.bridge.release()
        then(future.result())

    def keep_busy(self, owner: object, keep: bool) -> None:
        """``owner`` keeps the window busy between its jobs (True) or no longer (False)."""
        if keep:
            self._keepers.add(id(owner))
            return
        self._keepers.discard(id(owner))
        if self._job is None and not self._keepers:
            self._set_busy(False)

    def _set_busy(self, busy: bool) -> None:
        if busy != self.busy:
            self.busy = busy
            self.busy_changed.emit(busy)

    def settle(self) -> None:
        """Wait for the job in flight, if any, and apply it (the session is at rest after)."""
        if self._job is not None:
            self.halt.set()
            wait([self._job[0]])
            self._finish()

    def shutdown(self) -> None:
        """The window closes: no job left running on the worker, and the worker's thread ends."""
        self.settle()
        self._keepers.clear()
        self._set_busy(False)
        self._pool.shutdown(wait=True)
