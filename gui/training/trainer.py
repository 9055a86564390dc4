"""Drives a session's training from the GUI thread in short slices, so the window never freezes.

Why slices and not a worker thread: the session is plain Python, so a worker would share the GIL with
the GUI (every redraw would still stop training, and the GUI thread would wait up to the interpreter's
switch interval for each Python call it makes), and the GUI could not read the session while the worker
mutates it. In slices, the session is only ever touched by one thread and is at rest whenever the event
loop runs: Pause, Step, Reset, a hyperparameter or device change and graph edits all apply between two
steps, and views read consistent data.

Each slice pulls whole steps (zero_grad, forward, backward, optimizer) from one live ``Session.train``
generator (so a step costs what it costs headless) for about ``SLICE_S`` seconds, appends their metrics
to the current ``Run`` of a ``RunHistory`` and returns to the event loop; a zero-interval timer schedules
the next slice. Redraws are paced by the trainer: it adds up the CPU time the event loop spends between
slices (redraws, the paints they cause, other timers) and, when a frame is due, emits ``frame`` (views
redraw on it while training, see ``gui.training.frames``; ``progress`` rides on it every ``PROGRESS_S``)
and spaces the next frame so that this GUI time stays about ``GUI_SHARE`` of all.
The trainer computes nothing: the session does; stop conditions and bookkeeping are ``core.nodegraph.training.runs``.

Every view shows the current document and run: a session reset (the Train dock's Reset, Run ▸ Reset, a
lesson's reset link) begins a new run and sets the progress back; another document (New, Open, a lesson)
stops training and forgets the runs (``history_cleared``), so the plots start empty, or with the runs the opened
file saved (the session saves the trainer's runs with its training position).
"""

from __future__ import annotations

import gc
import time
from collections import deque
from collections.abc import Generator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from core.nodegraph.run.training_state import saved_history
from core.nodegraph.training.runs import Metrics, Run, RunHistory, StopConditions, StopInfo
from core.nodegraph.training.trainview import retune

if TYPE_CHECKING:
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.run.session import Session
    from gui.session_bridge import SessionBridge

__all__ = ["Trainer"]


class Trainer(QObject):
    """Train / pause / step / reset on the window's session bridge, keeping every run.

    Signals: ``state_changed(str)`` ("idle", "training", "paused"), ``progress(object)`` (a dict with
    ``done``, ``total``, ``rate`` steps/s, ``eta`` seconds and the latest step's ``loss``),
    ``stopped(object)`` (``{"message", "node"}`` when a stop condition or an error ended training; ``node`` is
    the graph node to show, for NaN/Inf the first one that produced it), ``run_started(object)`` (the new
    Run), ``frame()`` (time to redraw, while training).
    """

    SLICE_S = 0.015  # steps per slice: the event loop waits at most this long (plus one step) for training
    GUI_SHARE = 0.025  # redraws get about this share of the time while training
    FRAME_S = 0.05  # at most 20 frames per second (of CPU time)
    MAX_FRAME_S = 0.5  # at least two frames per second, whatever a redraw costs
    PROGRESS_S = 0.25  # the progress bar and its line update on frames at most this often (wall seconds)
    state_changed = Signal(str)
    progress = Signal(object)
    stopped = Signal(object)
    run_started = Signal(object)
    frame = Signal()
    history_cleared = Signal()
    history_restored = Signal()  # an opened document's file saved the runs its plots drew: they are back

    def __init__(self, bridge: SessionBridge, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trainer")
        self.bridge = bridge
        self.history = RunHistory()
        self.stop_conditions = StopConditions()
        self.state = "idle"
        self.target = 0
        self.done = 0
        self.last_loss: float | None = None  # the latest step's loss, from the session's metrics
        self._new_run = True
        self._zero_grad = True  # the steps zero the gradients first (False: lesson 6's loop that forgets to)
        # (session, its live train generator) between slices
        self._steps: tuple[Session, Generator[Metrics, None, None]] | None = None
        self._stepping = False  # inside that generator (its own events must not close it)
        self._times: deque[float] = deque(maxlen=64)
        self._next_frame = 0.0
        self._slice_end: float | None = None
        self._outside = 0.0
        self._progress_at = 0.0
        self.frame_cost: float | None = None  # smoothed CPU seconds the GUI spent per frame (redraws, paints, the rest)
        self.cpu = {"steps": 0.0, "gui": 0.0}  # CPU seconds in training steps and between them, while training
        self._timer = QTimer(self)
        self._timer.setObjectName("trainSliceTimer")
        self._timer.setInterval(0)
        self._timer.timeout.connect(self._slice)
        bridge.stepped.connect(self._on_outside_event)
        bridge.document_changed.connect(self.forget)
        bridge.session_created.connect(self._keep_runs_with)
        if bridge.session is not None:
            self._keep_runs_with(bridge.session)

    def _keep_runs_with(self, session: Session) -> None:
        """The session saves the runs the plots draw with where its training stands (``Session.run_history``)."""
        session.run_history = self.history

    @property
    def session(self) -> Session:
        return self.bridge.ensure()

    @property
    def current_run(self) -> Run | None:
        """The run the session's latest steps went to; None after a reset (or before any step), until a step
        begins the next one."""
        return None if self._new_run else self.history.current

    @property
    def run(self) -> Run:
        """The run new steps go to (started on the first step after a reset)."""
        if self._new_run or self.history.current is None:
            self._new_run = False
            run = self.history.new_run(self.bridge.graph.training)
            if not self._zero_grad:  # lesson 6's bug: the plots say which run forgot it
                run.mark("without zero_grad")
            self.run_started.emit(run)
            return run  # the history's current run now
        return self.history.current

    def _set_state(self, state: str) -> None:
        if state != self.state:
            self.state = state
            _collect_young_only(self, state == "training")
            self.state_changed.emit(state)

    # ----- actions ---------------------------------------------------------------------------------------
    def train(self, steps: int | None = None, zero_grad: bool = True) -> None:
        """Start (or resume) training for ``steps`` more steps (default: the document's ``steps``); ``zero_grad=False``
        runs the loop that forgets ``optimizer.zero_grad()`` (lesson 6), recorded and plotted as any run."""
        if self.state == "training":
            return
        if self.state != "paused" or steps is not None:
            self.target = int(steps if steps is not None else self.bridge.graph.training.get("steps") or 100)
            self.done = 0
            self._zero_grad = zero_grad
        self._times.clear()
        self._slice_end, self._outside, self._progress_at = None, 0.0, 0.0
        self._next_frame = time.process_time() + self.FRAME_S
        self._set_state("training")
        self._timer.start()

    def pause(self) -> None:
        """Stop after the step in progress. After a replayed step one more step runs, eagerly, so the paused
        session shows the per-node autograd graph and a finished pass (``Training.finish``)."""
        if self.state == "training":
            self._timer.stop()
            if self._steps is not None and self.session.trainer.replayed:
                self.session.trainer.finish()
                self._one_step()
                if self.state != "training":  # that step hit a stop condition: training is over, not paused
                    return
            self._close_steps()
            self._set_state("paused")
            self.progress.emit(self.progress_info())  # the count and loss where it paused, not a frame's older ones

    def step(self) -> Metrics | None:
        """One full iteration now (training stays paused); it runs eagerly, as the last step of a call does."""
        self.pause()
        self._zero_grad = True
        self.session.trainer.finish()
        metrics = self._one_step()
        self._close_steps()
        self.progress.emit(self.progress_info())
        return metrics

    def reset(self) -> None:
        """Stop, re-initialise the parameters from their seeds and begin a new run on the next step."""
        self._timer.stop()
        self._close_steps()
        self.bridge.run("reset")  # the session's reset event starts the new run (_begin_new_run)
        self._set_state("idle")

    def _begin_new_run(self) -> None:
        self.stop_conditions.reset()
        self._new_run = True
        self.done = self.target = 0
        self.last_loss = None
        self.progress.emit(self.progress_info())

    def forget(self) -> None:
        """Another document: training stops and its runs are forgotten (the plots start empty), then the runs its
        file saved come back (``training_state.saved_history``): the plots draw them again, and the next step
        goes on with the last one, where the file's training stopped."""
        was_training = self.state == "training"
        self._timer.stop()
        self._close_steps()
        self.history.runs.clear()
        self.history_cleared.emit()
        self._set_state("idle")
        if was_training:  # said before the new run's empty progress clears the Train dock's lines: the new
            # document never trained, and the dock kept "Stopped: another document was opened" beside it
            self.stopped.emit({"message": "stopped: another document was opened", "node": None})
        self._begin_new_run()
        if self.history.restore(saved_history(self.bridge.graph)):
            self._new_run = False
            self.history_restored.emit()

    def retune(self, text: str) -> None:
        """The document's hyperparameters changed: apply them to the live optimizer, mark the plots."""
        if self.bridge.session is not None:
            retune(self.bridge.session)
        if self.history.current is not None and not self._new_run:
            self.history.current.mark(text)

    def switch_optimizer(self) -> None:
        """The document's optimizer changed: the next step builds it; the current run marks the switch and its
        legend names both (``Run.switch_optimizer``)."""
        if self.bridge.session is not None:
            retune(self.bridge.session)
        if self.history.current is not None and not self._new_run:
            self.history.current.switch_optimizer(self.bridge.graph.training)

    def set_device(self, device: str) -> None:
        """Compute on ``device`` from the next step on: the session moves every tensor it holds and keeps its
        values, gradients, step count and optimizer state (``Session.to``)."""
        if self.bridge.session is not None and self.bridge.session.device != device:
            self._close_steps()
            self.bridge.session.to(device)
            if self.history.current is not None and not self._new_run:
                self.history.current.mark(f"device → {device}")

    # ----- the steps ------------------------------------------------------------------------------------------
    def _on_outside_event(self, event: SessionEvent) -> None:
        """The session did something besides training (a step by the user, a recompute after an edit): the
        next training step starts a fresh ``train`` call, which closes any backward left half done. A reset
        begins a new run."""
        if not self._stepping:
            self._close_steps()
            if event.phase == "reset":
                self._begin_new_run()

    def _close_steps(self) -> None:
        if self._steps is not None:
            steps, self._steps = self._steps[1], None
            steps.close()  # the session saves its optimizer state for stepping back

    def _live_steps(self) -> tuple[Session, Generator[Metrics, None, None]] | None:
        """The session and its live ``Session.train`` generator (opened over the steps left, kept across slices);
        None when another document was opened during training (which ends it)."""
        session = self.session
        if self._steps is not None and self._steps[0] is not session:  # another document was opened
            self._close_steps()
            if self.state == "training":
                self._finish({"message": "stopped: another document was opened", "node": None})
                return None
        if self._steps is None:
            self._steps = (session, session.train(max(self.target - self.done, 1), self._zero_grad))
        return self._steps

    def _one_step(self) -> Metrics | None:
        return self._advance(0.0, 1)

    def _run_slice(self, budget: float) -> None:
        if self.state == "training" and self.done < self.target:
            self._advance(budget, self.target - self.done)

    def _advance(self, budget: float, left: int) -> Metrics | None:
        """Up to ``left`` steps for about ``budget`` seconds (one at least); returns the last step's metrics (an
        error dict when an error ended them, None when the session had no step to give). The loop keeps what it
        needs in locals and calls nothing per step but the session's generator, ``Run.add`` and the stop check
        (a toy step is ~350 us: every us counts)."""
        end = time.perf_counter() + budget
        live = self._live_steps()
        if live is None:
            return None
        (session, steps), listener = live, self.bridge._on_event
        run, stop_info, times, clock = self.run, self.stop_conditions.stop_info, self._times, time.perf_counter
        run.use_optimizer(session.graph.training)  # what these steps' optimizer is built or retuned from
        done, stop, metrics, good = 0, None, None, None
        session.unsubscribe(listener)  # one train event per step would flood the window: views poll instead
        self._stepping = True
        try:
            while done < left:
                metrics = next(steps, None)
                if metrics is None or "error" in metrics:
                    break
                run.add(metrics)
                good = metrics
                done += 1
                now = clock()
                times.append(now)
                stop = stop_info(metrics, session)
                if stop is not None or now > end:
                    break
        finally:
            self._stepping = False
            self.done += done
            if good is not None:
                self.last_loss = good.get("loss")
            session.subscribe(listener)
        if metrics is None or "error" in metrics:  # no step to give, or an error: no step for the run or the count
            self._close_steps()
            if metrics is not None:
                times.append(clock())
                stop = stop_info(metrics, session)
            elif self.state == "training":
                self._finish(None)
        if stop is not None:
            self._finish(stop)
        return metrics

    def _slice(self) -> None:
        cpu = time.process_time()  # CPU time: the load of other processes on the machine is not ours
        if self._slice_end is not None:  # what the event loop did since the last slice: redraws, paints...
            self._outside += cpu - self._slice_end
            self.cpu["gui"] += cpu - self._slice_end
        self._run_slice(self.SLICE_S)
        self._slice_end = time.process_time()
        self.cpu["steps"] += self._slice_end - cpu
        if self.state == "training" and self.done >= self.target:
            self._finish(None)
        if self.state != "training":
            self.progress.emit(self.progress_info())
        elif self._slice_end >= self._next_frame:
            self._pace(self._slice_end)
            self.frame.emit()
            now = time.perf_counter()
            if now - self._progress_at >= self.PROGRESS_S:  # progress is a redraw too: a few times a second
                self._progress_at = now
                self.progress.emit(self.progress_info())

    def _pace(self, now: float) -> None:
        """Space the next frame so that all the GUI's work since the last one (this frame's redraws, the paints
        they cause, progress, other timers) is about ``GUI_SHARE`` of the time. Times are this process's CPU
        seconds, so a machine busy with other work changes neither side of the balance."""
        cost, self._outside = self._outside, 0.0
        self.frame_cost = cost if self.frame_cost is None else 0.6 * self.frame_cost + 0.4 * cost
        self._next_frame = now + min(max(self.frame_cost / self.GUI_SHARE, self.FRAME_S), self.MAX_FRAME_S)

    def _finish(self, stop: StopInfo | None) -> None:
        self._timer.stop()
        self._close_steps()
        self._set_state("idle")
        if stop is not None:
            run = self.history.current
            if run is not None and len(run) and not self._new_run:  # a stop before any step marks no plot
                run.mark(stop["message"])
            self.stopped.emit(stop)

    @property
    def last_step_time(self) -> float | None:
        """``time.perf_counter()`` when the latest step of this training finished (None before one)."""
        return self._times[-1] if self._times else None

    def progress_info(self) -> dict[str, Any]:
        rate = 0.0
        if len(self._times) > 1 and self._times[-1] > self._times[0]:
            rate = (len(self._times) - 1) / (self._times[-1] - self._times[0])
        left = max(self.target - self.done, 0)
        session = self.bridge.session
        return {"done": self.done, "total": self.target, "rate": rate, "loss": self.last_loss,
                "eta": left / rate if rate > 0 else None, "state": self.state,
                "step_mode": "" if session is None else session.trainer.step_mode}  # captured or eager, and why


_TRAINING: set[int] = set()  # ids of the trainers training now (several windows may train at once)


def _collect_young_only(trainer: Trainer, training: bool) -> None:
    """While training, the garbage collector's full passes skip the objects that lived before it started.

    The window holds some 90,000 tracked objects (Qt wrappers, plots, the document); a full collection walks
    them all and stopped training, and the event loop, for about 50 ms every ten thousand steps or so.
    ``gc.freeze`` sets them aside; ``gc.unfreeze`` once no window trains gives them back, so cycles among them
    (a closed document's, say) are still collected, just not while training."""
    if training:
        _TRAINING.add(id(trainer))
        gc.freeze()
    else:
        _TRAINING.discard(id(trainer))
        if not _TRAINING:
            gc.unfreeze()
