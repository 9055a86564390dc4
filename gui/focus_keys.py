"""Keys that move the keyboard focus between the canvas and the docks, as desktop apps do (Tab on the canvas opens
the node palette, so Tab can't leave it).

``make_actions(parent, targets)`` makes one action per ``(name, text, key, target)``: the target is the canvas
view (it takes the focus) or a dock (shown, brought to the front of its tabs, and its first field that takes Tab
gets the focus, or the field its panel's ``keyboard_start()`` names; the dock's panel itself when none does). The
window lists them in its View menu, where the keys show beside the entries.

``tab_target(window, forward)`` is where Tab (Shift+Tab) goes next in ``window``, as Qt picks it, except that it
skips the docks tabbed behind another: Qt counts those as visible, and Tab from the Inspector's last field went into
the Train dock the learner could not see.
"""

from __future__ import annotations

from PySide6.QtCore import QObject, Qt
from PySide6.QtGui import QAction, QKeySequence
from PySide6.QtWidgets import QDockWidget, QScrollArea, QWidget

__all__ = ["make_actions", "first_field", "tab_target"]


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


def _out_of_sight(widget: QWidget, window: QWidget) -> bool:
    """Whether ``widget`` sits in a dock of ``window`` that shows nothing: one tabbed behind another."""
    w: QWidget | None = widget
    while w is not None and w is not window:
        if isinstance(w, QDockWidget):
            return not w.isFloating() and w.visibleRegion().isEmpty()
        w = w.parentWidget()
    return False


def _deepest_proxy(widget: QWidget) -> QWidget | None:
    proxy = widget.focusProxy()
    while proxy is not None and proxy.focusProxy() is not None:
        proxy = proxy.focusProxy()
    return proxy


def tab_target(window: QWidget, forward: bool) -> QWidget | None:
    """The widget Tab (``forward``) or Shift+Tab gives the focus to in ``window``: Qt's choice (its
    ``focusNextPrevChild`` walk of the focus chain, focus proxies included), less the fields in a dock tabbed out of
    sight."""
    start = window.focusWidget() or window
    found: QWidget | None = None
    test = start.nextInFocusChain()
    while test is not None and test is not start:
        proxy = _deepest_proxy(test)
        taker = proxy if proxy is not None else test
        takes_tab = taker.isEnabled() and bool(taker.focusPolicy() & Qt.FocusPolicy.TabFocus)
        composite = proxy is not None and (proxy.isAncestorOf(test) if forward else test.isAncestorOf(proxy))
        if (takes_tab and not composite and test.isEnabled() and window.isAncestorOf(test)
                and test.isVisibleTo(window) and proxy is not start and not _out_of_sight(test, window)):
            found = test
            if forward:
                break
        test = test.nextInFocusChain()
    return found


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
    target.setFocus(Qt.FocusReason.ShortcutFocusReason)


def make_actions(parent: QObject, targets: list[tuple[str, str, str, QWidget]]) -> dict[str, QAction]:
    actions = {}
    for name, text, key, target in targets:
        act = QAction(text, parent)
        act.setObjectName(f"action_{name}")
        act.setShortcut(QKeySequence(key))
        act.setStatusTip(f"Move the keyboard focus to the {text.replace('&', '').removeprefix('Focus ')} ({key})")
        act.triggered.connect(lambda _checked=False, t=target: focus(t))
        actions[name] = act
    return actions
