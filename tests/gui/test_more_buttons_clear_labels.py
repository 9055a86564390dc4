"""The canvas's 'more' buttons keep off the edges' shape labels: zoomed in on the chapter's graph after Forward all,
with s above the canvas and its '() scalar' label (s -> z) at the top edge's middle, '▲ more' sat over half of the
label. The button slides along the edge to a spot clear of it, and the label reads whole."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click_toolbar, shown


def _label_rect(view, label):
    return view.mapFromScene(label.sceneBoundingRect()).boundingRect()


def test_more_above_never_sits_on_a_shape_label(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
    view, scene = w.view, w.scene
    label = next(item.label for edge, item in scene.edge_items.items() if (edge.src, edge.dst) == ("n5", "n6"))
    qtbot.waitUntil(lambda: label.isVisible() and label.text() == "() scalar")
    view.setFocus()
    while view.zoom_level() < 2.0:  # View ▸ Zoom in (Ctrl++)
        QTest.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    up = view.more.buttons["up"]
    checked = 0
    for dx in (-12.0, 0.0, 12.0):  # the label's middle at, and a little either side of, the top edge's middle
        room, zoom = view.viewport().rect(), view.zoom_level()
        box = label.sceneBoundingRect()
        view.centerOn(box.center().x() + dx, box.top() - 8 / zoom + room.height() / 2 / zoom)
        qtbot.waitUntil(lambda: up.isVisible())  # s lies above the canvas
        qtbot.waitUntil(lambda: 0 <= _label_rect(view, label).top() < up.geometry().bottom())  # the label at the top
        qtbot.waitUntil(lambda: not up.geometry().intersects(_label_rect(view, label)))
        view.more.refresh()  # measured again now, as after any change: still clear
        assert not up.geometry().intersects(_label_rect(view, label))
        checked += 1
    assert checked == 3
