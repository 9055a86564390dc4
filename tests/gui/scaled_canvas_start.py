"""The canvas on a screen scaled by a fraction (run by ``test_scaled_canvas``, in its own process: QT_SCALE_FACTOR
is read when the application starts). Shows the chapter's graph at 1366x768, clicks Forward all on the toolbar, the
node x and the Train tab, as a user does (the clicks that left one-pixel lines of old frames on the canvas at
QT_SCALE_FACTOR=1.25 under Xvfb), then prints, as JSON, the screen's pixel ratio and whether the canvas repaints
whole."""

from __future__ import annotations

import json
import sys
import time

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QGraphicsView, QTabBar


def _settle(app: QApplication, seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        app.processEvents()
        time.sleep(0.01)


def main() -> None:
    app = QApplication([])
    import core.nodegraph.model.nodes  # noqa: F401  (the node types)
    from core.nodegraph.files.examples import default_graph
    from gui.main_window import MainWindow
    from tests.gui.real_input import toolbar_button

    window = MainWindow(default_graph())
    window.resize(1366, 768)
    window.show()
    _settle(app, 1.5)
    button = toolbar_button(window, "forward")
    QTest.mouseClick(button, Qt.LeftButton, Qt.NoModifier, button.rect().center())
    _settle(app, 1.5)
    x = window.scene.node_items["n1"]
    spot = window.view.mapFromScene(x.sceneBoundingRect().center())
    QTest.mouseClick(window.view.viewport(), Qt.LeftButton, Qt.NoModifier, spot)
    _settle(app, 1.0)
    for bar in window.findChildren(QTabBar):
        for i in range(bar.count()):
            if bar.isVisible() and bar.tabText(i).replace("&", "") == "Train":
                QTest.mouseClick(bar, Qt.LeftButton, Qt.NoModifier, bar.tabRect(i).center())
    _settle(app, 1.5)
    full = window.view.viewportUpdateMode() == QGraphicsView.ViewportUpdateMode.FullViewportUpdate
    print(json.dumps({"ratio": window.devicePixelRatioF(), "full": full, "selected": x.isSelected()}))
    window.undo_stack.setClean()
    window.bridge.mark_saved()
    window.close()
    sys.exit(0)


if __name__ == "__main__":
    main()
