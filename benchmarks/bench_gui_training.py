"""Training the toy classifier from the GUI (live plots, data view, canvas previews on) vs headless.

Prints steps/s both ways, their ratio (target: GUI >= 90% of headless) and the event loop's worst
latency during GUI training, measured by a 10 ms probe timer (target: < 50 ms).
Run: QT_QPA_PLATFORM=offscreen PYTHONPATH=. python benchmarks/bench_gui_training.py [steps]
"""

from __future__ import annotations

import sys
import time

from PySide6.QtCore import QEventLoop, QTimer
from PySide6.QtWidgets import QApplication

from core.nodegraph.session import Session
from core.nodegraph.toy import classifier_graph
from gui.main_window import MainWindow

PROBE_MS = 10


def headless(steps: int) -> float:
    session = Session(classifier_graph())
    list(session.train(5))
    start = time.perf_counter()
    for _ in session.train(steps):
        pass
    return steps / (time.perf_counter() - start)


def gui(steps: int) -> tuple:
    app = QApplication.instance() or QApplication([])
    window = MainWindow(classifier_graph())
    window.show()
    window.training.docks["data"].raise_()
    trainer = window.training.trainer
    trainer.train(5)
    loop = QEventLoop()
    trainer.state_changed.connect(lambda s: loop.quit() if s == "idle" else None)
    loop.exec()
    ticks = []
    probe = QTimer()
    probe.timeout.connect(lambda: ticks.append(time.perf_counter()))
    probe.start(PROBE_MS)
    start = time.perf_counter()
    trainer.train(steps)
    loop.exec()
    elapsed = time.perf_counter() - start
    probe.stop()
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    window.undo_stack.clear()
    window.close()
    app.processEvents()
    return steps / elapsed, (max(gaps) * 1000 - PROBE_MS) if gaps else float("nan")


def main() -> None:
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    h = headless(steps)
    g, worst = gui(steps)
    print(f"headless: {h:8.1f} steps/s")
    print(f"GUI     : {g:8.1f} steps/s  ({100 * g / h:.0f}% of headless, target >= 90%)")
    print(f"worst event-loop latency during GUI training: {worst:.1f} ms (target < 50 ms)")


if __name__ == "__main__":
    main()
