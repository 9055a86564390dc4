"""Lesson 1 by mouse: after the text's Forward step link, the learner's first click on node x selects it, and the
canvas shows it at once. (x, the node just stepped, wears the step's yellow frame, which the selection's white one
gave way to: the click changed nothing on the canvas while the Inspector worked out the statistics of 32 images for
seconds, and a learner took the first click as lost and clicked again.)"""

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui.canvas.node_item import NodeItem
from tests.gui.real_input import click_link, open_lesson_by_mouse, shown

X = "n1"  # lesson 1's x, the first node in topological order


def _white_above(w, item: NodeItem) -> bool:
    """Whether the canvas, as painted now, shows a white line just above the middle of ``item``'s frame (the
    selection ring outside the step's yellow frame)."""
    image = w.view.viewport().grab().toImage()
    body = item.body_rect()
    centre = w.view.mapFromScene(item.mapToScene(QPointF(body.center().x(), body.top())))
    column = (QColor(image.pixel(centre.x(), y)) for y in range(centre.y() - 8, centre.y()) if y >= 0)
    return any(min(c.red(), c.green(), c.blue()) > 200 for c in column)


def test_first_click_on_the_stepped_node_after_a_lesson_link_selects_it_visibly(qtbot, window):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "1.")
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("01-tensors.json"), timeout=60_000)
    w.activateWindow()  # as the window manager gives the window back once the Lessons box is gone
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
    click_link(qtbot, w.lessons.panel.browser, "action:forward_step")
    qtbot.waitUntil(lambda: w.bridge.session is not None and X in w.bridge.session.values, timeout=60_000)
    item = w.scene.node_items[X]
    qtbot.waitUntil(lambda: item.display.highlight, timeout=60_000)
    assert w.scene.selected_node_ids() == [] and not _white_above(w, item)

    at = w.view.mapFromScene(item.mapToScene(item.body_rect().center()))  # where the lesson's view shows x
    assert w.view.viewport().rect().contains(at)
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, at)  # one click, no second try
    assert w.scene.selected_node_ids() == [X]
    assert _white_above(w, item), "the selected x shows only the step's frame: the click looks lost"
    qtbot.waitUntil(lambda: w.inspector.node_id == X, timeout=60_000)
