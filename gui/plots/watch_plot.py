"""The watch plot: each pinned port's value (top) and gradient (bottom) against the step, with a legend.

It draws what a ``core.nodegraph.training.watch.WatchList`` recorded, polling it on its own timer (``REFRESH_MS``)
so training speed never depends on it; a port's curves are redrawn only when its series changed. One
colour per port, the same in both plots; legend entries say whether a number is the value itself or
the mean (a gradient: itself or the norm) for tensors of more than one element.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import pyqtgraph as pg
from PySide6.QtCore import QTimer
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QWidget

from core.nodegraph.model.names import key_label
from gui.plots.axis import compact_axes
from gui.plots.legend import add_legend

if TYPE_CHECKING:
    import numpy as np

    from core.nodegraph.model.document import Graph
    from core.nodegraph.training.watch import WatchList

__all__ = ["WatchPlot"]


def _color(i: int) -> QColor:
    return pg.intColor(i, hues=8, values=1, maxValue=220)


class WatchPlot(pg.GraphicsLayoutWidget):
    REFRESH_MS = 250

    def __init__(self, watch: WatchList | None = None, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("watchPlot")
        self.setBackground("w")
        self.setMinimumHeight(220)
        self.watch = watch
        self.value_plot = self.addPlot(row=0, col=0, title="watched values", axisItems=compact_axes())
        self.grad_plot = self.addPlot(row=1, col=0, title="their gradients", axisItems=compact_axes())
        self.grad_plot.setXLink(self.value_plot)
        for p in (self.value_plot, self.grad_plot):
            p.showGrid(x=True, y=True, alpha=0.2)
        self.value_legend = add_legend(self.value_plot, brush=pg.mkBrush(255, 255, 255, 210))
        self.grad_legend = add_legend(self.grad_plot, brush=pg.mkBrush(255, 255, 255, 210))
        self.items: dict[str, tuple[pg.PlotDataItem, pg.PlotDataItem, int]] = {}  # key -> (value, grad, colour)
        self._drawn: dict[str, tuple[object, ...]] = {}
        self.timer = QTimer(self)
        self.timer.setObjectName("watchPlotTimer")
        self.timer.timeout.connect(self.refresh)
        self.timer.start(self.REFRESH_MS)

    def set_watch(self, watch: WatchList | None) -> None:
        """Draw another watch list (another document)."""
        self.watch = watch
        self.refresh()

    def refresh(self) -> None:
        watch = self.watch
        keys = watch.keys if watch is not None else []
        for key in [k for k in self.items if k not in keys]:
            self._drop(key)
        if watch is None:
            return
        for i, key in enumerate(keys):
            steps, values, grads = watch.series(key)
            labels = watch.labels(key)
            state = (len(steps), steps[-1] if len(steps) else None, values[-1] if len(values) else None, labels, i)
            if self._drawn.get(key) == state:
                continue
            self._drawn[key] = state
            value_item, grad_item = self._items(key, i, labels, watch.graph)
            value_item.setData(steps, values)
            grad_item.setData(steps, grads)

    def _items(self, key: str, i: int, labels: tuple[str, str],
               graph: Graph | None) -> tuple[pg.PlotDataItem, pg.PlotDataItem]:
        """The key's two curves, (re)made when its colour or labels changed."""
        shown = key_label(graph, key)  # the node's title, not its id
        names = (f"{shown} {labels[0]}", f"{shown} grad" if labels[1] == "grad" else f"{shown} grad {labels[1]}")
        found = self.items.get(key)
        if found is not None and (found[0].name(), found[1].name(), found[2]) == (*names, i):
            return found[:2]
        if found is not None:
            self._drop(key)
        pen = pg.mkPen(_color(i), width=2)
        value_item = self.value_plot.plot([], [], pen=pen, name=names[0], connect="finite")
        grad_item = self.grad_plot.plot([], [], pen=pg.mkPen(_color(i), width=2, style=pg.QtCore.Qt.DashLine),
                                        name=names[1], connect="finite")
        self.items[key] = (value_item, grad_item, i)
        return value_item, grad_item

    def _drop(self, key: str) -> None:
        value_item, grad_item, _ = self.items.pop(key)
        self._drawn.pop(key, None)
        self.value_plot.removeItem(value_item)
        self.grad_plot.removeItem(grad_item)
        self.value_legend.removeItem(value_item)
        self.grad_legend.removeItem(grad_item)

    def curves(self, key: str) -> tuple[tuple[np.ndarray, np.ndarray], tuple[np.ndarray, np.ndarray]]:
        """``((steps, values), (steps, grads))`` as drawn (tests and exports read these)."""
        value_item, grad_item, _ = self.items[key]
        return value_item.getData(), grad_item.getData()
