"""View ▸ Canvas only (Ctrl+Shift+F): the docks step aside for the canvas, and the same key brings them back.

At 125 % on a 1366x768 laptop the side columns leave the canvas about half of the window; a learner who wants the
graph big hides every docked panel in one go instead of one by one. Pressing the key again (or unticking the
entry) shows the docks that were open, those that were in front of their tab groups in front again, and sizes the
side columns as on a start. A dock opened meanwhile (View ▸ a dock, Ctrl+2, training's plots) ends the mode: the
others come back with it. Floating docks are left alone. Nothing here computes.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QDockWidget, QMainWindow

__all__ = ["BACK", "RETURNED", "CanvasOnly"]

BACK = "Canvas only: Ctrl+Shift+F (View ▸ Canvas only) brings the panels back"
RETURNED = "The panels are back (Ctrl+Shift+F hides them again)"  # replaces BACK, which would read stale


class CanvasOnly(QObject):
    """The checkable ``action`` and what it hid; ``size_columns`` gives the side columns their start widths, ``say``
    puts a line in the status bar."""

    def __init__(self, window: QMainWindow, size_columns: Callable[[], None], say: Callable[[str], None]) -> None:
        super().__init__(window)
        self.setObjectName("canvasOnly")
        self.window, self.size_columns, self.say = window, size_columns, say
        self.action = QAction("&Canvas only", window)
        self.action.setObjectName("action_canvas_only")
        self.action.setCheckable(True)
        self.action.setShortcut("Ctrl+Shift+F")
        self.action.setStatusTip("Hide the docked panels: the canvas takes the whole window (again: they come back)")
        self.action.toggled.connect(self._set)
        self.hidden: list[QDockWidget] = []  # the docks it hid, to show again
        self._front: list[QDockWidget] = []  # those of them that were in front of their tab groups
        self._busy = False  # hiding or showing: the docks' own visibility changes are not the user's
        for dock in self._docks():
            dock.visibilityChanged.connect(self._dock_shown)

    def _docks(self) -> list[QDockWidget]:
        return [d for d in self.window.findChildren(QDockWidget) if d.parent() is self.window and not d.isFloating()]

    def _set(self, on: bool) -> None:
        """Hide the open docks (``on``) or show them again."""
        self._busy = True
        try:
            if on:
                self.hidden = [d for d in self._docks() if d.isVisible()]
                self._front = [d for d in self.hidden if not d.visibleRegion().isEmpty()]
                for dock in self.hidden:
                    dock.hide()
                self.say(BACK)  # the panels vanished: the status bar says how they come back
            else:
                for dock in self.hidden:
                    dock.show()
                for dock in self._front:
                    dock.raise_()
                self.hidden, self._front = [], []
                self.say(RETURNED)
        finally:
            self._busy = False
        if not on:
            self.size_columns()

    def _dock_shown(self, visible: bool) -> None:
        """A dock the user (or training) opened while the canvas was alone ends the mode."""
        if visible and not self._busy and self.action.isChecked():
            self.action.setChecked(False)
