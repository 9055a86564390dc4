"""A grid of sample images, each with its true class and the model's prediction under it: green when the
prediction is right, red when wrong. It draws an ``"images"`` view of ``core.nodegraph.training.trainview``
(``prediction_view``): the images are set again only when the samples change; captions every time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyqtgraph as pg
from PySide6.QtWidgets import QWidget

__all__ = ["ImageGrid", "caption"]

RIGHT, WRONG = "#2e8b3e", "#c0392b"


def caption(view: Mapping[str, Any], i: int) -> tuple[str, str]:
    """``(text, colour)`` under sample ``i``: true class (marked when the validation split holds it out), then
    prediction and confidence."""
    names = view["class_names"]
    true, pred = int(view["labels"][i]), int(view["predicted"][i])

    def name(c: int) -> str:
        return names[c] if 0 <= c < len(names) else str(c)

    ok = true == pred
    held = view.get("held_out")
    tag = " (held out)" if held is not None and held[view["indices"][i]] else ""
    return (f"{name(true)}{tag}<br>{'✓' if ok else '✗'} {name(pred)} {view['confidence'][i]:.0%}",
            RIGHT if ok else WRONG)


class ImageGrid(pg.GraphicsLayoutWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("imageGrid")
        self.setBackground("w")
        self.setMinimumSize(300, 280)
        self.cells: list[tuple[pg.ViewBox, pg.ImageItem, pg.LabelItem]] = []
        self.captions: list[tuple[str, str]] = []  # (text, colour) as shown
        self._images_key: tuple[bytes, tuple[int, ...], float] | None = None

    def _build(self, count: int) -> None:
        self.clear()
        self.cells = []
        cols = max(1, math.ceil(math.sqrt(count)))
        for i in range(count):
            r, c = divmod(i, cols)
            box = self.addViewBox(row=2 * r, col=c, lockAspect=True, enableMouse=False)
            box.invertY(True)
            image = pg.ImageItem(axisOrder="row-major")
            box.addItem(image)
            label = self.addLabel("", row=2 * r + 1, col=c, size="8pt")
            self.cells.append((box, image, label))

    def draw(self, view: Mapping[str, Any]) -> None:
        images = view["images"]
        if len(self.cells) != len(images):
            self._build(len(images))
            self._images_key = None
        key = (view["indices"].tobytes(), images.shape, float(np.asarray(images).sum()))
        if key != self._images_key:
            self._images_key = key
            for (box, image, _), img in zip(self.cells, images):
                image.setImage(np.asarray(img, dtype=np.float64), autoLevels=True)
                box.autoRange(padding=0.02)
        self.captions = [caption(view, i) for i in range(len(images))]
        for (_, _, label), (text, colour) in zip(self.cells, self.captions):
            label.setText(text, color=colour, size="8pt")
