"""Drives a session's training from the GUI thread in short slices, so the window never freezes.

Each slice runs whole training steps (``Session.train(1)``: zero_grad, forward, backward, optimizer)
for ``SLICE_S`` to ``MAX_SLICE_S`` seconds (longer when redraws between slices take long, so training
keeps about 90% of the time), appends their metrics to the current ``Run`` of a ``RunHistory`` and
returns to the event loop; a zero-interval timer schedules the next slice. So Pause takes effect
before the next step, the 100 ms timers of the window keep firing, and views that poll the run on
their own throttled timers see consistent data (nothing runs concurrently with them). The trainer
computes nothing: the session does; stop conditions and bookkeeping are ``core.nodegraph.runs``.
"""

from __future__ import annotations

import time
from collections import deque

from PySide6.QtCore import QObject, QTimer, Signal

from core.nodegraph.runs import RunHistory, StopConditions
from core.nodegraph.trainview import retune

__all__ = ["Trainer"]


class Trainer(QObject):
    """Train / pause / step / reset on the window's session bridge, keeping every run.

    Signals: ``state_changed(str)`` ("idle", "training", "paused"), ``progress(object)`` (a dict with
    ``done``, ``total``, ``rate`` steps/s and ``eta`` seconds), ``stopped(object)`` (``{"message",
    "node"}`` when a stop condition or an error ended training), ``run_started(object)`` (the new Run).
    """

    SLICE_S = 0.015
    MAX_SLICE_S = 0.035
    PROGRESS_S = 0.1
    state_changed = Signal(str)
    progress = Signal(object)
    stopped = Signal(object)
    run_started = Signal(object)

    def __init__(self, bridge, parent=None):
        super().__init__(parent)
        self.setObjectName("trainer")
        self.bridge = bridge
        self.history = RunHistory()
        self.stop_conditions = StopConditions()
        self.state = "idle"
        self.target = 0
        self.done = 0
        self._new_run = True
        self._times: deque = deque(maxlen=64)
        self._last_progress = 0.0
        self._slice_end = None
        self._outside = 0.0
        self._timer = QTimer(self)
        self._timer.setObjectName("trainSliceTimer")
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)

    @property
    def session(self):
        return self.bridge.ensure()

    @property
    def run(self):
        """The run new steps go to (started on the first step after a reset)."""
        if self._new_run or self.history.current is None:
            self._new_run = False
            run = self.history.new_run(self.bridge.graph.training)
            self.run_started.emit(run)
        return self.history.current

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            self.state_changed.emit(state)

    # ----- actions ---------------------------------------------------------------------------------------
    def train(self, steps: int | None = None) -> None:
        """Start (or resume) training for ``steps`` more steps (default: the document's ``steps``)."""
        if self.state == "training":
            return
        if self.state != "paused" or steps is not None:
            self.target = int(steps if steps is not None else self.bridge.graph.training.get("steps") or 100)
            self.done = 0
        self._times.clear()
        self._slice_end, self._outside = None, 0.0
        self._set_state("training")
        self._timer.start()

    def pause(self) -> None:
        if self.state == "training":
            self._timer.stop()
            self._set_state("paused")

    def step(self) -> dict | None:
        """One full iteration now (training stays paused)."""
        self.pause()
        return self._one_step()

    def reset(self) -> None:
        """Stop, re-initialise the parameters from their seeds and begin a new run on the next step."""
        self._timer.stop()
        self.bridge.run("reset")
        self.stop_conditions.reset()
        self._new_run = True
        self.done = 0
        self._set_state("idle")

    def retune(self, text: str) -> None:
        """The document's hyperparameters changed: apply them to the live optimizer, mark the plots."""
        if self.bridge.session is not None:
            retune(self.bridge.session)
        if self.history.current is not None and not self._new_run:
            self.history.current.mark(text)

    def set_device(self, device: str) -> None:
        """Compute on ``device`` from the next step on (layer nodes move their modules, keeping their state)."""
        if self.bridge.session is not None and self.bridge.session.device != device:
            self.bridge.session.device = device
            self.bridge.session._optimizer = None  # rebuilt over the moved parameters
            if self.history.current is not None and not self._new_run:
                self.history.current.mark(f"device → {device}")

    # ----- the slices ------------------------------------------------------------------------------------------
    def _one_step(self) -> dict | None:
        session = self.session
        listener = self.bridge._on_event
        session.unsubscribe(listener)  # one train event per step would flood the window: views poll instead
        try:
            metrics = next(session.train(1), None)
        finally:
            session.subscribe(listener)
        if metrics is None:
            return None
        self.run.add(metrics)
        self.done += 1
        self._times.append(time.perf_counter())
        message = self.stop_conditions.check(metrics)
        if message is not None:
            self._finish({"message": message, "node": metrics.get("node")})
        return metrics

    def _slice(self) -> None:
        start = time.perf_counter()
        if self._slice_end is not None:  # time the event loop spent elsewhere (redraws): 1/9 of the slice
            self._outside = 0.8 * self._outside + 0.2 * (start - self._slice_end)
        budget = min(max(self.SLICE_S, 9.0 * self._outside), self.MAX_SLICE_S)
        while self.state == "training" and self.done < self.target:
            if self._one_step() is None or time.perf_counter() - start > budget:
                break
        self._slice_end = time.perf_counter()
        if self.state == "training" and self.done >= self.target:
            self._finish(None)
        now = time.perf_counter()
        if self.state != "training" or now - self._last_progress > self.PROGRESS_S:
            self._last_progress = now
            self.progress.emit(self.progress_info())

    def _finish(self, stop) -> None:
        self._timer.stop()
        self._set_state("idle")
        if stop is not None:
            self.history.current.mark(stop["message"])
            self.stopped.emit(stop)

    def progress_info(self) -> dict:
        rate = 0.0
        if len(self._times) > 1 and self._times[-1] > self._times[0]:
            rate = (len(self._times) - 1) / (self._times[-1] - self._times[0])
        left = max(self.target - self.done, 0)
        return {"done": self.done, "total": self.target, "rate": rate,
                "eta": left / rate if rate > 0 else None, "state": self.state}
