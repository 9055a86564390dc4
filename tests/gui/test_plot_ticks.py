"""The small training plots keep their tick labels apart, however short the plots are."""

import pytest
from PySide6.QtGui import QImage, QPainter

from gui.plots.axis import wider_spacing


def _text_specs(axis) -> list:
    """The (rect, flags, text) of each tick label the axis draws now (pyqtgraph's own drawing plan)."""
    image = QImage(10, 10, QImage.Format_ARGB32)
    painter = QPainter(image)
    try:
        specs = axis.generateDrawSpecs(painter)
    finally:
        painter.end()
    return list(specs[2]) if specs else []


def drawn_labels(axis) -> list:
    """The rects of the tick labels the axis draws now."""
    return [rect for rect, _flags, _text in _text_specs(axis)]


def overlapping(rects) -> list:
    return [(a, b) for i, a in enumerate(rects) for b in rects[i + 1:] if a.intersects(b)]


@pytest.mark.parametrize("height", [180, 240, 360])
def test_value_axes_of_the_loss_plots_draw_labels_that_do_not_overlap(qtbot, height):
    from core.nodegraph.training.runs import RunHistory
    from gui.plots.loss_plot import LossPlot

    plot = LossPlot(RunHistory())
    qtbot.addWidget(plot)
    plot.resize(700, height)
    plot.show()
    qtbot.waitExposed(plot)
    for name, p in plot.plots.items():
        axis = p.getAxis("left")
        qtbot.waitUntil(lambda axis=axis: axis.height() > 0)
        labels = drawn_labels(axis)
        assert labels, f"the {name} plot's value axis draws no label at all"
        assert overlapping(labels) == [], f"the {name} plot's value labels overlap at {axis.height():.0f} px"


def test_the_watch_plot_value_axes_keep_labels_apart(qtbot):
    from core.nodegraph.training.watch import WatchList
    from gui.plots.watch_plot import WatchPlot

    plot = WatchPlot(WatchList())
    qtbot.addWidget(plot)
    plot.resize(400, 220)
    plot.show()
    qtbot.waitExposed(plot)
    for p in (plot.value_plot, plot.grad_plot):
        assert overlapping(drawn_labels(p.getAxis("left"))) == []


def test_tick_spacing_widens_along_one_two_five():
    assert [wider_spacing(s) for s in (0.1, 0.2, 0.5, 1.0, 20.0)] == pytest.approx([0.2, 0.5, 1.0, 2.0, 50.0])



def gaps(rects) -> list[float]:
    """The room between neighbouring labels of a step axis, left to right."""
    rects = sorted(rects, key=lambda r: r.left())
    return [b.left() - a.right() for a, b in zip(rects, rects[1:])]


@pytest.mark.parametrize("width", [100, 130, 200, 400])
@pytest.mark.parametrize("steps", [95, 820, 12_000])
def test_step_axes_of_the_small_plots_keep_labels_apart(qtbot, width, steps):
    """After 800 steps, the gradient-norm and update/weight plots of a 1366x768 window (about 100 px wide beside
    their legends) read ``0 200400600800``: their step labels stood edge to edge. Neighbours keep half a label's
    height between them, and an axis 130 px wide or more draws two labels at least."""
    import pyqtgraph as pg

    from gui.plots.axis import compact_axes

    plot = pg.PlotWidget(axisItems=compact_axes())
    qtbot.addWidget(plot)
    plot.resize(width + 40, 100)
    plot.show()
    qtbot.waitExposed(plot)
    plot.setXRange(0, steps, padding=0)
    axis = plot.getPlotItem().getAxis("bottom")
    qtbot.waitUntil(lambda: axis.width() > 0)
    labels = drawn_labels(axis)
    assert len(labels) >= (2 if width >= 130 else 1), f"{len(labels)} step labels on a {axis.width():.0f} px axis"
    assert min(gaps(labels), default=width) >= labels[0].height() / 2, f"labels touch on a {axis.width():.0f} px axis"


def drawn_texts(axis) -> list[str]:
    """The tick labels' texts the axis draws now."""
    return [text for _rect, _flags, text in _text_specs(axis)]


@pytest.mark.parametrize("steps", [(99.5, 100.5), (0, 3), (0, 820)])
def test_step_axes_name_whole_steps_only(qtbot, steps):
    """A watched value after one step of a run at step 100 is one point: its step axis read 99.6 99.8 100.0 100.2
    100.4, steps that never happen. A step axis labels whole steps only."""
    import pyqtgraph as pg

    from gui.plots.axis import compact_axes

    plot = pg.PlotWidget(axisItems=compact_axes())
    qtbot.addWidget(plot)
    plot.resize(700, 150)
    plot.show()
    qtbot.waitExposed(plot)
    plot.setXRange(*steps, padding=0)
    axis = plot.getPlotItem().getAxis("bottom")
    qtbot.waitUntil(lambda: axis.width() > 0)
    texts = drawn_texts(axis)
    assert texts, "no step labels at all"
    assert all(float(t) == int(float(t)) and "." not in t for t in texts), texts
