"""The canvas with a 500-node graph: load-to-visible time, and repaint time after a pan and a zoom.

Builds 500 nodes (tensor sources feeding chains of math.add / math.mul, 10 per row), saves them to a
temporary file, then times opening the file in the main window until it has painted, and the median
time to repaint the whole viewport after a pan and after a zoom. Targets: repaint under 16 ms a frame.
Run: ``QT_QPA_PLATFORM=offscreen PYTHONPATH=. python benchmarks/bench_gui_canvas.py [repeats]``.
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

from PySide6.QtWidgets import QApplication

import core.nodegraph.nodes  # noqa: F401 - registers the node types
from core.nodegraph import files
from core.nodegraph.document import Edge, Graph, Node

FRAME_S = 0.016


def big_graph(n: int = 500) -> Graph:
    g = Graph()
    for i in range(n):
        nid = f"n{i + 1}"
        pos = ((i % 10) * 240.0, (i // 10) * 140.0)
        if i % 10 == 0:
            g.add_node(Node(nid, "source.tensor", {"tensor": [1.0, 2.0]}, pos))
        else:
            g.add_node(Node(nid, "math.add" if i % 2 else "math.mul", {}, pos))
            g.connect(Edge(f"n{i}", "out", nid, "a"))
            g.connect(Edge(f"n{i - (i % 10) + 1}", "out", nid, "b"))
    return g


def repaint_time(window, action, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        action()
        start = time.perf_counter()
        window.view.viewport().repaint()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main(repeats: int = 20) -> None:
    app = QApplication.instance() or QApplication([])
    from gui.main_window import MainWindow  # noqa: PLC0415

    path = os.path.join(tempfile.mkdtemp(), "big.json")
    files.save(big_graph(), path)
    start = time.perf_counter()
    window = MainWindow()
    window.open_path(path)
    window.show()
    app.processEvents()
    print(f"load-to-visible (500 nodes): {time.perf_counter() - start:.3f} s")
    window.view.resetTransform()
    bar = window.view.horizontalScrollBar()
    pan = repaint_time(window, lambda: bar.setValue(bar.value() + 40), repeats)
    zoom = repaint_time(window, lambda: window.view.zoom(1.05 if window.view.zoom_level() < 1.5 else 0.5), repeats)
    for name, t in (("pan", pan), ("zoom", zoom)):
        verdict = "ok" if t < FRAME_S else "MISSED: over the 16 ms frame"
        print(f"repaint after {name}: {t * 1000:.1f} ms ({verdict})")
    window.view.fit_all()
    overview = repaint_time(window, lambda: None, repeats)
    verdict = "ok" if overview < FRAME_S else "MISSED: over the 16 ms frame"
    print(f"repaint of the whole graph (fit all): {overview * 1000:.1f} ms ({verdict})")
    window.undo_stack.setClean()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 20)
