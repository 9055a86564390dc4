"""Docks around panels: ``make_dock`` puts a panel in a named dock, where long forms and fixed-size plots scroll
inside it when squeezed (``SCROLLED``, ``FittingScroll``) and forms wrap long labels (``compact``), so no dock forces a
minimum size on the window and a side column needs no sideways scrolling; ``menu_toggle`` is a dock's View menu entry
with its own Alt key.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtGui import QAction
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QFrame,
    QLabel,
    QPushButton,
    QScrollArea,
    QWidget,
)

__all__ = ["MENU_TEXTS", "SCROLLED", "FittingScroll", "compact", "make_dock", "menu_toggle", "scrolled"]

SCROLLED = {"inspectorDock", "plotsDock", "dataDock", "watchDock"}  # these scroll when squeezed (Train: its settings)


class FittingScroll(QScrollArea):
    """A scroll area that gives its panel the viewport's size, or the panel's minimum where that is bigger.

    QScrollArea's own resizing (``widgetResizable``) takes a panel with wrapping labels at its preferred
    height for the width, so a plot that would happily shrink got scroll bars instead."""

    def __init__(self, widget: QWidget, name: str) -> None:
        super().__init__()
        self.setObjectName(f"{name}Scroll")
        self.setFrameShape(QFrame.Shape.NoFrame)
        self.setWidget(widget)
        self.setMinimumSize(120, 80)
        # the fields inside take the keyboard, the area never: Tab stopped on it with no mark of the focus anywhere
        # (the empty Inspector's), and before the first field of any panel; a field Tabbed to is scrolled into view
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        widget.installEventFilter(self)

    def fit(self) -> None:
        panel, room = self.widget(), self.viewport().size()
        if panel is None:  # never: the panel is set at construction
            return
        width = max(room.width(), panel.minimumSizeHint().width())
        layout = panel.layout()
        if layout is not None and layout.hasHeightForWidth():
            need = layout.totalMinimumHeightForWidth(width)
        else:
            need = panel.minimumSizeHint().height()
        panel.resize(width, max(room.height(), need))

    def viewportEvent(self, event: QEvent) -> bool:  # Qt override: the room changed (scroll bars came or went)
        if event.type() == QEvent.Type.Resize:
            self.fit()
        return super().viewportEvent(event)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override: the panel's contents changed
        if obj is self.widget() and event.type() == QEvent.Type.LayoutRequest:
            self.fit()
        return False


def scrolled(widget: QWidget, name: str) -> QWidget:
    """``widget`` itself, or for a dock in SCROLLED a frameless scroll area around it (its minimum size then
    no longer binds the window)."""
    if name not in SCROLLED:
        return widget
    compact(widget)
    return FittingScroll(widget, name)


def compact(widget: QWidget) -> None:
    """Let a panel get narrow: labels wrap (in a form the field goes under a long label), combo boxes and push
    buttons may be narrower than their longest text; in a side column it then needs no sideways scrolling."""
    for form in widget.findChildren(QFormLayout):
        form.setRowWrapPolicy(QFormLayout.RowWrapPolicy.WrapLongRows)
        for row in range(form.rowCount()):
            item = form.itemAt(row, QFormLayout.ItemRole.LabelRole)
            caption = item.widget() if item is not None else None
            if isinstance(caption, QLabel):
                caption.setWordWrap(True)
    for combo in widget.findChildren(QComboBox):
        combo.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        combo.setMinimumContentsLength(8)
        QApplication.sendEvent(combo, QEvent(QEvent.Type.StyleChange))  # Qt keeps the old minimum size hint otherwise
    for label in widget.findChildren(QLabel):  # captions and messages wrap instead of widening the dock
        label.setWordWrap(True)
    for button in widget.findChildren(QPushButton):
        button.setMinimumWidth(min(button.minimumSizeHint().width(), 48))


# Each dock's entry in the View menu with its Alt key: unique among the View menu's entries (Fit all, Zoom in,
# Presentation mode... took other letters so that every dock keeps its first one where it can)
MENU_TEXTS = {"Nodes": "&Nodes", "Inspector": "&Inspector", "Lesson": "&Lesson", "Train": "&Train", "Plots": "&Plots",
              "Data": "&Data", "Autograd": "A&utograd", "Diagnostics": "Dia&gnostics", "Watch": "&Watch"}


def menu_toggle(dock: QDockWidget) -> QAction:
    """``dock``'s show/hide entry for the View menu, its text with the dock's Alt key (``MENU_TEXTS``); Qt's own
    toggle action carries the bare title, so Alt+V reached no dock by a letter."""
    action = dock.toggleViewAction()
    action.setText(MENU_TEXTS.get(dock.windowTitle(), dock.windowTitle()))
    return action


def make_dock(title: str, name: str, widget: QWidget, parent: QWidget | None = None) -> QDockWidget:
    """A dock called ``name`` around ``widget``; forms and plots scroll inside it when squeezed (``scrolled``)."""
    dock = QDockWidget(title, parent)
    dock.setObjectName(name)
    dock.setWidget(scrolled(widget, name))
    return dock
