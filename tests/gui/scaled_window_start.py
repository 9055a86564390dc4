"""The first start on a laptop scaled to 125 % (run by ``test_scaled_window``, in its own process: QT_SCALE_FACTOR and
the offscreen screen's size are read when the application starts). Starts as ``app.py`` does (lesson 4's graph and
its lesson, the window placed on the screen), then prints, as JSON, what a newcomer sees: the Run toolbar's buttons
out of view (behind "»"), the left column's tab titles drawn elided, whether every node of the lesson lies in the
canvas's view, whether a click on the device box opens its list, and, after a click on Forward all, whether every
node (now with its value) is still in view, the canvas's share of the window's width, and whether the Inspector,
showing w after a click on it, fits its column without sideways scrolling."""

from __future__ import annotations

import json
import time
from collections.abc import Callable

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QWidget


def _wait(app: QApplication, done: Callable[[], object], seconds: float = 30.0) -> bool:
    """Process events until ``done()`` holds (or ``seconds`` pass: the test's assertions then say what is wrong)."""
    end = time.monotonic() + seconds
    while not done() and time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)
    return bool(done())


def _click(widget: QWidget) -> None:
    QTest.mouseClick(widget, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, widget.rect().center())


def _hidden_buttons(window) -> list[str]:
    bar = window.run_toolbar
    return [a.text().replace("&", "") or bar.widgetForAction(a).objectName() for a in bar.actions()
            if not a.isSeparator() and bar.widgetForAction(a) is not None
            and not bar.widgetForAction(a).isVisible()]


def _cut_tabs(window) -> list[str]:
    """The left column's tab titles drawn narrower than they need (elided), or all of them when it shows no tabs."""
    from PySide6.QtWidgets import QTabBar

    bars = [b for b in window.findChildren(QTabBar) if b.isVisible()
            and "Lesson" in [b.tabText(i) for i in range(b.count())]]
    if not bars:
        return ["no tab bar with Lesson"]
    bar = bars[0]
    return [bar.tabText(i) for i in range(bar.count()) if bar.tabRect(i).width() < bar.tabSizeHint(i).width()]


def main() -> None:
    app = QApplication([])
    from core.nodegraph.files.examples import default_graph
    from gui import window_placement
    from gui.main_window import MainWindow
    from tests.gui.real_input import toolbar_button

    window = MainWindow(default_graph())
    window.show()
    window_placement.place_on_screen(window)  # as gui.launch.run: most of the screen on a first start
    window.lessons.first_start()  # lesson 4's graph and its lesson
    app.processEvents()
    window.view.show_document()
    view = window.view
    out: dict[str, object] = {"ratio": window.devicePixelRatioF(), "lesson": window.lessons.dock.isVisible()}
    out["toolbar_fits"] = _wait(app, lambda: not _hidden_buttons(window))
    out["hidden"] = _hidden_buttons(window)
    out["left_tabs"] = _wait(app, lambda: _cut_tabs(window) == []), _cut_tabs(window)
    out["whole"] = _wait(app, view.all_nodes_shown)
    device = window.training.device
    _click(device)
    out["device_list"] = _wait(app, lambda: device.view().isVisible())
    QTest.keyClick(device.view(), Qt.Key.Key_Escape)
    _wait(app, lambda: not device.view().isVisible())
    _click(toolbar_button(window, "forward"))
    session = window.bridge.session
    _wait(app, lambda: session is not None and all(session.value(n) is not None for n in window.graph.nodes))
    out["whole_after_forward"] = _wait(app, view.all_nodes_shown)
    out["canvas_share"] = view.width() / window.width()
    item = window.scene.node_items["n2"]  # w: its dtype and device boxes are the Inspector's widest fields
    at = view.mapFromScene(item.mapToScene(item.boundingRect().topLeft() + QPoint(30, 8)))
    QTest.mouseClick(view.viewport(), Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, at)
    inspector = window.inspector
    _wait(app, lambda: inspector.node_id == "n2" and "dtype" in inspector.editors)
    out["inspector_fits"] = inspector.node_id == "n2" and inspector.minimumSizeHint().width() <= inspector.width()
    print(json.dumps(out))
    window.undo_stack.setClean()
    window.bridge.mark_saved()
    window.close()


if __name__ == "__main__":
    main()
