"""Where the main window's docks go and how big they start, so the canvas is the biggest thing on screen and
the window fits a 1366x768 screen as well as a 1920x1080 one.

- Left: Lesson, Nodes (the node library), Autograd (the autograd graph) and Diagnostics share one column of
  tabs; right: Inspector, Train and History. Each column starts at about a fifth of the window's width
  (``side_widths``); the left one widens, up to ``LEFT_MAX_SHARE`` of the window, until its tab titles show
  whole (``tab_titles_width``); in a narrow window the right one gives up width, down to ``RIGHT_MIN``, until
  both take at most ``SIDES_MAX_SHARE`` of it.
- Bottom: Plots (with Watch as a tab) and Data have nothing to show before training, so they stay hidden
  until the window's first training run or a port pinned to the Watch list
  (``DockArrangement.reveal_training``), or until the user opens them from the View menu; then they take a
  bit less than half of the height; Data joins the first run step that gives it points to draw (a graph without a
  dataset keeps the whole width for the plots). Another document hides them again (``document_changed``). Plots
  reopened from the View menu bring Data back beside them where it has points to draw.
  Plots alone (lesson 6: no Data) take less, ``PLOTS_SHARE``: their plots then stand in one row, and a lesson's graph
  keeps a readable canvas above them at 1366x768 (at ``BOTTOM_SHARE`` it was cut under the plots). The height the
  user drags the bottom docks to is kept, as a share of the window's height, for the next reveal and the next start
  (``PLOTS_HEIGHT_KEY``, saved with the geometry).
- Panels that are long forms or fixed-size plots scroll inside their dock (``SCROLLED``), so no dock
  forces a minimum size on the window: the window's minimum stays far below 1366x768 whatever is open;
  their forms wrap long labels (``compact``) so a side column needs no sideways scrolling.
- A window made narrower or shorter keeps its canvas at ``CANVAS_MIN_SHARE`` of it: the docks give up their room
  in proportion (``_KeepCanvasShare``), and get it back when the window is made wide again.
- ``place_on_screen`` puts a shown window where it was when it last closed (``save_geometry``, kept in the
  app's settings), or on a first start sizes it with ``fit_to_screen``: most of its screen's available area
  (``FIRST_SHARE``, and at least ``PREFERRED`` where that fits; the whole of a laptop's), frame included.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, cast

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSettings, QSize, Qt, QTimer
from PySide6.QtGui import QAction, QFont, QResizeEvent
from PySide6.QtWidgets import (
    QApplication,
    QComboBox,
    QDockWidget,
    QFormLayout,
    QFrame,
    QLabel,
    QMainWindow,
    QPushButton,
    QScrollArea,
    QTabBar,
    QWidget,
)

if TYPE_CHECKING:
    from gui.main_window import MainWindow

__all__ = ["SCROLLED", "DockArrangement", "first_size", "fit_to_screen", "make_dock", "place_on_screen",
           "save_geometry", "scrolled", "side_widths", "size_columns", "tab_titles_width"]

SCROLLED = {"inspectorDock", "plotsDock", "dataDock", "watchDock"}  # these scroll when squeezed (Train: its settings)
PREFERRED = QSize(1600, 1000)  # at least this on a first start, where the screen has room for it
FIRST_SHARE = 0.9  # of the screen's available width and height, on a first start at any resolution
GEOMETRY_KEY = "window/geometry"  # in QSettings("Nodegrad", "Nodegrad"): where the window was when it closed
FRAME_CORNER_KEY = "window/frameCorner"  # and where its frame's top-left corner was (QPoint)
BOTTOM_SHARE = 0.45  # of the window's height, for Plots and Data once they have content
PLOTS_SHARE = 0.3  # for Plots without Data: one row of plots (LossPlot.rows) and the rest for the canvas
PLOTS_HEIGHT_KEY = "window/plotsHeightShare"  # the share of the window's height the user left the bottom docks at


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


LEFT_MAX_SHARE = 0.28  # of the window's width: more would squeeze the canvas, the biggest thing on screen
SIDES_MAX_SHARE = 0.45  # of the window's width for both columns: at 125 % on a 1366x768 laptop (1089 px) their
# floors took 53 % and left the canvas 496 px; the right one gives up width first (a 1366 px window keeps its widths)
RIGHT_MIN = 256  # px: the right column's least start width (the Inspector's device box and margins need it)
SQUEEZE_FROM = 1000  # px: a window at least this wide is a real one on a screen (a window under construction is
# narrower: its columns keep their floors, and one made narrower later is _KeepCanvasShare's)


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


LEFT = ("lesson", "library", "autograd", "diagnostics")  # tabs of the left column, in this order
RIGHT = ("inspector", "train", "history")
BOTTOM = ("plots", "watch", "data")  # Watch a tab behind Plots, Data beside them


def _place(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Every dock into its column, tabbed, built in one pass on an empty layout (tabifying into an area that
    already holds three docks leaves Qt's old tab bar painted over the window)."""
    for dock in docks.values():
        window.removeDockWidget(dock)
    for bar in window.findChildren(QTabBar):
        if bar.parent() is window:  # a dock tab bar: the layout shows again those it still uses
            bar.hide()
    for area, names in ((Qt.DockWidgetArea.LeftDockWidgetArea, LEFT), (Qt.DockWidgetArea.RightDockWidgetArea, RIGHT),
                        (Qt.DockWidgetArea.BottomDockWidgetArea, BOTTOM[:2])):
        present = [docks[n] for n in names if n in docks]
        if present:
            window.addDockWidget(area, present[0])
            for dock in present[1:]:
                window.tabifyDockWidget(present[0], dock)
    if "data" in docks:
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, docks["data"])
    for name, dock in docks.items():
        dock.setVisible(name not in BOTTOM and name != "history")


def _seed_bottom_sizes(window: QMainWindow, docks: dict[str, QDockWidget]) -> None:
    """Plots and Data laid out side by side once at a modest size: Qt keeps a dock's last size when it is placed
    again, so ``reveal_training`` later starts from these instead of an unplaced widget's 640x480."""
    bottom = [docks[n] for n in ("plots", "data") if n in docks]
    for dock in bottom:
        window.addDockWidget(Qt.DockWidgetArea.BottomDockWidgetArea, dock)
    if len(bottom) == 2:
        window.resizeDocks(bottom, [300, 300], Qt.Orientation.Vertical)
        window.resizeDocks(bottom, [700, 500], Qt.Orientation.Horizontal)


class DockArrangement:
    """A window's docks by role (``LEFT``, ``RIGHT``, ``BOTTOM``): placed in two tabbed side columns with the
    bottom ones hidden at construction, the columns sized by ``size_columns``, the bottom ones shown by
    ``reveal_training``. The window makes one and says when training starts or a port is pinned."""

    def __init__(self, window: QMainWindow, docks: dict[str, QDockWidget],
                 has_data: Callable[[], bool] = lambda: True) -> None:
        self.window, self.docks = window, docks
        self.has_data = has_data  # whether the Data view has something to draw (a dataset feeds the loss)
        self.data_offered = False  # Data was opened for this document's runs
        self.revealed_training = False
        self.reveal_pending = False  # a run started and has not stepped yet
        self.bottom_share: float | None = _saved_share()  # the height the user left Plots at (None: the default)
        self._placed_bottom: int | None = None  # the height reveal_training gave Plots (a different one: the user's)
        _seed_bottom_sizes(window, docks)
        _place(window, docks)
        if "plots" in docks and "data" in docks:  # View ▸ Plots (the user's toggle; a program's show() is not heard)
            docks["plots"].toggleViewAction().triggered.connect(self._plots_toggled)
        window.installEventFilter(_RaiseOnShow(window, [docks["library"], docks["inspector"]]))
        self.keep_canvas = _KeepCanvasShare(window, docks, self.size_columns)
        self.size_columns()

    def size_columns(self) -> None:
        """Give the side columns their share of the window's current width."""
        docks = self.docks
        left, right = side_widths(self.window.width(), tab_titles_width([docks[n] for n in LEFT if n in docks]))
        self.window.resizeDocks([docks["lesson" if "lesson" in docks else "library"], docks["inspector"]],
                                [left, right], Qt.Orientation.Horizontal)

    def document_changed(self) -> None:
        """Another document: its runs start empty, so Plots, Watch and Data, if training opened them, close again and
        give the canvas its room back (they stayed open, empty, with the last document's axes); the new document's
        first run, or a pinned port, opens them as before."""
        self.data_offered = False
        if self.revealed_training:
            self.keep_bottom_height()
            self.revealed_training = self.reveal_pending = False
            for name in BOTTOM:
                if name in self.docks:
                    self.docks[name].hide()

    def run_started(self) -> None:
        """A training run began: the plots open once it has a first step to draw (a run whose first step fails,
        a graph with no parameters, leaves the canvas its room and shows only the message)."""
        self.reveal_pending = True

    def run_stepped(self) -> None:
        if self.reveal_pending:
            self.reveal_pending = False
            self.reveal_training(with_data=self._offer_data())

    def runs_restored(self) -> None:
        """A document opened with the runs its file saved: the plots open to draw them, as at a first step."""
        self.reveal_training(with_data=self._offer_data())

    def _offer_data(self) -> bool:
        """Whether Data opens now: once a document, at the first run step that gives it something to draw (a graph
        without a dataset, lesson 6, would get an empty plot and a caption instead)."""
        if "data" not in self.docks or self.data_offered or not self.has_data():
            return False
        self.data_offered = True
        return True

    def _plots_toggled(self, shown: bool) -> None:
        """The user opened Plots from the View menu: Data, which belongs beside them, opens with them where it has
        something to draw (it stayed closed, and its points had to be found under View separately)."""
        if shown and not self.docks["data"].isVisible() and self.has_data():
            self.data_offered = True
            self.reveal_training(with_data=True)

    def reveal_training(self, front: str = "plots", with_data: bool = False) -> None:
        """Show Plots and Watch (the first time: BOTTOM_SHARE of the height), and ``with_data`` Data beside them (60 %
        and 40 % of the width), and bring ``front`` to the front; on a document's first training step and when a
        port is pinned to the Watch list."""
        window, docks = self.window, self.docks
        if not self.revealed_training:
            self.revealed_training = True
            for name in BOTTOM:
                if name in docks and (name != "data" or with_data):
                    docks[name].show()
            share = self.bottom_share or (BOTTOM_SHARE if with_data else PLOTS_SHARE)
            self._placed_bottom = int(window.height() * share)
            window.resizeDocks([docks["plots"]], [self._placed_bottom], Qt.Orientation.Vertical)
        elif with_data:
            docks["data"].show()
        if with_data:
            width = window.width()
            window.resizeDocks([docks["plots"], docks["data"]], [int(width * 0.6), int(width * 0.4)],
                               Qt.Orientation.Horizontal)
        if front in docks:
            docks[front].show()
            docks[front].raise_()


    def keep_bottom_height(self, settings: QSettings | None = None) -> None:
        """Remember the height the user dragged the shown bottom docks to (as a share of the window's height), for
        their next reveal and in ``settings`` for the next start; a height the window gave them is not kept."""
        plots, height = self.docks.get("plots"), self.window.height()
        if plots is None or not plots.isVisible() or plots.isFloating() or height <= 0:
            return
        area = self._bottom_area(plots)
        if self._placed_bottom is not None and abs(area - self._placed_bottom) <= 2:
            return  # as placed: the default for this window, not a choice
        self.bottom_share = area / height
        (settings or QSettings("Nodegrad", "Nodegrad")).setValue(PLOTS_HEIGHT_KEY, self.bottom_share)


    def _bottom_area(self, plots: QDockWidget) -> int:
        """The height of the bottom dock area (``resizeDocks``'s measure: the docks with their tab bar), from the
        top of ``plots`` to the status bar."""
        status = self.window.statusBar()
        bottom = status.geometry().top() if status.isVisible() else self.window.height()
        return bottom - plots.geometry().top()


def _saved_share() -> float | None:
    """The bottom docks' height share the last window kept (``keep_bottom_height``), if any and sensible."""
    try:
        share = float(QSettings("Nodegrad", "Nodegrad").value(PLOTS_HEIGHT_KEY, 0.0))  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return None
    return share if 0.1 <= share <= 0.7 else None


CANVAS_MIN_SHARE = (0.4, 0.35)  # of the window's width and height that the canvas keeps when the window shrinks


class _KeepCanvasShare(QObject):
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


class _RaiseOnShow(QObject):
    """Brings docks to the front of their tabs when the window is first shown (a raise before that is lost:
    Qt then shows the last tab added); a lesson opened afterwards raises its own tab."""

    def __init__(self, window: QMainWindow, docks: list[QDockWidget]) -> None:
        super().__init__(window)
        self.docks = docks

    def eventFilter(self, obj: QObject, event: QEvent) -> bool:  # Qt override
        if event.type() == QEvent.Type.Show:
            obj.removeEventFilter(self)
            for dock in self.docks:
                dock.raise_()
        return False


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
