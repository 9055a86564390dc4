"""The canvas's 'more' buttons never cover a port: zoomed in by the mouse wheel on the chapter's graph, a button slid
along its edge to a spot clear of the nodes' boxes, but a port's dot sticks out of its node's box (by 10 px at 5x),
and the button sat over it, so the port could not be seen or wired. Wherever the view is scrolled, each shown button
stays inside the canvas, clear of every port, and is the widget a click there reaches."""

import itertools

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QWheelEvent
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui.canvas.port_item import PortItem
from tests.gui.real_input import shown


def _wheel(view, notches: int) -> None:
    """Turn the mouse wheel up over the middle of the canvas (a notch zooms in by 15 %)."""
    viewport = view.viewport()
    centre = QPointF(viewport.rect().center())
    for _ in range(notches):
        QApplication.sendEvent(viewport, QWheelEvent(centre, viewport.mapToGlobal(centre), QPoint(), QPoint(0, 120),
                                                     Qt.NoButton, Qt.NoModifier, Qt.ScrollUpdate, False))


def _port_rects(view):
    """Every port's dot on screen, in viewport pixels."""
    return [view.mapFromScene(item.sceneBoundingRect()).boundingRect()
            for item in view.graph_scene.items() if isinstance(item, PortItem) and item.isVisible()]


def _check_buttons(view) -> int:
    """Assert each shown button is inside the canvas, off every port and the widget under its middle; return how
    many shown buttons had a port on their strip of the edge (the case the test is about)."""
    room, ports, near = view.viewport().rect(), _port_rects(view), 0
    for side, button in view.more.buttons.items():
        if not button.isVisible():
            continue
        box = button.geometry()
        assert room.contains(box), f"'{button.text()}' is cut off at {box}"
        covered = [port for port in ports if box.intersects(port)]
        assert not covered, f"'{button.text()}' at {box} covers a port at {covered[0]}"
        assert view.viewport().childAt(box.center()) is button, f"'{button.text()}' is under another widget"
        strip = box.adjusted(-room.width(), 0, room.width(), 0) if side in ("up", "down") \
            else box.adjusted(0, -room.height(), 0, room.height())
        near += any(strip.intersects(port) for port in ports)
    return near


def test_more_buttons_keep_off_ports_at_every_zoom_the_wheel_gives(window, qtbot):
    w = shown(qtbot, window)
    view = w.view
    nodes = w.scene.itemsBoundingRect()
    near = 0
    for notches in (3, 5, 8, 12):  # 1.5x, 2x, 3x and the 5x limit
        view.resetTransform()
        _wheel(view, notches)
        qtbot.waitUntil(lambda n=notches: view.zoom_level() > 1.14 ** n)
        for fx, fy in itertools.product([k / 8 for k in range(9)], repeat=2):
            view.centerOn(nodes.left() + fx * nodes.width(), nodes.top() + fy * nodes.height())
            view.more.refresh()  # measured now, as after the scene's changes settle
            near += _check_buttons(view)
    assert near > 50  # the buttons often had ports on their strip, and slid off them


def test_a_more_button_beside_a_port_still_scrolls_the_canvas(window, qtbot):
    w = shown(qtbot, window)
    view = w.view
    _wheel(view, 8)
    z = w.scene.node_items["n6"]
    view.centerOn(z.sceneBoundingRect().center().x(), z.sceneBoundingRect().bottom())  # z's ports low, x at the left
    left = view.more.buttons["left"]
    qtbot.waitUntil(left.isVisible)
    before = view.horizontalScrollBar().value()
    QTest.mouseClick(left, Qt.LeftButton, Qt.NoModifier, left.rect().center())
    qtbot.waitUntil(lambda: view.horizontalScrollBar().value() < before)
