"""Training the toy classifier from the GUI (live plots, data view, canvas previews on) vs headless.

Prints steps/s both ways, their ratio (target: GUI >= 90% of headless), the event loop's worst latency
during GUI training, measured by a 10 ms probe timer (target: < 50 ms), and how often each view redrew.
A headless session and the window train the same steps in turn (``steps`` more each time, the same
seeds and so the same trajectory: a run's steps get slower as it converges), each side first every other
time, and each GUI chunk is compared with the headless chunk beside it, so a machine shared with other
work skews both sides alike; the verdicts use the medians over ``repeats``. On a busy machine
even two headless runs differ by 10-20%, so it also prints what load cannot skew: the share of the
window's CPU time that went to training steps (the trainer's own accounting) and steps per CPU second.
Run: QT_QPA_PLATFORM=offscreen PYTHONPATH=. python benchmarks/bench_gui_training.py [steps] [repeats]
"""

from __future__ import annotations

import os
import statistics
import sys
import time

from PySide6.QtCore import QEventLoop, Qt, QTimer
from PySide6.QtWidgets import QApplication

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from gui.main_window import MainWindow

PROBE_MS = 10
SETTLE_MS = 500


class Headless:
    """The same training without a window; ``chunk(steps)`` trains on, like the window does (a run slows as it
    converges, so both sides must be at the same step to compare)."""

    def __init__(self):
        self.session = Session(classifier_graph())
        list(self.session.train(5))

    def chunk(self, steps: int) -> tuple:
        """(steps per second, steps per CPU second) of ``steps`` more steps."""
        start, cpu = time.perf_counter(), time.process_time()
        for _ in self.session.train(steps):
            pass
        return steps / (time.perf_counter() - start), steps / (time.process_time() - cpu)


def _wait(ms: int) -> None:
    loop = QEventLoop()
    QTimer.singleShot(ms, loop.quit)
    loop.exec()


class GuiRun:
    """One window training the classifier with every dock on; ``chunk(steps)`` trains on and measures."""

    def __init__(self):
        self.app = QApplication.instance() or QApplication([])
        self.window = MainWindow(classifier_graph())
        self.window.show()
        self.window.training.docks["data"].raise_()
        self.trainer = self.window.training.trainer
        self.loop = QEventLoop()
        self.trainer.state_changed.connect(lambda s: self.loop.quit() if s == "idle" else None)
        self.trainer.train(5)
        self.loop.exec()
        _wait(SETTLE_MS)  # the docks' first paints are the window's opening, not training's doing

    def chunk(self, steps: int) -> tuple:
        """(steps/s, steps per CPU second, the share of the window's CPU time that went to training steps,
        worst probe latency in ms, {view: redraws per second}) of ``steps`` more steps."""
        frames = self.window.training.frames
        frames.redraws.clear()
        self.trainer.cpu.update(steps=0.0, gui=0.0)
        ticks = []
        probe = QTimer()
        probe.setTimerType(Qt.PreciseTimer)
        probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
        probe.start(PROBE_MS)
        start = time.perf_counter()
        self.trainer.train(steps)
        self.loop.exec()
        elapsed = self.trainer.last_step_time - start  # training's time: the redraw after it is not training
        split = self.trainer.cpu  # CPU seconds in steps and between them, from the first slice to the last
        cpu = split["steps"] + split["gui"]
        probe.stop()
        gaps = [b - a for a, b in zip(ticks, ticks[1:])]
        worst = (max(gaps) * 1000 - PROBE_MS) if gaps else float("nan")
        share = split["steps"] / cpu
        return steps / elapsed, steps / cpu, share, worst, {k: v / elapsed for k, v in frames.redraws.items()}

    def close(self) -> None:
        self.window.undo_stack.clear()
        self.window.close()
        self.app.processEvents()


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 3000  # about a second: long enough for every view to redraw
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 9
    run, headless = GuiRun(), Headless()
    ratios, cpu_ratios, shares, rates, hs, worsts = [], [], [], [], [], []
    for i in range(repeats):  # both train the same steps (same seeds: the same trajectory), in turn first
        if i % 2:
            g, g_cpu, share, worst, redraws = run.chunk(steps)
            h, h_cpu = headless.chunk(steps)
        else:
            h, h_cpu = headless.chunk(steps)
            g, g_cpu, share, worst, redraws = run.chunk(steps)
        shares.append(share)
        ratios.append(g / h)
        cpu_ratios.append(g_cpu / h_cpu)
        rates.append(g)
        hs.append(h)
        worsts.append(worst)
        views = ", ".join(f"{k} {v:.1f}" for k, v in sorted(redraws.items()))
        print(f"repeat {i + 1}: headless {h:7.1f} steps/s, GUI {g:7.1f} steps/s ({100 * g / h:3.0f}%; per CPU second "
              f"{100 * g_cpu / h_cpu:3.0f}%; CPU in steps {100 * share:.0f}%), worst latency {worst:5.1f} ms; "
              f"redraws/s: {views}")
    run.close()
    ratio, worst = statistics.median(ratios), statistics.median(worsts)
    print(f"load average: {' '.join(f'{x:.1f}' for x in os.getloadavg())} on {os.cpu_count()} CPUs")
    print(f"headless: {statistics.median(hs):8.1f} steps/s (median of {repeats})")
    cpu_ratio, share = statistics.median(cpu_ratios), statistics.median(shares)
    print(f"GUI     : {statistics.median(rates):8.1f} steps/s  ({100 * ratio:.0f}% of headless, median of {repeats}, "
          f"best {100 * max(ratios):.0f}%; target >= 90%: {'ok' if ratio >= 0.9 else 'MISSED'})")
    print(f"GUI per CPU second: {100 * cpu_ratio:.0f}% of headless (median of {repeats}; target >= 90%: "
          f"{'ok' if cpu_ratio >= 0.9 else 'MISSED'})")
    print(f"share of the window's CPU time spent in training steps (the rest: redraws, paints, event loop): "
          f"{100 * share:.1f}% (median of {repeats}; target >= 90%: {'ok' if share >= 0.9 else 'MISSED'})")
    print(f"worst event-loop latency during GUI training: {worst:.1f} ms (median of {repeats}, best {min(worsts):.1f}, "
          f"max {max(worsts):.1f}; target < 50 ms: {'ok' if worst < 50 else 'MISSED'})")


if __name__ == "__main__":
    main()
