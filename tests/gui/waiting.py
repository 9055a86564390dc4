"""Waiting for conditions instead of times, so GUI tests pass on a busy machine (CI has two shared cores).

- ``event_loop_turns``: let the event loop run a number of passes, for a check that something does NOT happen
  (a paused trainer takes no step): every live zero-delay timer gets as many chances to fire, however slow
  the machine.
- ``wait_until_layouts_settle``: return once the window's own layout requests have stopped coming, before a
  test counts the layout requests its action causes.
- ``timer_ticks``: the times at which a 100 ms timer fired, ``count`` of them, to measure responsiveness.
"""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer
from PySide6.QtWidgets import QApplication

__all__ = ["event_loop_turns", "timer_ticks", "wait_until_layouts_settle"]


def event_loop_turns(qtbot, turns: int = 20) -> None:
    """Return after a zero-delay timer re-armed itself ``turns`` times (each time one pass of the event loop)."""
    fired = []

    def tick():
        fired.append(None)
        if len(fired) < turns:
            QTimer.singleShot(0, tick)

    QTimer.singleShot(0, tick)
    qtbot.waitUntil(lambda: len(fired) >= turns, timeout=30_000)


class _LayoutSpy(QObject):
    def __init__(self, objects):
        super().__init__()
        self.objects, self.seen = tuple(objects), 0

    def eventFilter(self, obj, event):  # Qt override
        if event.type() == QEvent.Type.LayoutRequest and obj in self.objects:
            self.seen += 1
        return False


def wait_until_layouts_settle(qtbot, objects, quiet_passes: int = 3) -> None:
    """Return once ``quiet_passes`` checks in a row saw no layout request on any of ``objects``."""
    spy, quiet = _LayoutSpy(objects), []
    app = QApplication.instance()
    app.installEventFilter(spy)

    def settled() -> bool:
        QApplication.processEvents()
        quiet.append(spy.seen == 0)
        spy.seen = 0
        return len(quiet) >= quiet_passes and all(quiet[-quiet_passes:])

    try:
        qtbot.waitUntil(settled, timeout=30_000)
    finally:
        app.removeEventFilter(spy)


def timer_ticks(qtbot, count: int, interval_ms: int = 100) -> list:
    """``time.perf_counter()`` at each of ``count`` timeouts of a timer started now with ``interval_ms``."""
    ticks = []
    timer = QTimer()
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start(interval_ms)
    try:
        qtbot.waitUntil(lambda: len(ticks) >= count, timeout=60_000)
    finally:
        timer.stop()
    return ticks
