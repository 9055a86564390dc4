"""The plots' legend draws nothing while it has no entry (no empty box on a fresh plot), and a box once it has."""

import pyqtgraph as pg
from PySide6.QtGui import QImage, QPainter

from gui.plots.legend import add_legend


def _painted(item) -> int:
    """How many pixels painting ``item`` alone leaves non-transparent."""
    image = QImage(200, 100, QImage.Format_ARGB32)
    image.fill(0)
    painter = QPainter(image)
    item.paint(painter, None, None)
    painter.end()
    return sum(1 for y in range(image.height()) for x in range(image.width()) if image.pixelColor(x, y).alpha())


def test_an_empty_legend_paints_nothing_and_one_with_an_entry_paints_its_box(qtbot):
    widget = pg.GraphicsLayoutWidget()
    qtbot.addWidget(widget)
    plot = widget.addPlot()
    legend = add_legend(plot)
    legend.setGeometry(0, 0, 120, 40)
    assert _painted(legend) == 0
    plot.plot([0, 1], [1, 0], name="run 1")
    assert legend.items and _painted(legend) > 0
