"""The first hour, by hand, a ninth time: four rough spots a newcomer met under a real 1366x768 screen, each driven
here through the real widgets (typing in the field, the menu, the shortcut a user presses)."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from gui.canvas.view import MAX_ZOOM
from tests.gui.import_progress import TITLE, open_endless_import, title_room
from tests.gui.real_input import double_click_library, framed_red, new_randn_shape_field, shown, type_text
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def test_a_refused_shape_frames_its_field_red_with_the_reason_under_it_and_keeps_the_text(window, qtbot):
    """A randn node's shape typed ``4,,3``: the shape field itself is framed red and the reason shows right under
    it (it showed under all the fields, none marked), the text stays as typed to be fixed, the document keeps
    its shape; typing ``4, 3`` takes it and the mark goes."""
    w = shown(qtbot, window)
    nid, field = new_randn_shape_field(qtbot, w)
    before = w.graph.nodes[nid].params.get("shape")
    type_text(qtbot, field, "4,,3")
    note = w.inspector.refusal_notes["shape"]
    qtbot.waitUntil(lambda: note.isVisible() and "can't read '4,,3'" in note.text())
    assert framed_red(field) and "can't read" in field.toolTip()
    assert field.text() == "4,,3" and w.graph.nodes[nid].params.get("shape") == before
    assert not w.inspector.error_label.isVisible()  # said once, beside the field at fault
    assert 0 <= note.geometry().top() - field.geometry().bottom() < field.height()  # the row right under it
    seed = w.inspector.editors["seed"]
    assert not framed_red(seed) and not w.inspector.refusal_notes["seed"].isVisible()
    type_text(qtbot, field, "4, 3")
    qtbot.waitUntil(lambda: w.graph.nodes[nid].params["shape"] == (4, 3))
    qtbot.waitUntil(lambda: not note.isVisible())
    assert not framed_red(field)
    w.undo_stack.setClean()


def test_the_import_progress_dialog_is_wide_enough_for_its_title(window, qtbot, monkeypatch, tmp_path):
    """File ▸ Open code on a slow snippet: the progress dialog is wide enough for "Importing code" beside the
    window manager's buttons (the bar alone made it 200 px, and the title read "Impor…g code")."""
    progress = open_endless_import(qtbot, window, monkeypatch, tmp_path)
    assert progress.windowTitle() == TITLE and progress.width() >= title_room(progress)
    QTest.keyClick(progress, Qt.Key_Escape)
    qtbot.waitUntil(lambda: window.code.progress is None, timeout=10_000)


def test_an_empty_canvas_shows_no_scroll_bars_and_a_graph_larger_than_it_does(window, qtbot):
    """File ▸ New (Ctrl+N): the empty canvas has nothing to scroll to and shows no scroll bars (it always did);
    a node added from the Node library fits in view and brings none either (tests/gui/test_newcomer_paths_10), but
    zoomed in past it (+ on the canvas, up to the most zoom, 5x) the canvas has somewhere to scroll to and shows them.
    At 1366x768 the 198-unit node is then 990 px wide on an 822 px canvas: both its sides, with its ports, out of
    view by 89 px each, counted in px on screen (in scene units, 18, it was taken for a margin and the bars stayed
    off where the docks left the canvas wider than 750 px)."""
    w = shown(qtbot, window)
    view = w.view
    QTest.keyClick(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes and view.empty_hint.isVisible())
    qtbot.waitUntil(lambda: not view.horizontalScrollBar().isVisible() and not view.verticalScrollBar().isVisible())
    double_click_library(qtbot, w, "source.randn")
    qtbot.waitUntil(lambda: len(w.scene.node_items) == 1)
    view.setFocus()
    for _ in range(12):  # 1.2 ** 12 would be about 9 times as big: the zoom stops at its most, 5
        QTest.keyClick(view, Qt.Key_Plus)
    box = view.mapFromScene(next(iter(w.scene.node_items.values())).sceneBoundingRect()).boundingRect()
    assert view.zoom_level() == pytest.approx(MAX_ZOOM)
    assert box.width() > view.viewport().width()  # both the node's sides out of view
    qtbot.waitUntil(lambda: view.horizontalScrollBar().isVisible() and view.verticalScrollBar().isVisible())
    w.undo_stack.setClean()


def _nodes_under_minimap(w) -> list[str]:
    from gui.canvas.node_item import NodeItem

    mini = w.view.minimap
    box = mini.geometry().translated(-w.view.viewport().geometry().topLeft())  # in the canvas's viewport
    items = w.scene.items(w.view.mapToScene(box).boundingRect())
    return sorted(w.graph.nodes[i.node_id].title or i.node_id for i in items if isinstance(i, NodeItem))


def test_lesson_10_opened_at_1366x768_has_no_node_under_the_minimap(window, qtbot):
    """File ▸ Examples ▸ lesson 10 at 1366x768: most of the graph is out of view, so the map shows, and it takes a
    corner with no node under it (it sat bottom right over y_cut)."""
    w = shown(qtbot, window)
    open_example(qtbot, w, "10-diagnosing")
    mini = w.view.minimap
    qtbot.waitUntil(lambda: mini.isVisible() and not mini._timer.isActive())
    assert _nodes_under_minimap(w) == []
    w.undo_stack.setClean()

