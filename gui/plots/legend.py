"""The plots' legends: dark text on a see-through white box with a thin frame, and nothing at all while empty.

``add_legend`` puts one inside a plot's top right corner (pyqtgraph's place; drag it elsewhere);
``add_legend_beside`` puts one to the right of the plot's data area, under the plot's title, in the plot's own
layout, so that it never covers a curve: the loss plot's legend, inside the plot, covered the loss curves of a
1366x768 window. Both paint nothing while they have no entry (pyqtgraph's ``LegendItem`` paints its box and frame
even then, which left an empty square on a plot before the first run or pin); clicking an entry's sample hides its
curve.
"""

from __future__ import annotations

from typing import Any

import pyqtgraph as pg
from PySide6.QtCore import QSizeF, Qt
from PySide6.QtGui import QPainter
from PySide6.QtWidgets import QGraphicsItem, QGraphicsSceneMouseEvent, QSizePolicy

__all__ = ["add_legend", "add_legend_beside"]

STYLE = {"labelTextColor": (40, 40, 40), "pen": pg.mkPen(200, 200, 200), "brush": pg.mkBrush(255, 255, 255, 150)}


class _Legend(pg.LegendItem):
    def paint(self, painter: QPainter, *args: Any) -> None:
        if self.items:
            super().paint(painter, *args)


class _LaidOutLegend(_Legend):
    """A legend that its parent's layout places and sizes (pyqtgraph's sets its own geometry, and moves with a
    drag, which a layout would undo): its entries' width, and their height at most, never more than the plot's
    rows give it (no height of its own in its size hint); entries beyond that are cut off (``LossPlot`` names
    the newest run first)."""

    def updateSize(self) -> None:  # pyqtgraph override: called when entries come and go
        self.setMaximumHeight(self.layout.effectiveSizeHint(Qt.SizeHint.PreferredSize).height() if self.items else 0)
        self.updateGeometry()

    def sizeHint(self, which: Qt.SizeHint, constraint: QSizeF = QSizeF()) -> QSizeF:  # Qt override
        hint = super().sizeHint(which, constraint)
        return QSizeF(hint.width(), 0.0) if which != Qt.SizeHint.MaximumSize else hint

    def hoverEvent(self, ev: Any) -> None:  # pyqtgraph override: no drag to accept
        pass

    def mouseDragEvent(self, ev: QGraphicsSceneMouseEvent) -> None:  # pyqtgraph override
        ev.ignore()


def add_legend(plot: pg.PlotItem, **options: Any) -> pg.LegendItem:
    """A legend in ``plot``'s top right corner that plot items with a ``name`` join (like ``addLegend``)."""
    legend = _Legend(**{**STYLE, "offset": (-10, 10), **options})
    legend.setParentItem(plot.vb)
    plot.legend = legend
    return legend


def add_legend_beside(plot: pg.PlotItem, **options: Any) -> pg.LegendItem:
    """A legend right of ``plot``'s data area and axes, top-aligned, as wide as its entries (nothing while it has
    none), that plot items with a ``name`` join."""
    legend = _LaidOutLegend(**{**STYLE, "offset": None, **options})
    legend.setSizePolicy(QSizePolicy.Policy.Fixed, QSizePolicy.Policy.Preferred)  # the plot's height, see sizeHint
    legend.setFlag(QGraphicsItem.GraphicsItemFlag.ItemClipsChildrenToShape)
    # pyqtgraph's PlotItem: title, axes and view box in rows 0-3, columns 0-2. The legend takes rows 1-3 of a fourth
    # column and the title spans it too, so the legend sits under the plot's own title, level with its curves (it
    # stood at the title's height in the gap before the next plot, and read as belonging to neither)
    plot.layout.addItem(legend, 1, 3, 3, 1)
    plot.layout.setAlignment(legend, Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
    plot.layout.removeItem(plot.titleLabel)
    plot.layout.addItem(plot.titleLabel, 0, 1, 1, 3)
    plot.legend = legend
    return legend
