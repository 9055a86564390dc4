"""What the main window lets the user do while a step or training computes on its worker (``WorkerSlices.busy``).

The window keeps answering then: it repaints and resizes, zooms (keys, menu, wheel), Esc cancels, Forward all and
Backward all queue another pass, and the cursor shows it is busy. Whatever would edit the graph or read the session
while the worker changes it is off until the step is in: the window's other actions, the docks (greyed), the
canvas's items (no hover, selection or drag), the canvas's own keys other than zoom (Tab's node palette, arrow-key
selection), its double-click palette and context menu, and dropped files. Everything is put back as it was. The
widgets the window names as ``keep`` stay usable inside their greyed dock (the Train dock's Pause: training whose steps
are long runs busy, and Pause stops it as Esc does).
"""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction, QKeyEvent
from PySide6.QtWidgets import QApplication, QDockWidget, QGraphicsView, QMainWindow, QWidget

__all__ = ["KEEPS", "BusyGuard"]

# the actions that stay usable while busy: none of them touches the session or the graph
KEEPS = {"cancel", "forward", "backward", "zoom_in", "zoom_out", "fit_all", "fit_selection", "shortcuts", "about",
         "quit", "presentation", "canvas_only", "pause_training"}
_CANVAS_KEYS = {Qt.Key.Key_Plus, Qt.Key.Key_Equal, Qt.Key.Key_Minus, Qt.Key.Key_Escape}  # zoom, and Esc cancels
_CANVAS_EATS = {QEvent.Type.MouseButtonDblClick, QEvent.Type.ContextMenu}


class BusyGuard(QObject):
    """``set_busy(True)`` turns off what must wait for the worker; ``set_busy(False)`` puts it back."""

    def __init__(self, window: QMainWindow, view: QGraphicsView, keep: Sequence[QWidget] = ()) -> None:
        super().__init__(window)
        self.window, self.view, self.keep = window, view, list(keep)
        self.busy = False
        self._disabled: list[QAction | QWidget] = []
        self._drops = False

    def set_busy(self, busy: bool) -> None:
        if busy == self.busy:
            return
        self.busy = busy
        if busy:
            self._disabled = [t for t in self._targets() if t.isEnabled()]
            for target in self._disabled:
                target.setEnabled(False)
            self._drops = self.window.acceptDrops()
            self.window.setAcceptDrops(False)
            self.view.setInteractive(False)
            for target in (self.view, self.view.viewport()):  # keys come to the view, clicks to its viewport
                target.installEventFilter(self)
            QApplication.setOverrideCursor(Qt.CursorShape.BusyCursor)
            return
        for target in self._disabled:
            target.setEnabled(True)
        self._disabled = []
        self.window.setAcceptDrops(self._drops)
        self.view.setInteractive(True)
        for target in (self.view, self.view.viewport()):
            target.removeEventFilter(self)
        QApplication.restoreOverrideCursor()

    def _targets(self) -> list[QAction | QWidget]:
        """Every action of the window but ``KEEPS`` and the menu bar's own menus (a disabled Run menu took Esc's
        shortcut with it): Open recent's and Examples' entries open another document too; and the docks."""
        bar = set(self.window.menuBar().actions())
        actions: list[QAction | QWidget] = [a for a in self.window.findChildren(QAction) if a not in bar
                                            and a.objectName().removeprefix("action_") not in KEEPS]
        docks = [d.widget() for d in self.window.findChildren(QDockWidget)]
        return actions + [part for w in docks if w is not None for part in self._around(w)]

    def _around(self, root: QWidget) -> list[QWidget]:
        """``root``, or when a kept widget lies inside it, the widgets beside the way down to that one."""
        if root in self.keep:
            return []
        if not any(root.isAncestorOf(k) for k in self.keep):
            return [root]
        children = root.findChildren(QWidget, options=Qt.FindChildOption.FindDirectChildrenOnly)
        return [part for child in children for part in self._around(child)]

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override: the canvas's own keys and clicks
        kind = event.type()
        if kind in (QEvent.Type.KeyPress, QEvent.Type.KeyRelease):
            return Qt.Key(event.key()) not in _CANVAS_KEYS if isinstance(event, QKeyEvent) else False
        return kind in _CANVAS_EATS
