"""The Run toolbar: every button in view, in the largest font that fits between two sizes.

A teacher presenting at 1366x768 saw the Run toolbar, in the presentation font, cut at Create graph: Fit all,
Undo, Redo and the device box hid behind "»", where a class can't see what is pressed. ``ToolbarFit(toolbar)``
gives the toolbar, while ``start(largest, smallest)`` holds, the largest point size from ``largest`` down to
``smallest`` at which all its buttons fit its width (again at each resize: the window going full screen, another
screen), and ``stop()`` gives it back the window's font. At 1920x1080 it keeps the presentation size; at 1366x768
it takes about 1.3 times the usual one. Below ``smallest`` it stops shrinking (the usual size never overflowed
at 1366x768; a narrower window gets the "»" it always had).

Outside presentation, ``usual()`` fits between the window's font and USUAL_FLOOR of it: at 1366x768 with
QT_SCALE_FACTOR=1.25 (a laptop's 125 % setting) the usual font left the device box, Redo and Undo behind "»";
a slightly smaller toolbar font shows them all, and where the window is wide enough it stays the window's font.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QToolBar

__all__ = ["ToolbarFit"]

STEP_PT = 0.5  # how much smaller each try is
USUAL_FLOOR = 0.8  # outside presentation, the toolbar's font shrinks to no less than this part of the window's


class ToolbarFit(QObject):
    """Fits ``toolbar``'s font to its width between ``start``'s two sizes (see the module docstring)."""

    def __init__(self, toolbar: QToolBar) -> None:
        super().__init__(toolbar)
        self.toolbar = toolbar
        self._sizes: tuple[float, float] | None = None  # (largest, smallest) point sizes while started
        self._fitting = False

    @property
    def active(self) -> bool:
        return self._sizes is not None

    def start(self, largest: float, smallest: float) -> None:
        """Fit from now on (and at each resize of the toolbar) between ``largest`` and ``smallest`` points."""
        self._sizes = (largest, min(smallest, largest))
        self.toolbar.installEventFilter(self)
        self.fit()

    def stop(self) -> None:
        """The toolbar takes the window's font again."""
        self._sizes = None
        self.toolbar.removeEventFilter(self)
        self.toolbar.setFont(QFont())  # nothing set: inherited from the window again

    def usual(self) -> None:
        """The window's font, or down to USUAL_FLOOR of it where the buttons would not fit in that (from now on)."""
        self.stop()
        size = self.toolbar.font().pointSizeF()
        if size > 0:  # a font set in pixels has no point size: it keeps it, as before
            self.start(size, size * USUAL_FLOOR)

    def needed_width(self) -> int:
        """The width the toolbar's buttons take in its current font, laid out in one row."""
        layout = self.toolbar.layout()
        if layout is not None:
            layout.invalidate()
        return self.toolbar.sizeHint().width()

    def fit(self) -> None:
        if self._sizes is None or self._fitting:
            return
        largest, smallest = self._sizes
        self._fitting = True  # a font change lays the toolbar out again: its events must not start another fit
        try:
            size, room = largest, self.toolbar.width()
            while True:
                font = QFont(self.toolbar.font())
                font.setPointSizeF(size)
                self.toolbar.setFont(font)
                if size <= smallest or self.needed_width() <= room:
                    return
                size = max(smallest, size - STEP_PT)
        finally:
            self._fitting = False

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # Qt override: refit at each new width
        if watched is self.toolbar and event.type() == QEvent.Type.Resize:
            self.fit()
        return super().eventFilter(watched, event)
