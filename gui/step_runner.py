"""Forward all / Backward all in short slices on the event loop, so the window stays responsive and Esc cancels.

The bridge gives a pass as a generator of single session steps (``SessionBridge.forward_steps`` /
``backward_steps``). ``start`` runs the first slice at once (a small graph is done before ``start`` returns, as
a plain call would be) and, when steps are left, a zero-interval timer runs the next slices. A slice pulls
steps for about ``SLICE_S`` seconds of this process's CPU time (at least one step; other processes' load does not
shorten it) or ``WALL_S`` of wall time, then returns to the event loop, so input and paints wait at most one
slice plus one step. Between two steps the session is at rest and consistent: ``cancel`` leaves the nodes
done so far done (and a backward pass in progress, which Backward all continues).

A pass started from the window while another runs waits its turn: clicking Backward all twice runs two passes, one
after the other, as ``loss.backward()`` written twice does (the gradients accumulate twice, or the second pass fails
with PyTorch's message without Retain graph). Restarting the running pass instead would continue it from where it
was, and the second click would be lost. Esc, an error, another step or another document drop the waiting passes.

A slice's steps are pulled on the window's one worker thread (``gui.worker_slices``, shared with training) while the
GUI thread waits for them up to ``WorkerSlices.WAIT_S``. A slice done by then is applied at once, as a slice run here
would be. One still computing after that (lesson 1's 32x3x224x224 convolution took seconds in one step) leaves the
GUI thread to the event loop: ``busy_changed(True)`` (the window shows a busy cursor and disables what would edit
the graph or touch the session meanwhile; zooming, Esc and queueing another pass stay), and the slice is applied
when it is done. Esc then stops the pass after that step; another step, another document or closing the window
first waits for it (``stop``), so the session is only ever touched by one thread at a time. Why a worker only for a
slice and not for whole passes: between slices the session is at rest and the window may edit the graph, as in
training (``gui.training.trainer``); a worker that ran on would need the window locked for the whole pass.

The runner computes nothing; it only decides when the next step is pulled and on which thread.
"""

from __future__ import annotations

import time
from collections.abc import Container, Generator
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, QTimer, Signal

from gui.worker_slices import WorkerSlices

STEPS = {"forward_step": "Forward step", "backward_step": "Backward step"}  # one step, run as a pass of one
_Pulled = tuple[dict[str, int], str | None]  # a worker slice's step counts, and how it ended (None: steps are left)

if TYPE_CHECKING:
    from core.nodegraph.run.session import Session
    from gui.session_bridge import SessionBridge

__all__ = ["StepRunner"]


class StepRunner(QObject):
    """Runs one pass at a time; a pass started from the window while one runs waits in ``queued``. Signals:
    ``finished(str)`` (``""`` when the pass ended by itself, else the status text: an error or "Cancelled after N
    of M nodes", then "; the queued pass was dropped" when one waited), ``progress(str)`` (the status text while
    steps are left), ``active_changed(bool)`` (True from the first pass's start to the last queued pass's end),
    ``busy_changed(bool)`` (True while a step computes on the worker and the event loop runs meanwhile)."""

    FIRST_S = 0.04  # the slice run inside start(): a small graph never waits for the event loop
    SLICE_S = 0.015  # the later slices: the event loop waits at most this long plus one step
    WALL_S = 0.03  # a slice also ends after this much wall time (steps that wait rather than compute)
    finished = Signal(str)
    progress = Signal(str)
    active_changed = Signal(bool)
    busy_changed = Signal(bool)

    def __init__(self, bridge: SessionBridge, parent: QObject | None = None,
                 worker: WorkerSlices | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("stepRunner")
        self.bridge = bridge
        self._steps: Generator[str, None, None] | None = None
        self._session: Session | None = None
        self.kind = ""
        self.counts = {"forward": 0, "backward": 0}
        self.total = 0
        self.queued: list[tuple[str, Container[str], str | None]] = []  # passes clicked while one ran, in order
        self._timer = QTimer(self)
        self._timer.setObjectName("stepRunnerTimer")
        self._timer.setInterval(0)
        self._timer.timeout.connect(lambda: self._slice(self.SLICE_S))
        self.worker = worker if worker is not None else WorkerSlices(bridge, self)  # the window's one worker
        self.worker.busy_changed.connect(self.busy_changed)
        self._pulling = False  # a slice of ours computes on the worker while the event loop runs
        self._cancel_asked = False

    @property
    def active(self) -> bool:
        return self._steps is not None

    @property
    def busy(self) -> bool:
        """True while a step computes on the worker and the window's event loop runs meanwhile."""
        return self._pulling

    def start(self, kind: str, breakpoints: Container[str] = frozenset(), until: str | None = None,
              background: bool = True) -> None:
        """Begin Forward all (``kind`` "forward", up to and including ``until`` when given), Backward all, or one
        step (``kind`` in ``STEPS``: the toolbar's, so a long one runs on the worker too);
        ``background=False`` runs the whole pass before returning (a script or a lesson that reads the result). While
        a pass runs, a ``background`` one is queued to run once it (and the passes queued before) ended by itself;
        one not in the background stops them and runs now."""
        if background and self.active:
            self.queued.append((kind, breakpoints, until))
            self.progress.emit(self._progress_text())
            return
        self.stop()
        self._begin(kind, breakpoints, until)
        self._slice(self.FIRST_S if background else float("inf"))
        if self.active:
            self._timer.start()

    def _begin(self, kind: str, breakpoints: Container[str], until: str | None) -> None:
        session = self.bridge.ensure()
        self.kind, self.counts = kind, {"forward": 0, "backward": 0}
        self.total = self.bridge.forward_left()
        if kind == "forward":
            self._steps = self.bridge.forward_steps(breakpoints, until)
        elif kind in STEPS:
            self._steps = self.bridge.one_step(kind)
        else:
            self._steps = self.bridge.backward_steps(breakpoints)
        if self._session is None:
            self.active_changed.emit(True)
        self._session = session

    def _slice(self, budget: float) -> None:
        """Pull steps for ``budget`` seconds: here when the caller waits for the whole pass (``inf``), else on the
        worker (see the module's docstring)."""
        steps = self._steps
        if steps is None or self._pulling:
            return
        if self.bridge.session is not self._session:  # another document (or the session was closed)
            self._end("")
            return
        if budget == float("inf"):
            self.worker.settle()
            self.worker.halt.clear()
            self._apply(self._pull(steps, budget))
            return
        if not self.worker.run(lambda: self._pull(steps, budget), self._settled):
            self._pulling = True
            self._timer.stop()
            self.progress.emit(self._progress_text())  # the status line says what the busy cursor waits for

    def _pull(self, steps: Generator[str, None, None], budget: float) -> _Pulled:
        """Steps for about ``budget`` seconds (on the worker, or here for a whole pass); touches no Qt object."""
        counts = {"forward": 0, "backward": 0}
        cpu_end, wall_end = time.process_time() + budget, time.perf_counter() + max(budget, self.WALL_S)
        halt = self.worker.halt
        try:
            while not halt.is_set():
                counts[next(steps)] += 1
                if time.process_time() > cpu_end or time.perf_counter() > wall_end:
                    break
        except StopIteration:
            return counts, ""
        except Exception as exc:  # a step must never take the window down
            return counts, f"{type(exc).__name__}: {exc}"
        return counts, None

    def _settled(self, pulled: _Pulled) -> None:
        """A worker slice is done (the session is at rest): apply what it did."""
        was_busy, self._pulling = self._pulling, False
        self._apply(pulled)
        if self._cancel_asked:
            self._cancel_asked = False
            self.cancel()
        elif was_busy and self.active:
            self._timer.start()

    def _apply(self, pulled: _Pulled) -> None:
        counts, end = pulled
        for kind, n in counts.items():
            self.counts[kind] += n
        if end is not None:
            self._end(end)
        else:
            self.progress.emit(self._progress_text())

    def _progress_text(self) -> str:
        """The status line while steps are left; while busy it says that the next steps compute (the count is of
        the steps already in)."""
        more = len(self.queued)
        then = f", then {more} more pass{'es' if more > 1 else ''}" if more else ""
        now = ", computing…" if self._pulling else ""
        if self.kind in STEPS:
            return f"{STEPS[self.kind]}: computing…"
        if self.counts["backward"]:
            return f"Backward all: {self.counts['backward']} steps{now}{then} (Esc cancels)"
        return f"{'Forward' if self.kind == 'forward' else 'Backward'} all: {self.counts['forward']} of " \
               f"{self.total} nodes{now}{then} (Esc cancels)"

    def cancel(self) -> bool:
        """Stop after the step that ran last (while busy: after the step in flight); False when nothing was
        running."""
        if not self.active:
            return False
        if self.kind in STEPS and not self._pulling:  # the one step is done: nothing left to cancel
            self._end("")
            return True
        if self._pulling:
            self._cancel_asked = True
            self.worker.halt.set()
            self.progress.emit("Cancelling after the step in progress…")
            return True
        if self.counts["backward"]:
            text = (f"Cancelled after {self.counts['backward']} backward steps; Backward all continues the pass")
        else:
            text = f"Cancelled after {self.counts['forward']} of {self.total} nodes"
        more = len(self.queued)  # said, or the learner waits for the pass they clicked for after this one
        if more:
            text += "; the queued pass was dropped" if more == 1 else f"; the {more} queued passes were dropped"
        self._end(text)
        return True

    def settle(self) -> None:
        """Wait for the step in flight on the worker, if any, and apply it (the session is at rest after)."""
        if self._pulling:
            self.worker.settle()

    def shutdown(self) -> None:
        """The window closes: no step left running on the worker, and the worker's thread ends."""
        self.stop()
        self.worker.shutdown()

    def stop(self) -> None:
        """Stop without a message (another step, another document); a step in flight on the worker is waited for."""
        self._cancel_asked = False
        self.settle()
        if self.active:
            self._end(None)
        else:
            self.queued.clear()

    def _end(self, text: str | None) -> None:
        """End the running pass; one that ended by itself (``text`` "") lets the next queued pass begin."""
        self._timer.stop()
        steps, self._steps = self._steps, None
        if steps is not None:
            steps.close()
        if text != "":
            self.queued.clear()  # Esc, an error, another step or document: the clicks after it are void
        going_on = bool(self.queued)
        if not going_on:
            self._session = None
            self.active_changed.emit(False)
        if text is not None:
            self.finished.emit(text)  # the pass's last step in the status bar, and the canvas redrawn
        if going_on:
            self._next()

    def _next(self) -> None:
        """The next queued pass, its slices run from the event loop; none when a ``finished`` handler stopped the
        runner or changed the document (one that started a pass itself runs it first)."""
        if self._steps is not None:
            return
        if self.queued and self._session is not None and self._session is self.bridge.session:
            self._begin(*self.queued.pop(0))
            self._timer.start()
        else:
            self.queued.clear()
            self._session = None
            self.active_changed.emit(False)
