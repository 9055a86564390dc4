"""Keys that move the keyboard focus between the canvas and the docks, as desktop apps do (Tab on the canvas opens
the node palette, so Tab can't leave it).

``make_actions(parent, targets)`` makes one action per ``(name, text, key, target)``: the target is the canvas
view (it takes the focus) or a dock (shown, brought to the front of its tabs, and its first field that takes Tab
gets the focus, or the field its panel's ``keyboard_start()`` names; the dock's panel itself when none does). The
window lists them in View ▸ Keyboard focus, where the keys show beside the entries.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QScrollArea, QWidget

__all__ = ["make_actions", "first_field"]


def first_field(panel: QWidget) -> QWidget:
    """The first widget in ``panel``'s tab order that a user could Tab to (a scroll area's frame is skipped: the
    fields inside it come next), or ``panel`` when there is none."""
    w: QWidget | None = panel
    while w is not None:
        w = w.nextInFocusChain()
        if w is panel or w is None:
            return panel
        if not panel.isAncestorOf(w):
            continue
        takes_tab = bool(w.focusPolicy() & Qt.FocusPolicy.TabFocus)
        if takes_tab and w.isVisible() and w.isEnabled() and not isinstance(w, QScrollArea):
            return w
    return panel


def focus(target: QWidget) -> None:
    """Give ``target`` (a view, or a dock whose first field takes it) the keyboard focus."""
    if isinstance(target, QDockWidget):
        target.show()
        target.raise_()
        panel = target.widget()
        if panel is None:
            return
        inner = panel.widget() if isinstance(panel, QScrollArea) else panel  # the Inspector scrolls in its dock
        start = getattr(inner, "keyboard_start", None)  # a panel may name where typing starts (the Inspector)
        target = start() if callable(start) else first_field(panel)
        if target in (panel, inner):  # no field to type in (the Inspector with no node): the dock in front shows
            return  # its hint, the keyboard stays where it was (given to the panel, no widget showed it)
    target.setFocus(Qt.FocusReason.ShortcutFocusReason)


def make_actions(parent: QObject, targets: list[tuple[str, str, str, QWidget]]) -> dict[str, QAction]:
    actions = {}
    for name, text, key, target in targets:
        act = QAction(text, parent)
        act.setObjectName(f"action_{name}")
        act.setShortcut(QKeySequence(key))
        where = f"{text.replace('&', '')} dock" if isinstance(target, QDockWidget) else "canvas"
        act.setStatusTip(f"Move the keyboard focus to the {where} ({key})")
        act.triggered.connect(lambda _checked=False, t=target: focus(t))
        actions[name] = act
    return actions
