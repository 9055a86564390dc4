"""Axes for the small training plots: tick labels in a small font that never overlap, however short the plot.

pyqtgraph always draws its major tick level and puts at least two intervals on an axis, so a value axis
40 pixels high got four or five labels drawn over each other. ``CompactAxis`` keeps pyqtgraph's choice of
spacing when its labels fit and otherwise widens it along 1, 2, 5, 10, ... until neighbouring labels are
a label and a half apart (a value axis) or a label's width and a gap apart (a step axis).
"""

from __future__ import annotations

import math
from typing import Any

import pyqtgraph as pg
from PySide6.QtGui import QFont, QFontMetricsF

__all__ = ["CompactAxis", "IndexAxis", "compact_axes", "wider_spacing"]

TICK_POINTS = 8
LABEL_ROOM = 1.5  # a value label needs this many line heights of axis
LABEL_GAP = 0.5  # and a step label this many line heights of room beside its text


def wider_spacing(spacing: float) -> float:
    """The next tick spacing up in the 1, 2, 5, 10, 20, ... series."""
    exponent = math.floor(math.log10(spacing))
    mantissa = spacing / 10 ** exponent
    step = 2 if mantissa < 1.5 else 5 if mantissa < 3.5 else 10
    return step * 10 ** exponent


class CompactAxis(pg.AxisItem):
    """A plot axis with major ticks only, as many as have room for their labels (value axes), in 8 pt."""

    def __init__(self, orientation: str, whole: bool = False, **kwargs: Any) -> None:
        super().__init__(orientation, **kwargs)
        self.whole = whole  # ticks 1 apart at least: a step axis (one point's read 99.6 99.8 100.0 100.2 steps)
        font = QFont()
        font.setPointSize(TICK_POINTS)
        self.setStyle(tickFont=font, maxTickLevel=0)
        self._metrics = QFontMetricsF(font)
        self._line = self._metrics.height()

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:  # pyqtgraph override
        levels = super().tickSpacing(minVal, maxVal, size)
        if not levels or self._tickSpacing is not None or size <= 0:
            return levels
        span, spacing = abs(maxVal - minVal), levels[0][0]
        if self.whole:
            spacing = max(spacing, 1.0)
        while spacing * size / span < self._room(minVal, maxVal, spacing):
            spacing = wider_spacing(spacing)
        return [(spacing, 0.0)]

    def _room(self, lo: float, hi: float, spacing: float) -> float:
        """Pixels from one tick to the next that its label needs: a label and a half of height on a value axis;
        on a step axis half of two neighbouring labels' widths plus a gap of half a line (a 100 px step axis read
        ``0 200400600800``)."""
        if self.orientation in ("left", "right"):
            return self._line * LABEL_ROOM
        lo, hi = min(lo, hi), max(lo, hi)
        first, last = math.ceil(lo / spacing) * spacing, math.floor(hi / spacing) * spacing
        ticks = [first, first + spacing, last - spacing, last]  # the neighbours at either end: the widest labels
        widths = [self._metrics.horizontalAdvance(t)
                  for t in self.tickStrings(ticks, self.autoSIPrefixScale * self.scale, spacing)]
        return max(widths[0] + widths[1], widths[2] + widths[3]) / 2 + self._line * LABEL_GAP


def compact_axes() -> dict[str, pg.AxisItem]:
    """``axisItems`` for a small plot: a compact value axis on the left and a compact step axis (whole steps) below."""
    return {"left": CompactAxis("left"), "bottom": CompactAxis("bottom", whole=True)}


class IndexAxis(CompactAxis):
    """A row or column axis of a table of values: whole indices of the table only, 1, 2, 5, 10, ... apart as their
    labels have room (a 2 x 3 tensor's axes read 0 1 and 0 1 2, not 0, 0.5, 1, 1.5 or the -2 of the empty margin a
    square-celled table leaves). ``count``: the rows or columns the table has."""

    def __init__(self, orientation: str, **kwargs: Any) -> None:
        super().__init__(orientation, **kwargs)
        self.count = 0

    def tickSpacing(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, float]]:  # pyqtgraph override
        span = abs(maxVal - minVal)
        digits = len(str(max(self.count - 1, 0)))
        room = self._line * (LABEL_ROOM if self.orientation in ("left", "right") else 0.7 * digits + 1)
        spacing = 1.0
        while span and spacing * size / span < room:
            spacing = wider_spacing(spacing)
        return [(spacing, 0.0)]

    def tickValues(self, minVal: float, maxVal: float, size: float) -> list[tuple[float, list[float]]]:
        # pyqtgraph override: only the table's own indices
        return [(spacing, [v for v in values if 0 <= v < self.count])
                for spacing, values in super().tickValues(minVal, maxVal, size)]
