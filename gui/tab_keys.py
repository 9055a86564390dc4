"""Tab and Shift+Tab skip the docks tabbed out of sight (the Train dock behind the Inspector, Autograd behind Lesson).

Qt counts a dock tabbed behind another as visible (only its visible region is empty), so its fields stay in the
focus chain: Tab from the Inspector's last field went on into the Train dock's optimizer box, out of sight, and the
next keys typed changed settings the user could not see. ``HiddenDockTabs(window)`` watches the widget that has
the keyboard focus in ``window`` (as ``MenuKeys`` does); on a Tab or Shift+Tab key press it takes ``TabFocus`` from
every field of the docks out of sight (and from the spare dock tab bars Qt parks off screen), lets Qt's own focus
move run, and gives the fields their focus policy back as the focus moves (or, when the press moved nothing, once
it is handled). The docks are looked at again at each press, so fields made later (the Inspector's for another
node) are passed over too.

It does not override ``focusNextPrevChild``: Qt calls that while widgets are torn down too, and a walk of the
focus chain from Python there crashed the process. Here Python only runs on a real key press.
"""

from __future__ import annotations

from typing import cast

import shiboken6
from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QDockWidget, QTabBar, QWidget

from gui.focus_watch import FocusedWidgetFilter

__all__ = ["HiddenDockTabs", "out_of_sight"]

_TAB_KEYS = (Qt.Key.Key_Tab, Qt.Key.Key_Backtab)


def out_of_sight(widget: QWidget) -> bool:
    """True for a widget Qt counts visible that shows nothing (a dock tabbed behind another)."""
    return widget.isVisible() and widget.visibleRegion().isEmpty()


class HiddenDockTabs(FocusedWidgetFilter):
    """Tab and Shift+Tab in ``window`` pass over the fields of its docks tabbed out of sight."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self._taken: dict[QWidget, Qt.FocusPolicy] = {}  # field -> its own policy, until the press is handled
        self.follow_focus()

    def _focus_changed(self, old: QWidget | None, new: QWidget | None) -> None:
        if self._taken:  # the focus moved on a Tab press: the keys that come next find every field as it was
            self._give_back()
        super()._focus_changed(old, new)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.KeyPress and cast(QKeyEvent, event).key() in _TAB_KEYS:
            self._take_hidden_fields()
        return False  # Qt moves the focus as always, over the fields left to it

    def _take_hidden_fields(self) -> None:
        first = not self._taken
        for field in self._hidden_fields():
            policy = field.focusPolicy()
            if policy & Qt.FocusPolicy.TabFocus and field not in self._taken:
                self._taken[field] = policy
                field.setFocusPolicy(policy & ~Qt.FocusPolicy.TabFocus)
        if first and self._taken:
            QTimer.singleShot(0, self._give_back)  # in case the press moves no focus

    def _hidden_fields(self) -> list[QWidget]:
        """The fields of the docks out of sight, and the window's spare dock tab bars (Qt parks them off screen)."""
        fields: list[QWidget] = []
        for dock in self.window.findChildren(QDockWidget):
            if dock.window() is self.window and out_of_sight(dock):
                fields += dock.findChildren(QWidget)
        fields += [bar for bar in self.window.findChildren(QTabBar, options=Qt.FindChildOption.FindDirectChildrenOnly)
                   if out_of_sight(bar)]
        return fields

    def _give_back(self) -> None:
        """Every taken field's own policy again (in reverse: a spin box's policy is passed to its line edit)."""
        taken, self._taken = self._taken, {}
        for field, policy in reversed(taken.items()):
            if shiboken6.isValid(field):
                field.setFocusPolicy(policy)
