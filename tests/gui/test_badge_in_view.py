"""A node's diagnostics badge stays whole on the canvas while part of its node is in view: zoomed in on the node in
error (Backward all twice without Retain graph), its corner past the canvas's right edge, the red badge showed as a
sliver at that edge."""

from PySide6.QtCore import QPoint, QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest

from tests.gui.real_input import click_toolbar, shown


def _badge_on_screen(view, badge):
    """The badge's centre in viewport pixels and its colour there, as painted."""
    centre = view.mapFromScene(badge.scenePos())
    image = view.viewport().grab().toImage()
    left_of_digit = centre + QPoint(-6, 0)  # inside the circle, clear of the white count
    inside = image.rect().contains(left_of_digit)
    return centre, QColor(image.pixel(left_of_digit)).name() if inside else None


def test_zoomed_in_on_a_node_in_error_its_badge_stays_whole_at_the_canvas_edge(window, qtbot):
    from gui import style
    from gui.canvas.badges import RADIUS, SEVERITY_COLORS

    w = shown(qtbot, window)
    view, z = w.view, w.scene.node_items["n6"]
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: z.display.value != "")
    for _ in range(2):
        click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: z.badge is not None and z.badge.severity == "error")
    view.setFocus()
    left_side = view.mapFromScene(z.mapToScene(QPointF(20, style.TITLE_H + 10)))
    QTest.mouseMove(view.viewport(), left_side)  # Ctrl++ zooms about the pointer: z grows to the right
    for _ in range(12):
        QTest.keyClick(view, Qt.Key_Plus, Qt.ControlModifier)
    room = view.viewport().rect()
    corner = view.mapFromScene(z.mapToScene(QPointF(style.NODE_WIDTH, 0)))
    assert corner.x() > room.right() and room.contains(view.mapFromScene(z.mapToScene(QPointF(20, 30))))
    qtbot.waitUntil(lambda: room.adjusted(RADIUS, RADIUS, -RADIUS, -RADIUS).contains(
        _badge_on_screen(view, z.badge)[0]))
    assert _badge_on_screen(view, z.badge)[1] == SEVERITY_COLORS["error"]  # painted whole, red, at the edge
    top = view.mapFromScene(z.mapToScene(QPointF(0, 0))).y()
    assert _badge_on_screen(view, z.badge)[0].y() == top  # still on the node's top side
    QTest.keyClick(view, Qt.Key_F)  # Fit all: the whole node in view, the badge back on its corner
    qtbot.waitUntil(lambda: z.badge.pos() == QPointF(style.NODE_WIDTH, 0))
    assert _badge_on_screen(view, z.badge)[1] == SEVERITY_COLORS["error"]
