"""Drives a session's training in short slices on the window's worker, so the window never freezes.

Why slices: between two slices the session is at rest and the event loop runs with the whole window usable: Pause,
Step, Reset, a hyperparameter or device change and graph edits all apply between two steps, and views read consistent
data. Each slice computes on the window's one worker thread (``gui.worker_slices``, shared with the step runner's
Forward/Backward all), and the GUI thread waits for it as long as a short slice takes: a toy step is done when the
slice returns, as it was when slices ran here. A slice still computing after ``WorkerSlices.WAIT_S`` (a step of lesson
1's 32x3x224x224 convolution, a wide MLP) hands the GUI thread back to the event loop: the window goes busy (the
graph's edits and the Train dock greyed but its Pause; zoom, Esc and the plots keep answering), and stays busy from one
such slice to the next until training pauses or stops. Pause or Esc then stops after the step in flight.

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
from collections.abc import Callable, Generator
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QObject, QTimer, Signal

from core.nodegraph.run.training_state import saved_history
from core.nodegraph.training.runs import Metrics, Run, RunHistory, StopConditions, StopInfo
from core.nodegraph.training.trainview import retune
from gui.worker_slices import WorkerSlices

if TYPE_CHECKING:
    from core.nodegraph.model.events import SessionEvent
    from core.nodegraph.run.session import Session
    from gui.session_bridge import SessionBridge

__all__ = ["Trainer"]

# a slice's steps done, its last metrics, its last good metrics, and the stop it hit
_Pulled = tuple[int, "Metrics | None", "Metrics | None", "StopInfo | None"]


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

    def __init__(self, bridge: SessionBridge, parent: QObject | None = None,
                 worker: WorkerSlices | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("trainer")
        self.bridge = bridge
        self.worker = worker if worker is not None else WorkerSlices(bridge, self)  # the window's one worker
        self._in_flight = False  # a slice of ours computes on the worker while the event loop runs
        self._pause_asked = False  # Pause while it did: training pauses once that slice is in
        self.long_steps = False  # the last slice went long (computed while the window was busy)
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
            if state != "training":
                self.long_steps = False
                self.worker.keep_busy(self, False)
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

    def pause(self, wait: bool = False) -> None:
        """Stop after the step in progress: at once, or, while a long slice computes on the worker, once it is in
        (``wait``: wait for it here). After a replayed step one more step runs, eagerly, so the paused
        session shows the per-node autograd graph and a finished pass (``Training.finish``)."""
        if self._in_flight and not wait:
            self._pause_asked = self.state == "training"
            self.worker.halt.set()  # the worker pulls no step after the one in flight
            return
        self._settle()
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
        """One full iteration (training stays paused); it runs eagerly, as the last step of a call does, on the
        worker: its metrics are returned when it was done at once, else None (``progress`` says when it is in)."""
        self.pause(wait=True)
        if self.state != "paused" and self.target:  # a step of its own after a Train: no Train's count to advance
            self.done = self.target = 0  # ("n steps · loss"); a paused Train's step counts towards its steps
        self._zero_grad = True
        self._times.clear()  # a step by hand has no rate: the time since Pause made "7 steps/s" of a 140 steps/s run
        self.session.trainer.finish()
        out: list[Metrics | None] = []

        def stepped(metrics: Metrics | None) -> None:
            self._close_steps()
            self.progress.emit(self.progress_info())
            out.append(metrics)

        self._advance(0.0, 1, stepped)
        return out[0] if out else None

    def reset(self) -> None:
        """Stop, re-initialise the parameters from their seeds and begin a new run on the next step."""
        self._timer.stop()
        self._settle()
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
        self._settle()
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
        self._settle()
        if self.bridge.session is not None:
            retune(self.bridge.session)
        if self.history.current is not None and not self._new_run:
            self.history.current.mark(text)

    def switch_optimizer(self) -> None:
        """The document's optimizer changed: the next step builds it; the current run marks the switch and its
        legend names both (``Run.switch_optimizer``)."""
        self._settle()
        if self.bridge.session is not None:
            retune(self.bridge.session)
        if self.history.current is not None and not self._new_run:
            self.history.current.switch_optimizer(self.bridge.graph.training)

    def set_device(self, device: str) -> None:
        """Compute on ``device`` from the next step on: the session moves every tensor it holds and keeps its
        values, gradients, step count and optimizer state (``Session.to``)."""
        self._settle()
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

    def _settle(self) -> None:
        """Wait for a slice of ours computing on the worker and apply it: the session is at rest after."""
        if self._in_flight:
            self.worker.settle()

    def _one_step(self) -> Metrics | None:
        """One step here on the GUI thread (the step after a replay that Pause runs eagerly)."""
        self._settle()
        out: list[Metrics | None] = []
        self._advance(0.0, 1, out.append, here=True)
        return out[0] if out else None

    def _advance(self, budget: float, left: int, then: Callable[[Metrics | None], None], here: bool = False) -> None:
        """Up to ``left`` steps for about ``budget`` seconds (one at least) on the window's worker (``here``: on this
        thread), then ``then`` with the last step's metrics (an error dict when an error ended them, None when the
        session had no step to give) on the GUI thread."""
        live = self._live_steps()
        if live is None:
            then(None)
            return
        session, steps = live
        run, listener = self.run, self.bridge._on_event
        run.use_optimizer(session.graph.training)  # what these steps' optimizer is built or retuned from
        session.unsubscribe(listener)  # one train event per step would flood the window: views poll instead
        self._stepping = True

        def done(pulled: _Pulled) -> None:
            self._in_flight = False
            self._pulled(session, pulled, then)

        if here:
            self.worker.halt.clear()
            done(self._pull(session, steps, run, budget, left))
            return
        self._in_flight = True
        self.worker.run(lambda: self._pull(session, steps, run, budget, left), done)

    def _pull(self, session: Session, steps: Generator[Metrics, None, None], run: Run, budget: float,
              left: int) -> _Pulled:
        """The steps themselves, on the worker; touches no Qt object. The loop keeps what it needs in locals and
        calls nothing per step but the session's generator, ``Run.add`` and the stop check (a toy step is ~350 us:
        every us counts)."""
        end = time.perf_counter() + budget
        stop_info, times, clock, halt = self.stop_conditions.stop_info, self._times, time.perf_counter, self.worker.halt
        done, stop, metrics, good = 0, None, None, None
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
            if stop is not None or now > end or halt.is_set():
                break
        return done, metrics, good, stop

    def _pulled(self, session: Session, pulled: _Pulled, then: Callable[[Metrics | None], None]) -> None:
        """Back on the GUI thread after a slice: count its steps, say a stop, then ``then``."""
        done, metrics, good, stop = pulled
        self._stepping = False
        self.done += done
        if good is not None:
            self.last_loss = good.get("loss")
        session.subscribe(self.bridge._on_event)
        if metrics is None or "error" in metrics:  # no step to give, or an error: no step for the run or the count
            self._close_steps()
            if metrics is not None:
                self._times.append(time.perf_counter())
                stop = self.stop_conditions.stop_info(metrics, session)
            elif self.state == "training":
                self._finish(None)
        if stop is not None:
            self._finish(stop)
        then(metrics)

    def _slice(self) -> None:
        """The timer's slice of training: on the worker, so a long step leaves the window answering."""
        if self._in_flight:
            return
        cpu = time.process_time()  # CPU time: the load of other processes on the machine is not ours
        if self._slice_end is not None:  # what the event loop did since the last slice: redraws, paints...
            self._outside += cpu - self._slice_end
            self.cpu["gui"] += cpu - self._slice_end
        if self.state == "training" and self.done < self.target:
            self._timer.stop()  # no zero-interval turns while the worker computes (it would wait in line for them)
            self._advance(self.SLICE_S, self.target - self.done, lambda _m: self._slice_done(cpu))
        else:
            self._slice_done(cpu)

    def _slice_done(self, cpu: float) -> None:
        self._slice_end = time.process_time()
        self.cpu["steps"] += self._slice_end - cpu
        if self.state == "training" and self.done >= self.target:
            self._finish(None)
        if self._pause_asked:  # Pause or Esc while the slice computed: now it is in
            self._pause_asked = False
            self.pause()
        if self.state != "training":
            self.progress.emit(self.progress_info())
            return
        self.long_steps = self.worker.late  # the steps are long: each slice is drawn whole (``FramePacer``)
        self.worker.keep_busy(self, self.long_steps)  # and the window stays busy from one to the next
        if self.long_steps:
            self.progress.emit(self.progress_info())  # which opens the Plots dock after the first step:
            QTimer.singleShot(0, self._long_frame)  # the frame once it is laid out, then the next slice
            return
        self._timer.start()
        if self._slice_end >= self._next_frame:
            self._pace(self._slice_end)
            self.frame.emit()
            now = time.perf_counter()
            if now - self._progress_at >= self.PROGRESS_S:  # progress is a redraw too: a few times a second
                self._progress_at = now
                self.progress.emit(self.progress_info())

    def _long_frame(self) -> None:
        """After a long slice: every view shows it, then the next slice computes."""
        if self.state == "training" and not self._in_flight:
            self.frame.emit()
            self._timer.start()

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
        run = self.current_run
        return {"done": self.done, "total": self.target, "rate": rate, "loss": self.last_loss,
                "run_steps": 0 if run is None else len(run),  # the current run's steps, Train's and Step's
                "eta": left / rate if rate > 0 else None, "state": self.state,
                "step_mode": "" if session is None else session.trainer.step_mode,  # captured or eager, and why
                "replayed_before": (0, 0) if session is None else session.trainer.replayed_before_last}


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
