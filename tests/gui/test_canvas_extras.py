"""Canvas extras: the minimap paints from a cached picture, comment/group backdrops, arranging a selection."""


def test_panning_the_canvas_repaints_the_minimap_without_redrawing_the_scene(window, qtbot, monkeypatch):
    from PySide6.QtGui import QColor

    from gui.canvas.minimap import Minimap

    window.show()
    qtbot.waitExposed(window)
    mini = window.view.minimap
    mini.refit()
    image = mini.grab().toImage()
    background = window.scene.backgroundBrush().color()
    colours = {QColor(image.pixel(x, y)).name() for x in range(0, image.width(), 4) for y in range(0, image.height(), 4)}
    assert len(colours - {background.name()}) > 3  # the nodes are in the picture
    renders = []
    monkeypatch.setattr(Minimap, "_render", lambda self: renders.append(self))
    bar = window.view.horizontalScrollBar()
    bar.setValue(bar.value() + 40)
    window.view.viewport().repaint()
    mini.viewport().repaint()
    assert renders == []
