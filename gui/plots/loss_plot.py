"""Live training plots: loss (raw and smoothed, log toggle), accuracy, learning rate, per-parameter
gradient norm and update/weight ratio, for every run of a ``RunHistory``; when the dataset has a validation
split, the validation loss and accuracy (dashed, with a dot per measured step) beside them.

The widget polls the history on its own timer (``REFRESH_MS``), so it redraws at a steady rate however
fast training runs; each (run, series) is one plot item updated with ``setData`` on min/max-decimated
data (``core.nodegraph.training.runs.decimate``), and finished runs are not redrawn. Runs are told apart by
colour with a legend entry carrying their hyperparameters (under the loss plot's title, right of its curves, never
over them, the newest run first), parameters by colour, named in a legend beside each parameter plot's curves;
a model that is not a classifier gets no accuracy plot once it has stepped (the loss plot takes its room, its title
says why); markers (hyperparameter changes, stop messages) are vertical lines.
Hovering shows the step and values under the cursor; the plots can be frozen, zoomed (following the latest step
again with Follow) and exported as PNG or CSV.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QPointF, Qt, QTimer
from PySide6.QtGui import QColor, QPen, QResizeEvent
from PySide6.QtWidgets import QCheckBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from core.nodegraph.training.runs import decimate
from gui import file_ops
from gui import format as fmt
from gui.plots.axis import compact_axes
from gui.plots.legend import add_legend_beside

if TYPE_CHECKING:
    from core.nodegraph.training.runs import Run, RunHistory

__all__ = ["LossPlot"]

LEGEND_RUNS = 6  # runs the legend names (the latest); a 1366x768 window's loss plot has room for three
MARKER_CHARS = 32  # a marker's label on the plot; its tooltip has the whole text
MARKER_ROWS = (0.85, 0.35)  # heights of markers' labels (fraction of the plot), taken in turn: the labels of markers
# a few steps apart (an lr change, then the stop it caused) sit on two rows instead of over each other, apart by more
# than a label's height even in a 1366x768 window's loss plot (70 px high)
PARAM_PLOTS = ("grad_norm", "update_ratio")  # plots of a curve per parameter, each with its legend of them
EMPTY_RANGE = (0.0, 1.0)  # pyqtgraph's range for a view with nothing drawn yet
FLAT = 1e-6  # a series whose values span less than this fraction of their size is flat (float32 rounding at most)
# the loss plot's title says it when steps of another loss hid accuracy
NO_ACCURACY = "no accuracy plot (not a classification loss)"
PLOTS = (("loss", "loss"), ("accuracy", "accuracy"), ("lr", "learning rate"), ("grad_norm", "gradient norm"),
         ("update_ratio", "update / weight"))
# where each plot sits (row, column, columns spanned), in two rows (a third row left each plot too short to read), or
# in one row where the plots are wide and low (a bottom dock under a lesson's small graph: two rows left the loss plot
# 65 px high at 1366x768 and the dock took half the window); without accuracy the loss plot takes its column too
GRIDS = {2: {"loss": (0, 0, 2), "accuracy": (0, 2, 1), "lr": (1, 0, 1), "grad_norm": (1, 1, 1),
             "update_ratio": (1, 2, 1)},
         1: {"loss": (0, 0, 2), "accuracy": (0, 2, 1), "lr": (0, 3, 1), "grad_norm": (0, 4, 1),
             "update_ratio": (0, 5, 1)}}
ONE_ROW_BELOW = 300  # px: the plots' widget lower than this lays them out in one row, where it is wide enough...
ONE_ROW_FROM = 1000  # px: ...for six columns (a 1366x768 window's full-width dock, not the plots beside Data)
MIN_HEIGHT = {2: 240, 1: 140}  # the plots' least height by rows, tick labels apart (gui.plots.axis): two rows in a
# third of a 768-pixel screen, one row in a fifth (lower, the dock scrolls them)


def _color(i: int, alpha: int = 255) -> QColor:
    c = pg.intColor(i, hues=8, values=1, maxValue=230)
    c.setAlpha(alpha)
    return c


class LossPlot(QWidget):
    REFRESH_MS = 200
    MAX_POINTS = 2000

    def __init__(self, history: RunHistory, parent: QWidget | None = None,
                 start_path: Callable[[str], str] | None = None,
                 labels: Callable[[list[str]], dict[str, str]] | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lossPlot")
        self.history = history
        self.items: dict[tuple[int, str], pg.PlotDataItem] = {}  # (run number, series) -> its curve
        self._drawn: dict[tuple[int, str], tuple[int, int]] = {}  # (run number, plot) -> (steps, markers) drawn
        self._markers: dict[tuple[int, int], pg.InfiniteLine] = {}  # (run number, marker index) -> its line
        self._accuracy_runs: set[int] = set()  # runs that reported an accuracy (a classifier's loss)
        self._dotted: set[pg.PlotDataItem] = set()  # curves of one point, drawn as a dot until they have a line
        self._only: set[str] | None = None  # the plots the current refresh draws (None: all)
        self.start_path = start_path  # name -> where the export dialog starts (the window's document folder)
        # a run's parameter keys (n2.0.weight, n9.w_cut) -> what the learner reads (mlp.0.weight, w_cut)
        self.labels = labels or (lambda keys: {key: key for key in keys})
        self._build()
        self.timer = QTimer(self)
        self.timer.setObjectName("lossPlotTimer")
        self.timer.timeout.connect(self.refresh)
        self.timer.start(self.REFRESH_MS)

    def _build(self) -> None:
        bar = self._build_bar()
        self.canvas = pg.GraphicsLayoutWidget()
        self.canvas.setObjectName("plotCanvas")
        self.canvas.setBackground("w")
        self.canvas.setMinimumHeight(MIN_HEIGHT[2])
        self.plots: dict[str, pg.PlotItem] = {}
        self.rows = 2  # the plots' rows (GRIDS), one where the widget is wide and low (``resizeEvent``)
        for name, title in PLOTS:
            row, col, span = GRIDS[self.rows][name]
            p = self.canvas.addPlot(row=row, col=col, colspan=span, title=title, axisItems=compact_axes())
            p.showGrid(x=True, y=True, alpha=0.2)
            for side in ("left", "bottom"):  # major ticks only: half the cost of a redraw during training
                p.getAxis(side).setStyle(maxTickLevel=0)
            self.plots[name] = p
        self.legend = add_legend_beside(self.plots["loss"])  # beside the curves, never over them, under its title
        # which curve is which parameter, beside each parameter plot (the update / weight plot had none: a learner
        # looked for its colours in the plot beside it); small and tight: a 1366x768 window's plot row is about
        # 100 px high, and a 2-layer MLP has four entries
        self.param_legends = {plot: add_legend_beside(self.plots[plot], labelTextSize="7pt", verSpacing=-8)
                              for plot in PARAM_PLOTS}
        self.param_legend = self.param_legends["grad_norm"]
        self._params_named: dict[str, tuple[int, tuple[str, ...]]] = {}  # plot: (run, its series the legend names)
        self.accuracy_shown = True  # False once steps of a loss that is not a classifier's left it nothing to show
        self.canvas.scene().sigMouseMoved.connect(self._on_mouse)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addLayout(bar)
        layout.addWidget(self.canvas, 1)

    def _log_loss(self, on: bool) -> None:
        """The loss on a log axis (or back): a flat loss's range is set again in the axis's units."""
        self.plots["loss"].setLogMode(y=on)
        self.plots["loss"].enableAutoRange(axis="y", enable=self.follow_box.isChecked())
        self._flat_range("loss")

    def _build_bar(self) -> QHBoxLayout:
        """The row above the plots: log, follow and pause boxes, the export buttons and the hover readout."""
        bar = QHBoxLayout()
        self.log_box = QCheckBox("log loss")
        self.log_box.toggled.connect(self._log_loss)
        self.follow_box = QCheckBox("follow")
        self.follow_box.setChecked(True)
        self.follow_box.toggled.connect(self._follow)
        self.freeze_box = QCheckBox("pause plots")
        png = QPushButton("PNG…")
        png.clicked.connect(lambda: self._export_dialog("png"))
        csv_button = QPushButton("CSV…")
        csv_button.clicked.connect(lambda: self._export_dialog("csv"))
        self.hover = QLabel("")
        named: list[tuple[QWidget, str]] = [(self.log_box, "plotLog"), (self.follow_box, "plotFollow"),
                                            (self.freeze_box, "plotPause"), (png, "plotExportPng"),
                                            (csv_button, "plotExportCsv"), (self.hover, "plotHover")]
        for w, name in named:
            w.setObjectName(name)
        for w in (self.log_box, self.follow_box, self.freeze_box, png, csv_button):
            bar.addWidget(w)
        bar.addWidget(self.hover, 1)
        return bar

    # ----- drawing --------------------------------------------------------------------------------------------
    def _item(self, run: Run, plot: str, series: str, pen: QPen, name: str | None = None) -> pg.PlotDataItem | None:
        if self._only is not None and plot not in self._only:
            return None
        key = (run.number, series)
        item = self.items.get(key)
        if item is None:
            item = self.plots[plot].plot([], [], pen=pen, name=name, connect="finite")
            self.items[key] = item
            if name is not None and run.number > 1:
                self._name_latest_runs(run.number)
        return item

    def _name_latest_runs(self, newest: int) -> None:
        """The legend names the latest ``LEGEND_RUNS`` runs, the newest first: it sits beside the loss plot and
        cuts off what its height can't hold, so the runs cut off are the oldest (their curves stay drawn)."""
        self.legend.clear()
        named = [(number, item) for (number, _series), item in self.items.items()
                 if number > newest - LEGEND_RUNS and item.name() is not None]
        for _number, item in sorted(named, key=lambda entry: -entry[0]):  # stable: a run's own entries in order
            self.legend.addItem(item, item.name())

    def refresh(self, plots: Iterable[str] | None = None) -> None:
        """Redraw the series that changed since the last refresh (the current run, and new runs). ``plots``
        (names of ``PLOTS``) limits the redraw to those plots: while training, the trainer's frames redraw
        one plot each, so no single frame holds the event loop for all of them."""
        if self.freeze_box.isChecked():
            return
        names = tuple(self.plots) if plots is None else tuple(plots)
        changed: set[str] = set()
        for run in self.history.runs:
            state = (len(run), len(run.markers))
            todo = {p for p in names if self._drawn.get((run.number, p)) != state}
            if not todo:
                continue
            self._only = todo
            try:
                self._draw_run(run)
            finally:
                self._only = None
            for p in todo:
                self._drawn[(run.number, p)] = state
            changed |= todo
        for name in changed:
            self._flat_range(name)
        if "accuracy" in names:
            self._title_accuracy()

    def _title_accuracy(self) -> None:
        """A regression's steps leave the accuracy plot empty: it gives its place to the loss plot, whose title says
        why there is no accuracy (an empty plot took a third of the row)."""
        stepped = any(len(run) for run in self.history.runs)
        self.show_accuracy(not stepped or bool(self._accuracy_runs))

    def show_accuracy(self, on: bool) -> None:
        """Give the accuracy plot its column (``on``), or hide it and let the loss plot take that column too (the
        whole first row of two)."""
        if on == self.accuracy_shown:
            return
        self.accuracy_shown = on
        self._lay_out()
        self.plots["accuracy"].setVisible(on)
        self.plots["loss"].setTitle("loss" if on else f"loss · {NO_ACCURACY}")

    def resizeEvent(self, event: QResizeEvent) -> None:  # Qt override: one row where wide and low, else two
        super().resizeEvent(event)
        size = event.size()
        rows = 1 if size.height() < ONE_ROW_BELOW and size.width() >= ONE_ROW_FROM else 2
        if rows != self.rows:
            self.rows = rows
            self._lay_out()

    def _lay_out(self) -> None:
        """Put the plots where ``GRIDS[self.rows]`` says (the accuracy plot only while shown)."""
        self.canvas.setMinimumHeight(MIN_HEIGHT[self.rows])
        grid = self.canvas.ci.layout
        for i in reversed(range(grid.count())):
            grid.removeAt(i)
        for name, (row, col, span) in GRIDS[self.rows].items():
            if name == "accuracy" and not self.accuracy_shown:
                continue
            if name == "loss" and not self.accuracy_shown:
                span += 1
            grid.addItem(self.plots[name], row, col, 1, span)
        columns = max(col + span for _row, col, span in GRIDS[self.rows].values())
        for col in range(max(grid.columnCount(), columns)):  # a plot's width by the columns it spans
            grid.setColumnStretchFactor(col, 1 if col < columns else 0)

    def clear(self) -> None:
        """Forget every drawn run (the trainer forgot its runs: another document)."""
        for plot in self.plots.values():
            for item in plot.listDataItems():
                plot.removeItem(item)
        for line in self._markers.values():
            self.plots["loss"].removeItem(line)
        self.legend.clear()
        for legend in self.param_legends.values():
            legend.clear()
        self._params_named = {}
        self.items, self._drawn, self._markers = {}, {}, {}
        self._accuracy_runs.clear()
        self._dotted.clear()
        self.show_accuracy(True)
        self.hover.setText("")
        for plot in self.plots.values():  # the axes of no run, not the old document's (nor its hand zoom)
            plot.setRange(xRange=EMPTY_RANGE, yRange=EMPTY_RANGE, padding=0)
            plot.enableAutoRange(enable=self.follow_box.isChecked())

    def _flat_range(self, name: str) -> None:
        """A flat series (a constant learning rate; lesson 10's loss stuck at 1.2858) gets a range of ±50% around
        its value, or half a decade each way on a log axis: pyqtgraph centred a flat line in a range of about ±0.3
        whatever its size (0.05 sat on an axis from -0.2 to 0.4), or of ±4e-15 when the values differ in their last
        bits, whose ticks read 1.285831451416018. A series that moves gets the automatic range back."""
        plot = self.plots[name]
        if not self.follow_box.isChecked():
            return
        ys = [item.yData for item in plot.listDataItems() if item.yData is not None and len(item.yData)]
        y = np.concatenate(ys) if ys else np.empty(0)
        log = bool(plot.getAxis("left").logMode)
        y = y[np.isfinite(y) & (y > 0)] if log else y[np.isfinite(y)]
        if not len(y):
            return
        lo, hi = float(y.min()), float(y.max())
        if hi - lo > FLAT * max(abs(hi), abs(lo)):
            plot.enableAutoRange(axis="y", enable=True)
        elif log:
            plot.setYRange(np.log10(lo) - 0.5, np.log10(hi) + 0.5, padding=0)
        else:
            pad = abs(hi) * 0.5 or 0.5
            plot.setYRange(lo - pad, hi + pad, padding=0)

    def _draw_run(self, run: Run) -> None:
        i = run.number - 1
        steps = run.steps()
        self._set(self._item(run, "loss", "loss", pg.mkPen(_color(i, 70))), steps, run.series("loss"))
        name = run.label.replace(" → ", "<br>→ ")  # an optimizer a line: one long line took the loss plot's room
        smoothed = self._item(run, "loss", "smoothed", pg.mkPen(_color(i), width=2), name)
        if smoothed is not None and smoothed.name() != name:  # an optimizer switched mid-run: name both
            smoothed.opts["name"] = name
            self._name_latest_runs(max(number for number, _series in self.items))
        self._set(smoothed, steps, run.series("smoothed"))
        accuracy = run.series("accuracy")
        self._set(self._item(run, "accuracy", "accuracy", pg.mkPen(_color(i), width=2)), steps, accuracy)
        if run.number not in self._accuracy_runs and (self._only is None or "accuracy" in self._only) \
                and np.isfinite(accuracy).any():
            self._accuracy_runs.add(run.number)
        self._set(self._item(run, "lr", "lr", pg.mkPen(_color(i), width=2)), steps, run.series("lr"))
        self._draw_validation(run)
        style = Qt.PenStyle.SolidLine if run is self.history.current else Qt.PenStyle.DashLine
        params = [n for n in run.names() if n.startswith("grad_norm/")]
        for j, name in enumerate(params):
            param = name.split("/", 1)[1]
            pen = pg.mkPen(_color(j + 3), width=1, style=style)
            self._set(self._item(run, "grad_norm", name, pen), steps, run.series(name))
            self._set(self._item(run, "update_ratio", f"update_ratio/{param}", pen), steps,
                      run.series(f"update_ratio/{param}"))
        self._name_params(run, params)
        for k, (step, text) in enumerate(run.markers):
            if (run.number, k) not in self._markers:
                short = text if len(text) <= MARKER_CHARS else text[:MARKER_CHARS - 1] + "…"
                row = MARKER_ROWS[len(self._markers) % len(MARKER_ROWS)]
                line = pg.InfiniteLine(step, angle=90, pen=pg.mkPen(_color(i), style=Qt.PenStyle.DotLine),
                                       label=short, labelOpts={"position": row, "color": (60, 60, 60)})
                line.setToolTip(text)  # the whole message (a stop condition's can be long)
                self.plots["loss"].addItem(line)
                self._markers[(run.number, k)] = line

    def _name_params(self, run: Run, params: list[str]) -> None:
        """Each parameter plot's legend names the parameters of the newest run drawn (``w_cut``, ``mlp.0.weight``,
        by ``labels``), one entry a curve, in the colours both parameter plots use."""
        if not params:
            return
        names = [name.split("/", 1)[1] for name in params]
        for plot, legend in self.param_legends.items():
            series = tuple(f"{plot}/{name}" for name in names)
            last = self._params_named.get(plot)
            if (last is not None and (last[0] > run.number or last == (run.number, series))) \
                    or any((run.number, s) not in self.items for s in series):
                continue  # an older run, named already, or a refresh that leaves this plot alone
            self._params_named[plot] = (run.number, series)
            legend.clear()
            labels = self.labels(names)
            for name, s in zip(names, series):
                legend.addItem(self.items[(run.number, s)], labels[name])

    def _draw_validation(self, run: Run) -> None:
        """The sparse val series (steps that measured them) dashed in the run's colour, once there are any."""
        i = run.number - 1
        for plot, name in (("loss", "val_loss"), ("accuracy", "val_accuracy")):
            x, y = run.sparse(name)
            if not len(x):
                continue
            pen = pg.mkPen(_color(i), width=2, style=Qt.PenStyle.DashLine)
            label = f"run {run.number}: validation" if plot == "loss" else None
            item = self._item(run, plot, name, pen, label)
            if item is None:  # a plot this refresh leaves alone
                continue
            if item.opts.get("symbol") is None:
                item.setSymbol("o")
                item.setSymbolSize(5)
                item.setSymbolPen(pg.mkPen(_color(i)))
                item.setSymbolBrush(_color(i))
            self._set(item, x, y)

    def _set(self, item: pg.PlotDataItem | None, x: np.ndarray, y: np.ndarray) -> None:
        if item is None:  # a plot this refresh leaves alone
            return
        if len(y) and not np.isfinite(y).any():
            item.setData([], [])
            return
        box = item.getViewBox()
        width = box.width() if box is not None else 0
        points = min(self.MAX_POINTS, max(200, int(3 * width)))  # more than the pixels can show is wasted paint
        dx, dy = decimate(x, y, points)
        item.setData(dx, dy)
        if len(dx) == 1 and item.opts.get("symbol") is None:  # one step (Step on its own): a line of one point
            colour = pg.mkPen(item.opts["pen"]).color()  # draws nothing, the plot looked empty
            item.setSymbol("o")
            item.setSymbolSize(6)
            item.setSymbolPen(pg.mkPen(colour))
            item.setSymbolBrush(colour)
            self._dotted.add(item)
        elif len(dx) > 1 and item in self._dotted:  # the line shows it now (validation's own dots stay)
            item.setSymbol(None)
            self._dotted.discard(item)
            for legend in (self.legend, *self.param_legends.values()):  # their samples drew the dot still
                for sample, _label in legend.items:
                    sample.update()

    def _follow(self, on: bool) -> None:
        for p in self.plots.values():
            p.enableAutoRange(enable=on)

    # ----- hover and export -------------------------------------------------------------------------------------
    def _on_mouse(self, pos: QPointF) -> None:
        run = self.history.current
        for p in self.plots.values():
            if run is not None and len(run) and p.sceneBoundingRect().contains(pos):
                x = p.vb.mapSceneToView(pos).x()
                self.hover.setText(self.describe(run, x))
                return

    @staticmethod
    def describe(run: Run, x: float) -> str:
        """The values of ``run`` at the step nearest ``x``."""
        steps = run.steps()
        i = int(np.argmin(np.abs(steps - x)))
        parts = [f"run {run.number} step {int(steps[i])}"]
        for name in ("loss", "smoothed", "accuracy", "val_loss", "val_accuracy", "lr"):
            v = run.series(name)[i]
            if np.isfinite(v):  # a loss or accuracy as print writes its tensor (as the canvas does); lr a float
                parts.append(f"{name} {fmt.number(float(v)) if name == 'lr' else fmt.scalar(v)}")
        return " · ".join(parts)

    def export_png(self, path: str) -> bool:
        return self.canvas.grab().save(path)

    def export_csv(self, path: str) -> None:
        with open(path, "w", encoding="utf-8") as f:
            f.write(self.history.to_csv())

    def _export_dialog(self, kind: str) -> None:
        name = f"training.{kind}"
        path, _ = file_ops.save_file_name(self, f"Export {kind.upper()}",
                                          self.start_path(name) if self.start_path else name,
                                          f"{kind.upper()} (*.{kind})")
        path = file_ops.save_path(self, path, f"(*.{kind})")
        if path:
            self.export_png(path) if kind == "png" else self.export_csv(path)
