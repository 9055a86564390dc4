"""How wide the window's side dock columns are, and the canvas's share of a window made smaller.

Left: Lesson, Nodes, Autograd and Diagnostics share one column of tabs (``LEFT``); right: Inspector, Train and History
(``RIGHT``); bottom: Plots with Watch, and Data (``BOTTOM``). Each side column starts at about a fifth of the window's
width (``side_widths``); the left one widens, up to ``LEFT_MAX_SHARE`` of the window, until its tab titles show whole
(``tab_titles_width``); in a narrow window the right one gives up width, down to ``RIGHT_MIN``, until both take at most
``SIDES_MAX_SHARE`` of it. A window made narrower or shorter keeps its canvas at ``CANVAS_MIN_SHARE`` of it
(``KeepCanvasShare``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from PySide6.QtCore import QEvent, QObject, Qt, QTimer
from PySide6.QtGui import QFont, QResizeEvent
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar, QWidget

__all__ = ["BOTTOM", "CANVAS_MIN_SHARE", "LEFT", "RIGHT", "KeepCanvasShare", "side_widths", "tab_titles_width"]

LEFT = ("lesson", "library", "autograd", "diagnostics")  # tabs of the left column, in this order
RIGHT = ("inspector", "train", "history")
BOTTOM = ("plots", "watch", "data")  # Watch a tab behind Plots, Data beside them

LEFT_MAX_SHARE = 0.28  # of the window's width: more would squeeze the canvas, the biggest thing on screen
SIDES_MAX_SHARE = 0.45  # of the window's width for both columns: at 125 % on a 1366x768 laptop (1089 px) their
# floors took 53 % and left the canvas 496 px; the right one gives up width first (a 1366 px window keeps its widths)
RIGHT_MIN = 256  # px: the right column's least start width (the Inspector's device box and margins need it)
SQUEEZE_FROM = 1000  # px: a window at least this wide is a real one on a screen (a window under construction is
# narrower: its columns keep their floors, and one made narrower later is KeepCanvasShare's)


def side_widths(width: int, left_tabs: int = 0) -> tuple[int, int]:
    """The left and right dock columns' widths for a window ``width`` wide (the canvas gets the rest); ``left_tabs``
    is what the left column's tab titles need to show unelided."""
    left = min(max(0.2 * width, 250, min(left_tabs, LEFT_MAX_SHARE * width)), 380)
    right = min(max(0.22 * width, 280), 420)
    if width >= SQUEEZE_FROM:
        right = min(right, max(SIDES_MAX_SHARE * width - left, RIGHT_MIN))
    return int(left), int(right)


def tab_titles_width(docks: list[QDockWidget], font: QFont | None = None) -> int:
    """The width a tab bar needs to show ``docks``' titles whole, in the application's style and its font (or
    ``font``: the window's, enlarged in presentation mode)."""
    bar = QTabBar()
    bar.setElideMode(Qt.TextElideMode.ElideNone)
    if font is not None:
        bar.setFont(font)
    for dock in docks:
        bar.addTab(dock.windowTitle())
    width = bar.sizeHint().width()
    bar.deleteLater()
    return width

CANVAS_MIN_SHARE = (0.4, 0.35)  # of the window's width and height that the canvas keeps when the window shrinks


class KeepCanvasShare(QObject):
    """A window made narrower or shorter loses it all from the canvas in Qt, down to the canvas's minimum (snapped
    to half a laptop's screen, the canvas was under 100 pixels wide between two full columns). After such a resize
    the side columns (the bottom docks) give up width (height) in proportion to theirs, until the canvas has
    ``CANVAS_MIN_SHARE`` of the window again or the docks are at their minimum. A window made wider again after that
    gives the columns back their share (``widen``); one the user never squeezed is left alone."""

    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget], widen: Callable[[], None]) -> None:
        super().__init__(window)
        self.window, self.docks, self.widen = window, docks, widen
        self.squeezed = False  # the columns gave up width to the canvas
        self._timer = QTimer(self)  # after the resize's layout: the canvas's width is only known then
        self._timer.setSingleShot(True)
        self._timer.setInterval(0)
        self._timer.timeout.connect(self.fit)
        window.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Resize:
            resize = cast(QResizeEvent, event)  # PySide6 hands the filter the event's own class
            old, new = resize.oldSize(), resize.size()
            if old.isValid() and (new.width() < old.width() or new.height() < old.height()):
                self._timer.start()
            elif old.isValid() and new.width() > old.width() and self.squeezed:
                self.squeezed = False
                self.widen()
        return False

    def _shown(self, names: tuple[str, ...]) -> QDockWidget | None:
        """The dock of ``names`` in front in its place (tabs share one size), if any shows docked."""
        return next((d for n in names if (d := self.docks.get(n)) is not None and d.isVisible()
                     and not d.isFloating()), None)

    def fit(self) -> None:
        window, canvas = self.window, self.window.centralWidget()
        if canvas is None:
            return
        bottom = [d for d in (self._shown(BOTTOM[:2]), self._shown(("data",))) if d is not None]
        for orientation, have, room, docks, size in (
                (Qt.Orientation.Horizontal, canvas.width(), window.width(),
                 [d for d in (self._shown(LEFT), self._shown(RIGHT)) if d is not None], QWidget.width),
                (Qt.Orientation.Vertical, canvas.height(), window.height(), bottom[:1], QWidget.height)):
            share = CANVAS_MIN_SHARE[orientation == Qt.Orientation.Vertical]
            need = int(share * room) - have
            total = sum(size(d) for d in docks)
            if need > 0 and total > 0:
                keep = max(total - need, 0) / total
                window.resizeDocks(docks, [int(size(d) * keep) for d in docks], orientation)
                self.squeezed = self.squeezed or orientation == Qt.Orientation.Horizontal
