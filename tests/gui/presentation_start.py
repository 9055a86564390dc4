"""Presentation mode on a screen of a given size (run by ``test_presentation_fits``, in its own process: the offscreen
platform's screen size is fixed when the application starts). Opens a lesson's graph as app.py does, presses
Ctrl+Shift+P on the window, waits until it is full screen and settled, and prints, as JSON, what a class sees: the
toolbar buttons out of view (behind "»"), the toolbar's and the window's point sizes, whether the minimap shows;
then presses Ctrl+Shift+P again and prints the same."""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication


def _wait(app: QApplication, done, seconds: float = 30.0) -> None:
    """Process events until ``done()`` (or ``seconds`` pass: the test's assertions then say what is wrong)."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def _seen(window) -> dict:
    bar = window.run_toolbar
    shown = [a for a in bar.actions() if not a.isSeparator() and bar.widgetForAction(a) is not None]
    return {"hidden": [a.text().replace("&", "") or a.objectName() for a in shown
                       if not bar.widgetForAction(a).isVisible()],
            "toolbar_pt": bar.font().pointSizeF(), "window_pt": window.font().pointSizeF(),
            "minimap": window.view.minimap.isVisible(), "width": window.width()}


def main(argv: list[str]) -> None:
    app = QApplication([])
    from core.nodegraph.files.examples import default_graph
    from gui.main_window import MainWindow

    window = MainWindow(default_graph())
    window.resize(app.primaryScreen().availableGeometry().size())
    window.show()
    window.open_path(argv[0])
    window.activateWindow()
    _wait(app, lambda: QApplication.activeWindow() is window)
    screen = app.primaryScreen().geometry()
    out = {"normal": _seen(window)}
    QTest.keyClick(window, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    _wait(app, lambda: window.width() == screen.width() and window.run_toolbar.width() == screen.width())
    for _ in range(50):  # the docks, the canvas's framing and the minimap's refit (150 ms) settle
        app.processEvents()
        time.sleep(0.01)
    out["presenting"] = _seen(window)
    QTest.keyClick(window, Qt.Key_P, Qt.ControlModifier | Qt.ShiftModifier)
    _wait(app, lambda: not window.windowState() & Qt.WindowState.WindowFullScreen)
    app.processEvents()
    out["after"] = _seen(window)
    print(json.dumps(out))
    window.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main(sys.argv[1:])
