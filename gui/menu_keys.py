"""Menu keys that win over the focused field: Ctrl+E (Edit ▸ Insert expression) from anywhere in the window.

Qt offers a key to the focused widget first (a ShortcutOverride event) and a window shortcut runs only when the
widget leaves it unclaimed. With X11's key bindings a line edit or spin box claims Ctrl+E as "end of line" (End does
the same), so Edit ▸ Insert expression did nothing while a field had the focus, and what was typed next landed in the
field (the Train dock's Learning rate). ``MenuKeys(window, actions)`` watches the widget that has the keyboard focus
in ``window`` itself (not in a dialog of its own, whose fields keep their keys): an override for the key of one of
``actions`` (while it is enabled) is left unclaimed, so the menu's shortcut runs. Keys a field needs for its text
(Ctrl+A, Ctrl+C, Ctrl+V...) are not given to it: only the actions named win.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QAction, QKeyEvent, QKeySequence
from PySide6.QtWidgets import QWidget

from gui.focus_watch import FocusedWidgetFilter

__all__ = ["MenuKeys"]


class MenuKeys(FocusedWidgetFilter):
    """Gives ``actions``' keys to the menu while a widget of ``window`` has the focus (an event filter on it)."""

    def __init__(self, window: QWidget, actions: Iterable[QAction]) -> None:
        super().__init__(window)
        self.actions = list(actions)
        self.follow_focus()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() != QEvent.Type.ShortcutOverride:
            return False
        pressed = QKeySequence(cast(QKeyEvent, event).keyCombination())  # a shortcut override is a key event
        if not any(a.isEnabled() and pressed in a.shortcuts() for a in self.actions):
            return False
        event.ignore()  # unclaimed: the window's shortcut runs
        return True
