"""A colour table for a 2-D tensor (value or gradient) in the inspector: an image with a colour bar.

3-D/4-D tensors are shown as a grid of their 2-D slices (first 16). The widget is given an array
read from the session's tensor; pyqtgraph stays inside this plot module.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF
from PySide6.QtWidgets import QVBoxLayout, QWidget

from gui.plots.axis import IndexAxis

__all__ = ["Heatmap", "tile"]

MAX_TILES = 16


def tile(a: np.ndarray) -> np.ndarray:
    """A 2-D array as float64; a 3-D/4-D one as its first 2-D slices tiled in a grid with one-pixel NaN gaps (only
    those are read: a 32x64x112x112 tensor's 25 million values were converted first, 2.4 s on the GUI thread)."""
    if a.ndim == 2:
        return np.asarray(a, dtype=np.float64)
    slices = a.reshape(-1, *a.shape[-2:])[:MAX_TILES]
    cols = int(np.ceil(np.sqrt(len(slices))))
    rows = int(np.ceil(len(slices) / cols))
    h, w = a.shape[-2:]
    out = np.full((rows * (h + 1) - 1, cols * (w + 1) - 1), np.nan)
    for k, s in enumerate(slices):
        r, c = divmod(k, cols)
        out[r * (h + 1): r * (h + 1) + h, c * (w + 1): c * (w + 1) + w] = s
    return out


class Heatmap(QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("heatmap")
        self.layout_widget = pg.GraphicsLayoutWidget()
        self.rows_axis, self.columns_axis = IndexAxis("left"), IndexAxis("bottom")
        self.plot = self.layout_widget.addPlot(axisItems={"left": self.rows_axis, "bottom": self.columns_axis})
        self.plot.invertY(True)
        self.plot.setAspectLocked(True)
        self.image = pg.ImageItem()
        self.plot.addItem(self.image)
        self.bar = pg.ColorBarItem(colorMap=pg.colormap.get("viridis"), interactive=False)
        self.bar.setImageItem(self.image, insert_in=self.plot)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.layout_widget)
        self.setMinimumHeight(160)
        self.data: np.ndarray | None = None

    def set_array(self, a: np.ndarray) -> None:
        """Show ``a`` (2-D, or 3-D/4-D tiled); rows go down, columns across, like the printed tensor, each cell
        on its row and column index."""
        self.data = tile(np.asarray(a))
        finite = self.data[np.isfinite(self.data)]
        lo, hi = (float(finite.min()), float(finite.max())) if finite.size else (0.0, 1.0)
        self.image.setImage(self.data.T, autoLevels=False)
        rows, cols = self.data.shape
        self.image.setRect(QRectF(-0.5, -0.5, cols, rows))  # each cell centred on its index: row i, column j
        self.rows_axis.count, self.columns_axis.count = rows, cols
        self.bar.setLevels((lo, hi if hi > lo else lo + 1e-12))
