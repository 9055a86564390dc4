"""A key handler that sees a key before the focused field does: an event filter kept on whichever widget of one
window has the keyboard focus, moved as the focus moves (``MenuKeys``, ``HiddenDockTabs``).

Qt offers a key press to the focused widget, after the filters installed on it; a shortcut or Tab handling that
must act first filters that widget. Widgets of the window's own dialogs (another window) are not watched.
"""

from __future__ import annotations

from typing import cast

import shiboken6
from PySide6.QtCore import QObject
from PySide6.QtWidgets import QApplication, QWidget

__all__ = ["FocusedWidgetFilter"]


class FocusedWidgetFilter(QObject):
    """Keeps ``self`` installed as the event filter of ``window``'s focused widget once ``follow_focus()`` runs
    (a subclass calls it at the end of its ``__init__``, its own state set up); ``eventFilter`` is the subclass's."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        self.watched: QWidget | None = None

    def follow_focus(self) -> None:
        app = cast(QApplication, QApplication.instance())
        app.focusChanged.connect(self._focus_changed)
        self._focus_changed(None, app.focusWidget())

    def _focus_changed(self, _old: QWidget | None, new: QWidget | None) -> None:
        if self.watched is not None and shiboken6.isValid(self.watched):  # (a field remade for another node is gone)
            self.watched.removeEventFilter(self)
            self.watched = None
        if new is not None and new.window() is self.window:
            new.installEventFilter(self)
            self.watched = new
