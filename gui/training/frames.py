"""Paces the views' redraws while training, so they refresh steadily without slowing training down.

Out of training each view polls on its own timer. While training, those timers stop and the trainer's
``frame`` signal (emitted between slices at a rate the trainer adapts to what frames cost) redraws ONE
view per frame: the visible one most overdue for its own period. One view per frame keeps each pause of
training short (the event loop's latency is one slice plus one redraw), and hidden views (a tab behind
another, a closed dock) cost nothing. When the steps are long (``Trainer.long_steps``: a slice of them computed while
the window was busy), each frame follows a step of a second or more and redraws every visible view: a redraw is cheap
beside such a step, and the plots show each step as it comes in.

Views of one widget (the five training plots) form a ``group``: when one of them redraws, the others of
its group that are due redraw in the same frame. Their paint is one paint of the widget, the part that
costs (all five plots 10-14 ms, the loss plot alone 8-10 ms); drawn one per frame, the learning-rate,
gradient-norm and update plots waited behind the loss plot and showed nothing until training paused.

A view added with ``at_start`` (the plots) is due on the first frame of a run, then keeps its period: the
learning-rate plot (every 2 s) stayed empty for the first 2 s of training.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from PySide6.QtCore import QTimer

if TYPE_CHECKING:
    from gui.training.trainer import Trainer

__all__ = ["FramePacer"]


@dataclass
class _View:
    name: str
    period: float
    redraw: Callable[[], object]
    visible: Callable[[], bool]
    timer: QTimer | None = None
    group: str | None = None
    at_start: bool = False  # due on a run's first frame (its first points show at once), then every period
    last: float = field(default=0.0)


class FramePacer:
    """Registers views (``add``) and redraws them on the trainer's frames while it trains."""

    def __init__(self, trainer: Trainer) -> None:
        self.views: list[_View] = []
        self.redraws: dict[str, int] = {}  # name -> redraws during training (for tests and the benchmark)
        self.trainer = trainer
        trainer.frame.connect(self.on_frame)
        trainer.state_changed.connect(self.on_state)

    def add(self, name: str, period: float, redraw: Callable[[], object], visible: Callable[[], bool] = lambda: True,
            timer: QTimer | None = None, group: str | None = None, at_start: bool = False) -> None:
        """``redraw()`` at most every ``period`` seconds while ``visible()``; ``timer`` (the view's own poll)
        is stopped during training; views of one ``group`` that are due redraw together; an ``at_start`` view
        redraws on the first frame after training starts too."""
        self.views.append(_View(name, period, redraw, visible, timer, group, at_start))

    def on_state(self, state: str) -> None:
        now = time.perf_counter()
        for view in self.views:
            if state == "training":  # each view drew on its own before: its next redraw is a period away, but
                view.last = now - view.period if view.at_start else now  # an at_start one's comes at once
            if view.timer is None:
                continue
            if state == "training":
                view.timer.stop()
            elif not view.timer.isActive():
                view.timer.start()

    def on_frame(self) -> None:
        now = time.perf_counter()
        if self.trainer.long_steps:  # a frame after a long step (seconds, on the worker): every visible view shows it
            for view in self.views:
                if view.visible():
                    self._redraw(view, now)
            return
        due = [(now - v.last) / v.period for v in self.views]
        order = sorted(range(len(self.views)), key=lambda i: -due[i])
        for i in order:
            view = self.views[i]
            if due[i] < 1.0:
                return
            if view.visible():
                self._redraw(view, now)
                for j, other in enumerate(self.views):
                    if other is not view and other.group is not None and other.group == view.group and due[j] >= 1.0:
                        self._redraw(other, now)
                return

    def _redraw(self, view: _View, now: float) -> None:
        view.last = now
        view.redraw()
        self.redraws[view.name] = self.redraws.get(view.name, 0) + 1
