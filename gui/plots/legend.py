"""The plots' legend: dark text on a see-through white box with a thin frame, and nothing at all while empty.

pyqtgraph's ``LegendItem`` paints its box and frame even with no entry, which left an empty square on a
plot before the first run or pin.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtGui import QPainter

__all__ = ["add_legend"]


class _Legend(pg.LegendItem):
    def paint(self, painter: QPainter, *args: Any) -> None:
        if self.items:
            super().paint(painter, *args)


def add_legend(plot: pg.PlotItem, **options: Any) -> pg.LegendItem:
    """A legend in ``plot``'s top right corner that plot items with a ``name`` join (like ``addLegend``)."""
    style = {"offset": (-10, 10), "labelTextColor": (40, 40, 40), "pen": pg.mkPen(200, 200, 200),
             "brush": pg.mkBrush(255, 255, 255, 150)}
    legend = _Legend(**{**style, **options})
    legend.setParentItem(plot.vb)
    plot.legend = legend
    return legend
