"""Starting the app's window: ``run(args)`` opens it (or renders ``--screenshot`` and exits).

``app.py`` calls ``run`` once its arguments are parsed; ``screenshot`` runs the requested steps on the window,
renders it to an image file and reports a failure in the exit code.
"""

from __future__ import annotations

import argparse
import time

from PySide6.QtWidgets import QApplication

from gui import autosave, window_placement
from gui.main_window import MainWindow


def run(args: argparse.Namespace) -> int:
    """Open the window on ``args.file`` or the default graph; ``--screenshot`` renders and exits."""
    app = QApplication.instance() or QApplication([])
    from core.nodegraph.files.examples import default_graph  # registers node types lazily

    window = MainWindow(default_graph())
    path = getattr(args, "file", None)
    if args.screenshot and path and not window.open_path(path):
        return 1
    window.show()
    window_placement.place_on_screen(window)  # where it was last closed, or most of the screen on a first start
    if path and not args.screenshot:
        window.open_path(path)  # once shown: a refused file's message stands over the window, not an empty screen
    if not args.screenshot and not autosave.offer(window) and not path:
        window.lessons.first_start()  # lesson 4's document and its lesson, once (not over a file the user named)
    app.processEvents()
    window.view.show_document()
    if args.screenshot:
        return screenshot(window, args)
    return app.exec()


def train_steps(window: MainWindow, n: int) -> None:
    """``n`` training iterations through the Train panel's trainer (so the plots record them)."""
    for _ in range(n):
        window.training.trainer.step()
    if n:
        window.run_step("refresh")
        deadline = time.monotonic() + 0.6  # let the throttled plots draw their latest frame
        while time.monotonic() < deadline:
            QApplication.processEvents()
            time.sleep(0.02)


def screenshot(window: MainWindow, args: argparse.Namespace) -> int:
    """Run the requested steps, render the window to ``args.screenshot`` and report errors as exit codes."""
    if getattr(args, "forward", False):
        window.run_step("forward")
    if getattr(args, "backward", False):
        window.run_step("backward")
    train_steps(window, getattr(args, "train", 0) or 0)
    window.scene.clearSelection()
    window.resize(1600, 1000)
    window.inspector_dock.raise_()
    name = getattr(args, "dock", None)
    dock = window.training.docks.get(name) if name else None
    if dock is not None:
        dock.raise_()
    QApplication.processEvents()
    loss = window.graph.training.get("loss")
    window.inspector.show_node(next(iter(window.graph.nodes), None) if getattr(args, "backward", False) else loss)
    window.view.show_document()
    window.inspector.stats.wait()  # a large tensor's statistics are in the picture, not "computing"
    QApplication.processEvents()
    ok = window.grab().save(args.screenshot)
    window.undo_stack.setClean()
    window.close()
    return 0 if ok else 1
