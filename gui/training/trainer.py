"""Drives a session's training from the GUI thread in short slices, so the window never freezes.

Why slices and not a worker thread: the session is plain Python, so a worker would share the GIL with
the GUI (every redraw would still stop training, and the GUI thread would wait up to the interpreter's
switch interval for each Python call it makes), and the GUI could not read the session while the worker
mutates it. In slices, the session is only ever touched by one thread and is at rest whenever the event
loop runs: Pause, Step, Reset, a hyperparameter or device change and graph edits all apply between two
steps, and views read consistent data.

Each slice pulls whole steps (zero_grad, forward, backward, optimizer) from one live ``Session.train``
generator for about ``SLICE_S`` seconds, appends their metrics to the current ``Run`` of a ``RunHistory``
and returns to the event loop; a zero-interval timer schedules the next slice. Redraws are paced by the
trainer: when one is due it emits ``frame`` (views redraw on it while training, see
``gui.training.frames``), measures what that frame cost until the next slice starts (the redraw and the
paint it caused) and schedules the next frame so that redraws take about ``GUI_SHARE`` of the time.
The trainer computes nothing: the session does; stop conditions and bookkeeping are ``core.nodegraph.runs``.
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
    "node"}`` when a stop condition or an error ended training; ``node`` is the graph node to show, for
    NaN/Inf the first one that produced it), ``run_started(object)`` (the new Run), ``frame()`` (time to
    redraw, while training).
    """

    SLICE_S = 0.012  # steps per slice: the event loop waits at most this long (plus one step) for training
    GUI_SHARE = 0.06  # redraws get about this share of the time while training
    FRAME_S = 0.05  # at most 20 frames per second
    MAX_FRAME_S = 1.0  # at least one frame per second, whatever a redraw costs
    PROGRESS_S = 0.2
    state_changed = Signal(str)
    progress = Signal(object)
    stopped = Signal(object)
    run_started = Signal(object)
    frame = Signal()

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
        self._steps = None  # (session, its live train generator) between slices
        self._times: deque = deque(maxlen=64)
        self._last_progress = 0.0
        self._next_frame = 0.0
        self._frame_start = None
        self.frame_cost = None  # smoothed seconds a frame takes (redraw and paint)
        self._timer = QTimer(self)
        self._timer.setObjectName("trainSliceTimer")
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        bridge.stepped.connect(self._on_outside_event)

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
        self._frame_start = None
        self._next_frame = time.perf_counter() + self.FRAME_S
        self._set_state("training")
        self._timer.start()

    def pause(self) -> None:
        if self.state == "training":
            self._timer.stop()
            self._close_steps()
            self._set_state("paused")

    def step(self) -> dict | None:
        """One full iteration now (training stays paused)."""
        self.pause()
        metrics = self._one_step()
        self._close_steps()
        return metrics

    def reset(self) -> None:
        """Stop, re-initialise the parameters from their seeds and begin a new run on the next step."""
        self._timer.stop()
        self._close_steps()
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
            self._close_steps()
            self.bridge.session.device = device
            self.bridge.session._optimizer = None  # rebuilt over the moved parameters
            if self.history.current is not None and not self._new_run:
                self.history.current.mark(f"device → {device}")

    # ----- the steps ------------------------------------------------------------------------------------------
    def _on_outside_event(self, _event) -> None:
        """The session did something besides training (a step by the user, a recompute after an edit): the
        next training step starts a fresh ``train`` call, which closes any backward left half done."""
        self._close_steps()

    def _close_steps(self) -> None:
        if self._steps is not None:
            steps, self._steps = self._steps[1], None
            steps.close()  # the session saves its optimizer state for stepping back

    def _next_metrics(self) -> dict | None:
        """The next step's metrics from the live generator (opened over the steps left, kept across slices)."""
        session = self.session
        if self._steps is None or self._steps[0] is not session:
            self._close_steps()
            self._steps = (session, session.train(max(self.target - self.done, 1)))
        metrics = next(self._steps[1], None)
        if metrics is None or "error" in metrics:
            self._close_steps()
        return metrics

    def _one_step(self) -> dict | None:
        session = self.session
        listener = self.bridge._on_event
        session.unsubscribe(listener)  # one train event per step would flood the window: views poll instead
        try:
            return self._record(self._next_metrics())
        finally:
            session.subscribe(listener)

    def _record(self, metrics: dict | None) -> dict | None:
        if metrics is None:
            return None
        self.run.add(metrics)
        self.done += 1
        self._times.append(time.perf_counter())
        stop = self.stop_conditions.stop_info(metrics, self.session)
        if stop is not None:
            self._finish(stop)
        return metrics

    def _run_slice(self, budget: float) -> None:
        start = time.perf_counter()
        session = self.session
        listener = self.bridge._on_event
        session.unsubscribe(listener)
        try:
            while self.state == "training" and self.done < self.target:
                if self._record(self._next_metrics()) is None:  # the session had no step to give
                    self._finish(None)
                elif time.perf_counter() - start > budget:
                    break
        finally:
            session.subscribe(listener)

    def _slice(self) -> None:
        now = time.perf_counter()
        if self._frame_start is not None:  # the last frame's redraws and paints ran since the last slice
            cost = now - self._frame_start
            self.frame_cost = cost if self.frame_cost is None else 0.7 * self.frame_cost + 0.3 * cost
            pause = min(max(self.frame_cost / self.GUI_SHARE, self.FRAME_S), self.MAX_FRAME_S)
            self._next_frame = now + pause
            self._frame_start = None
        self._run_slice(self.SLICE_S)
        if self.state == "training" and self.done >= self.target:
            self._finish(None)
        now = time.perf_counter()
        if self.state != "training" or now - self._last_progress > self.PROGRESS_S:
            self._last_progress = now
            self.progress.emit(self.progress_info())
        if self.state == "training" and now >= self._next_frame:
            self._frame_start = time.perf_counter()
            self.frame.emit()

    def _finish(self, stop) -> None:
        self._timer.stop()
        self._close_steps()
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
