"""The data view: the graph's dataset and what the model makes of it, redrawn live during training.

2-D classification: the points coloured by class over the model's decision boundary (a heatmap of the
probability of class 1, or of the predicted class for more classes); 1-D regression: the points and the
fitted curve; images: a grid of fixed samples captioned with true and predicted class. Points the dataset
holds out for validation are hollow. The numbers come from ``core.nodegraph.training.trainview.prediction_view``;
this widget only draws them, on its own throttled timer and only when the session made a step since the
last draw. With nothing to show (another document, a session reset, no dataset) it is empty, never the
last document's or run's boundary.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import QRectF, QTimer
from PySide6.QtWidgets import QLabel, QVBoxLayout, QWidget

from core.nodegraph.training.trainview import prediction_view

if TYPE_CHECKING:
    from gui.plots.image_grid import ImageGrid
    from gui.session_bridge import SessionBridge

__all__ = ["DataView"]

EMPTY_CAPTION = "Train a graph with a data.dataset node to see its data here"
CLASS_COLORS = [(31, 119, 180), (255, 127, 14), (44, 160, 44), (214, 39, 40), (148, 103, 189), (140, 86, 75)]


def _boundary_lut() -> np.ndarray:
    """Blue (class 0) through white to orange (class 1), pale so the points stand out."""
    t = np.linspace(0.0, 1.0, 256)[:, None]
    blue, white, orange = np.array([150, 190, 230]), np.array([250, 250, 250]), np.array([250, 200, 150])
    lut = np.where(t < 0.5, blue + (white - blue) * (t / 0.5), white + (orange - white) * ((t - 0.5) / 0.5))
    return lut.astype(np.uint8)


class DataView(QWidget):
    REFRESH_MS = 400
    RESOLUTION = 32

    def __init__(self, bridge: SessionBridge, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dataView")
        self.bridge = bridge
        self.view: dict[str, Any] | None = None
        self.grid: ImageGrid | None = None  # the image grid, for image datasets
        self._drawn_step: tuple[int, int, int] | None = None
        self._points_key: tuple[bytes, bytes, bytes] | None = None
        self._brushes = [pg.mkBrush(*c) for c in CLASS_COLORS]
        self._hollow, self._pen = pg.mkBrush(255, 255, 255, 160), pg.mkPen(40, 40, 40, 120)
        self._rings = [pg.mkPen(*c, width=2) for c in CLASS_COLORS]
        self.plot = pg.PlotWidget(background="w")
        self.plot.setObjectName("dataPlot")
        self.plot.setAspectLocked(False)
        self.plot.setMinimumSize(240, 150)  # fits the bottom third of a 768-pixel screen
        self.image = pg.ImageItem(axisOrder="row-major")
        self.image.setLookupTable(_boundary_lut())
        self.plot.addItem(self.image)
        self.points = pg.ScatterPlotItem(size=6, pen=pg.mkPen(40, 40, 40, 120))
        self.plot.addItem(self.points)
        self.curve = self.plot.plot([], [], pen=pg.mkPen((214, 39, 40), width=2))
        self.caption = QLabel(EMPTY_CAPTION)
        self.caption.setObjectName("dataCaption")
        layout = QVBoxLayout(self)
        self._layout = layout
        layout.setContentsMargins(2, 2, 2, 2)
        layout.addWidget(self.plot, 1)
        layout.addWidget(self.caption)
        self.timer = QTimer(self)
        self.timer.setObjectName("dataViewTimer")
        self.timer.timeout.connect(self.refresh)
        self.timer.start(self.REFRESH_MS)

    def refresh(self, force: bool = False) -> None:
        """Redraw when the session moved on since the last draw (or ``force``)."""
        s = self.bridge.session
        if not self.isVisible() and not force:
            return
        if s is None:
            if self.view is not None or self._drawn_step is not None:
                self._drawn_step, self.view = None, None
                self.draw(None)
            return
        key = (id(s), s.step_count, len(s.values))
        if key == self._drawn_step and not force:
            return
        self._drawn_step = key
        self.view = prediction_view(s, self.RESOLUTION)
        self.draw(self.view)

    def _show_grid(self, on: bool) -> bool:
        """Image datasets get a grid of samples (``gui.plots.image_grid``, made on first use) instead of the plot."""
        if on and self.grid is None:
            from gui.plots.image_grid import ImageGrid

            self.grid = ImageGrid()
            self._layout.insertWidget(1, self.grid, 1)
        if self.grid is not None:
            self.grid.setVisible(on)
        self.plot.setVisible(not on)
        return on

    def _set_points(self, x: np.ndarray, y: np.ndarray, classes: np.ndarray,
                    held_out: np.ndarray | None = None) -> None:
        """The scatter only changes with the data (rendering it is the costly part): skip equal data. Points
        held out for validation are drawn hollow, ringed in their class colour."""
        held_out = np.zeros(len(x), dtype=bool) if held_out is None else held_out
        key = (x.tobytes(), y.tobytes(), held_out.tobytes())
        if key == self._points_key:
            return
        self._points_key = key
        k = len(CLASS_COLORS)
        brushes = [self._hollow if h else self._brushes[int(c) % k] for c, h in zip(classes, held_out)]
        pens = [self._rings[int(c) % k] if h else self._pen for c, h in zip(classes, held_out)]
        self.points.setData(x, y, brush=brushes, pen=pens)

    def clear(self) -> None:
        self.image.clear()
        self.points.setData([], [])
        self._points_key = None
        self.curve.setData([], [])
        if self.grid is not None:
            self._show_grid(False)
        self.caption.setText(EMPTY_CAPTION)

    def draw(self, view: dict[str, Any] | None) -> None:
        if view is None:
            self.clear()
            return
        if self._show_grid(view["kind"] == "images") and self.grid is not None:
            self.grid.draw(view)
            right = int((view["labels"] == view["predicted"]).sum())
            self.caption.setText(f"{len(view['labels'])} fixed samples: true class, then the prediction "
                                 f"({right} right)")
            return
        if view["kind"] == "classification":
            x0, x1, y0, y1 = view["extent"]
            levels = (0.0, 1.0) if view["classes"] <= 2 else (0.0, view["classes"] - 1.0)
            self.image.setImage(view["grid"], levels=levels, autoLevels=False)
            self.image.setRect(QRectF(x0, y0, x1 - x0, y1 - y0))
            self._set_points(view["X"][:, 0], view["X"][:, 1], view["y"], view.get("held_out"))
            self.curve.setData([], [])
            self.caption.setText(f"{len(view['y'])} points, {view['classes']} classes{_held(view)}; background: "
                                 "the model's decision boundary")
        else:
            self.image.clear()
            self._set_points(view["X"], view["y"], np.zeros(len(view["y"]), dtype=np.int64), view.get("held_out"))
            self.curve.setData(view["curve_x"], view["curve_y"])
            self.caption.setText(f"{len(view['y'])} points{_held(view)} and the fitted curve")


def _held(view: dict[str, Any]) -> str:
    n = int(np.count_nonzero(view.get("held_out", ())))
    return f" ({n} held out for validation: hollow)" if n else ""
