"""A group's backdrop holds its nodes as they grow with their values: lesson 3 opened from File > Examples and
Forward all clicked on the toolbar, base (a (2, 3) heatmap now) hung out of the bottom of its group 'An in-place write
through a view changes the base'. The backdrop is drawn around it; the document's rectangle stays, so a node dragged
out of the group does not stretch it."""

from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click_toolbar, shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _holds(group, node) -> bool:
    return group.sceneBoundingRect().contains(node.sceneBoundingRect())


def test_a_group_is_drawn_around_its_node_grown_by_forward_all(qtbot, window):
    w = shown(qtbot, window)
    open_example(qtbot, w, "03-views")
    (group,) = w.comments.items.values()
    base = w.scene.node_items["n8"]
    assert "n8" in group.members and _holds(group, base)
    stored = w.graph.comments[group.comment_id].rect
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
    qtbot.waitUntil(lambda: base.sceneBoundingRect().bottom() > group.pos().y() + group.size[1])  # grown past it
    qtbot.waitUntil(lambda: _holds(group, base))
    assert w.graph.comments[group.comment_id].rect == stored and not w.is_modified()


def test_a_member_node_dragged_out_of_its_group_does_not_stretch_it(qtbot, window):
    w = shown(qtbot, window)
    open_example(qtbot, w, "03-views")
    (group,) = w.comments.items.values()
    write = w.scene.node_items["n10"]
    w.view.ensureVisible(write)
    shown_before = group.shown
    viewport = w.view.viewport()
    start = w.view.mapFromScene(write.sceneBoundingRect().center().x(), write.sceneBoundingRect().top() + 8)
    QTest.mousePress(viewport, Qt.LeftButton, Qt.NoModifier, start)
    for k in range(1, 6):
        QTest.mouseMove(viewport, start + QPoint(0, 40 * k))
    QTest.mouseRelease(viewport, Qt.LeftButton, Qt.NoModifier, start + QPoint(0, 200))
    qtbot.waitUntil(lambda: write.sceneBoundingRect().top() > group.pos().y() + group.size[1])  # out of the group
    w.comments.fit_members()
    assert group.shown == shown_before
