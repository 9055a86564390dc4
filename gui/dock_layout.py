"""Where the main window's docks go, so the canvas is the biggest thing on screen and the window fits a 1366x768
screen as well as a 1920x1080 one: ``DockArrangement`` places them in their columns (``gui.dock_columns`` sizes those)
and opens the bottom ones when there is something to show.

- Left: Lesson, Nodes (the node library), Autograd (the autograd graph) and Diagnostics share one column of
  tabs; right: Inspector, Train and History.
- Bottom: Plots (with Watch as a tab) and Data have nothing to show before training, so they stay hidden
  until the window's first training run or a port pinned to the Watch list
  (``DockArrangement.reveal_training``), or until the user opens them from the View menu; then they take a
  bit less than half of the height; Data joins the first run step that gives it points to draw (a graph without a
  dataset keeps the whole width for the plots). Another document hides them again (``document_changed``). Plots
  reopened from the View menu bring Data back beside them where it has points to draw.
  Plots alone (lesson 6: no Data) take less, ``PLOTS_SHARE``: their plots then stand in one row, and a lesson's graph
  keeps a readable canvas above them at 1366x768 (at ``BOTTOM_SHARE`` it was cut under the plots). The height the
  user drags the bottom docks to is kept, as a share of the window's height, for the next reveal and the next start
  (``PLOTS_HEIGHT_KEY``, saved with the geometry by ``gui.window_placement``).

Panels scroll inside their docks (``gui.dock_panels``); where the window opens is ``gui.window_placement``'s.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QSettings, Qt
from PySide6.QtWidgets import QDockWidget, QMainWindow, QTabBar

from gui.dock_columns import BOTTOM, LEFT, RIGHT, KeepCanvasShare, side_widths, tab_titles_width

__all__ = ["DockArrangement"]

BOTTOM_SHARE = 0.45  # of the window's height, for Plots and Data once they have content
PLOTS_SHARE = 0.3  # for Plots without Data: one row of plots (LossPlot.rows) and the rest for the canvas
PLOTS_HEIGHT_KEY = "window/plotsHeightShare"  # the share of the window's height the user left the bottom docks at


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
        self.keep_canvas = KeepCanvasShare(window, docks, self.size_columns)
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
