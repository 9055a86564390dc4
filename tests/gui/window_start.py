"""One start of the app's window under a real X server and window manager (run by ``test_second_pass``): shown and
placed as ``gui.launch`` does, it waits until the window manager has framed it and the placing has settled, prints
its frame ``x y w h``, optionally moves and resizes it (``--move X Y W H``), and closes it, saving its geometry."""

from __future__ import annotations

import sys
import time

from PySide6.QtWidgets import QApplication


def _wait(app: QApplication, done, seconds: float = 10.0) -> None:
    """Process events until ``done()`` (or ``seconds`` pass: the caller's assertion then says what is wrong)."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def main(argv: list[str]) -> None:
    app = QApplication([])
    from core.nodegraph.files.examples import default_graph
    from gui import window_placement
    from gui.main_window import MainWindow

    window = MainWindow(default_graph())
    window.show()
    window_placement.place_on_screen(window)
    _wait(app, lambda: window.frameGeometry().size() != window.geometry().size()
          and window.findChild(window_placement._MoveWhenFramed) is None
          and window.findChild(window_placement._RefitWhenFramed) is None)
    for _ in range(20):  # the window manager's answers to the last move
        app.processEvents()
    if argv[:1] == ["--move"]:
        x, y, w, h = (int(v) for v in argv[1:5])
        window.resize(w, h)
        window.move(x, y)
        _wait(app, lambda: window.frameGeometry().topLeft().toTuple() == (x, y))
    frame = window.frameGeometry()
    print(frame.x(), frame.y(), frame.width(), frame.height())
    window.undo_stack.setClean()
    window.close()


if __name__ == "__main__":
    main(sys.argv[1:])
