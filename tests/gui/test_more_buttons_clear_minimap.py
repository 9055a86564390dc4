"""The canvas's 'more' buttons keep off the minimap: zoomed in on the chapter's graph at 1366x768 with z low in the
middle of the canvas and b below it, 'more ▼' slid left off z onto the minimap in the bottom-left corner."""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import shown


def _overlap(view) -> bool:
    minimap, down = view.minimap, view.more.buttons["down"]
    box = minimap.geometry().translated(-view.viewport().pos())
    return minimap.isVisible() and down.isVisible() and down.geometry().intersects(box)


def test_more_below_never_sits_on_the_minimap(window, qtbot):
    w = shown(qtbot, window)
    view, z = w.view, w.scene.node_items["n6"]
    view.setFocus()
    while view.zoom_level() < 2.4:  # View ▸ Zoom in (Ctrl++)
        QTest.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    room = view.viewport().rect()
    checked = 0
    for fx in (0.3, 0.36, 0.42):  # z's top-left at these fractions of the canvas: z covers the bottom's middle
        corner, zoom = z.mapToScene(QPointF(0, 0)), view.zoom_level()
        view.centerOn(corner.x() + (0.5 - fx) * room.width() / zoom, corner.y() + (0.5 - 0.7) * room.height() / zoom)
        qtbot.waitUntil(lambda: view.minimap.isVisible() and view.more.buttons["down"].isVisible())
        qtbot.waitUntil(lambda: view.minimap.pos().x() < room.width() / 2)  # the map took the bottom-left corner
        qtbot.waitUntil(lambda: not _overlap(view))
        view.more.refresh()  # measured again now, as after any change: still clear
        assert not _overlap(view)
        checked += 1
    assert checked == 3
