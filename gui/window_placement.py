"""Where the main window opens and how big: ``place_on_screen`` puts a shown window where it was when it last closed
(``save_geometry``, kept in the app's settings), or on a first start sizes it with ``fit_to_screen``: most of its
screen's available area (``FIRST_SHARE``, and at least ``PREFERRED`` where that fits; the whole of a laptop's), frame
included. Both wait for the window manager's frame where it comes late.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSettings, QSize, QTimer
from PySide6.QtWidgets import QMainWindow

from gui.dock_layout import DockArrangement

if TYPE_CHECKING:
    from gui.main_window import MainWindow

__all__ = ["first_size", "fit_to_screen", "place_on_screen", "save_geometry", "size_columns"]

PREFERRED = QSize(1600, 1000)  # at least this on a first start, where the screen has room for it
FIRST_SHARE = 0.9  # of the screen's available width and height, on a first start at any resolution
GEOMETRY_KEY = "window/geometry"  # in QSettings("Nodegrad", "Nodegrad"): where the window was when it closed
FRAME_CORNER_KEY = "window/frameCorner"  # and where its frame's top-left corner was (QPoint)


def size_columns(window: MainWindow) -> None:
    """Give ``window``'s side columns their share of its current width (``DockArrangement.size_columns``)."""
    window.arrangement.size_columns()


def fit_to_screen(window: MainWindow, available: QRect | None = None) -> None:
    """Size and place ``window`` (shown) inside ``available`` (by default its screen's available area), its
    frame included."""
    if available is None:
        if window.screen() is None:
            return
        available = window.screen().availableGeometry()
    frame = window.frameGeometry().size() - window.geometry().size()  # title bar and borders
    size = first_size(available.size(), frame)
    window.resize(max(size.width(), window.minimumSizeHint().width()),
                  max(size.height(), window.minimumSizeHint().height()))
    x = available.x() + (available.width() - window.frameGeometry().width()) // 2
    y = available.y() + (available.height() - window.frameGeometry().height()) // 2
    window.move(max(x, available.x()), max(y, available.y()))
    size_columns(window)
    if frame.isEmpty() and window.findChild(_RefitWhenFramed) is None:
        # An X11 window manager adds its title bar after show(): fit again once it has, or the whole-screen
        # window's bottom (the status bar) hangs below a laptop's screen.
        _RefitWhenFramed(window, available)


class _RefitWhenFramed(QObject):
    """Fits ``window`` to ``available`` again when the window manager's frame first shows around it."""

    def __init__(self, window: MainWindow, available: QRect) -> None:
        super().__init__(window)
        self.window, self.available = window, available
        window.installEventFilter(self)

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
            frame = self.window.frameGeometry()
            if frame.size() != self.window.geometry().size():
                self.window.removeEventFilter(self)
                if not self.available.contains(frame):
                    QTimer.singleShot(0, lambda: fit_to_screen(self.window, self.available))
        return False


def first_size(available: QSize, frame: QSize) -> QSize:
    """A first start's window size (its frame outside it) on a screen whose available area is ``available``:
    FIRST_SHARE of it, or PREFERRED where that is more and fits, never more than the area."""
    def side(room: int, preferred: int, frame_side: int) -> int:
        return min(room - frame_side, max(preferred, round(FIRST_SHARE * room) - frame_side))

    return QSize(side(available.width(), PREFERRED.width(), frame.width()),
                 side(available.height(), PREFERRED.height(), frame.height()))


def save_geometry(window: QMainWindow, settings: QSettings | None = None) -> None:
    """Remember where ``window`` is (not a full-screen presentation) for the next start: Qt's geometry, and the
    frame's corner as the window manager placed it (``place_on_screen`` puts it back there)."""
    if not window.isFullScreen():
        settings = settings or QSettings("Nodegrad", "Nodegrad")
        settings.setValue(GEOMETRY_KEY, window.saveGeometry())
        arrangement = getattr(window, "arrangement", None)  # a MainWindow's (a bare QMainWindow has none)
        if isinstance(arrangement, DockArrangement):
            arrangement.keep_bottom_height(settings)
        settings.setValue(FRAME_CORNER_KEY, window.frameGeometry().topLeft())


def place_on_screen(window: MainWindow, settings: QSettings | None = None, available: QRect | None = None) -> None:
    """Put a shown ``window`` where it was when it last closed, else (a first start) ``fit_to_screen``."""
    settings = settings or QSettings("Nodegrad", "Nodegrad")
    saved = settings.value(GEOMETRY_KEY)
    if saved and window.restoreGeometry(saved):
        size_columns(window)
        corner = settings.value(FRAME_CORNER_KEY)
        if isinstance(corner, QPoint):
            _keep_corner(window, corner, window.size())
    else:
        fit_to_screen(window, available)


def _keep_corner(window: MainWindow, corner: QPoint, size: QSize) -> None:
    """Move ``window``'s frame to ``corner`` once the window manager has framed it: restoreGeometry on a window
    whose title bar is not there yet leaves a screen-high window a few pixels lower on every start. ``size``
    (the restored one) is put back then too: with the window manager a second late, it framed the window at
    the size it was made with (1280x720) and the restored size was lost."""
    if window.frameGeometry().size() != window.geometry().size():  # framed already
        if window.frameGeometry().topLeft() != corner:
            window.move(corner)
    elif window.findChild(_MoveWhenFramed) is None:
        _MoveWhenFramed(window, corner, size)


class _MoveWhenFramed(QObject):
    """Moves ``window``'s frame to ``corner`` when the window manager's frame first shows around it. The frame
    can come without a Move or Resize of the window (the client area stays where it is), so a timer looks too,
    for up to 20 s: on a busy machine the window manager framed it seconds late (openbox held back 6 s), after
    the 3 s this looked before, and the window opened 5 px lower again."""

    TRIES, INTERVAL_MS = 400, 50

    def __init__(self, window: MainWindow, corner: QPoint, size: QSize) -> None:
        super().__init__(window)
        self.window, self.corner, self.size, self.tries = window, corner, size, 0
        window.installEventFilter(self)
        self.timer = QTimer(self)
        self.timer.setInterval(self.INTERVAL_MS)
        self.timer.timeout.connect(self._look)
        self.timer.start()

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() in (QEvent.Type.Move, QEvent.Type.Resize):
            self._look()
        return False

    def _look(self) -> None:
        self.tries += 1
        framed = self.window.frameGeometry().size() != self.window.geometry().size()
        if framed or self.tries >= self.TRIES:
            self.timer.stop()
            self.window.removeEventFilter(self)
            if framed and self.window.size() != self.size:
                self.window.resize(self.size)
            if framed and self.window.frameGeometry().topLeft() != self.corner:
                self.window.move(self.corner)
