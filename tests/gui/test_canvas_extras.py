"""Canvas extras: the minimap paints from a cached picture, comment/group backdrops, arranging a selection."""


def test_panning_the_canvas_repaints_the_minimap_without_redrawing_the_scene(window, qtbot, monkeypatch):
    from PySide6.QtGui import QColor

    from gui.canvas.minimap import Minimap

    window.show()
    qtbot.waitExposed(window)
    mini = window.view.minimap
    window.view.zoom(2.0)  # part of the graph out of view: the minimap is showing (showing it renders it)
    qtbot.waitUntil(mini.isVisible)
    mini.refit()
    image = mini.grab().toImage()
    background = window.scene.backgroundBrush().color()
    colours = {QColor(image.pixel(x, y)).name()
               for x in range(0, image.width(), 4) for y in range(0, image.height(), 4)}
    assert len(colours - {background.name()}) > 3  # the nodes are in the picture
    renders = []
    monkeypatch.setattr(Minimap, "_render", lambda self: renders.append(self))
    bar = window.view.horizontalScrollBar()
    bar.setValue(bar.value() + 40)
    window.view.viewport().repaint()
    mini.viewport().repaint()
    assert renders == []


def _group_x_and_w(window):
    window.scene.clearSelection()
    for nid in ("n1", "n2"):
        window.scene.node_items[nid].setSelected(True)
    return window.comments.group_selection("inputs")


def test_group_selection_puts_a_backdrop_behind_the_selected_nodes(window):
    cid = _group_x_and_w(window)
    comment = window.graph.comments[cid]
    assert comment.text == "inputs" and comment.nodes == ["n1", "n2"]
    item = window.comments.items[cid]
    rect = item.sceneBoundingRect()
    assert all(rect.contains(window.scene.node_items[n].sceneBoundingRect()) for n in ("n1", "n2"))
    assert item.zValue() < window.scene.node_items["n1"].zValue()
    window.undo_stack.undo()
    assert cid not in window.graph.comments and cid not in window.comments.items
    window.undo_stack.redo()
    assert window.comments.items[cid].rect() == tuple(window.graph.comments[cid].rect)


def test_dragging_a_group_moves_its_nodes_in_one_undo_step(window, qtbot):
    from PySide6.QtCore import QPointF

    cid = _group_x_and_w(window)
    window.scene.clearSelection()
    before = window.graph.to_dict()
    item = window.comments.items[cid]
    item.setPos(item.pos() + QPointF(100, 50))  # what a drag does, then the mouse is released
    assert window.comments.commit()
    assert window.graph.node("n1").position == (before["nodes"][0]["position"][0] + 100,
                                                 before["nodes"][0]["position"][1] + 50)
    assert window.graph.node("n3").position == tuple(next(n["position"] for n in before["nodes"] if n["id"] == "n3"))
    assert window.undo_stack.undoText() == "Move group"
    window.undo_stack.undo()
    assert window.graph.to_dict() == before
    assert window.comments.items[cid].rect() == tuple(window.graph.comments[cid].rect)
    assert tuple(window.scene.node_items["n1"].pos().toTuple()) == window.graph.node("n1").position


def test_resizing_renaming_and_deleting_a_comment_are_undoable(window):
    from PySide6.QtCore import QPointF

    cid = window.comments.add_comment(QPointF(500, 500), "note")
    item = window.comments.items[cid]
    item.resize_to(400, 300)
    window.comments.commit()
    assert window.graph.comments[cid].rect == (500.0, 500.0, 400.0, 300.0)
    window.comments.rename(cid, "a longer note")
    assert window.graph.comments[cid].text == "a longer note"
    window.scene.clearSelection()
    item.setSelected(True)
    window.named_actions["delete"].trigger()
    assert cid not in window.graph.comments and cid not in window.comments.items
    for _ in range(3):
        window.undo_stack.undo()
    assert window.graph.comments[cid].rect == (500.0, 500.0, 240.0, 120.0)
    assert window.comments.items[cid].text == "note"


def test_groups_survive_save_and_reopen(window, qtbot, tmp_path):
    from tests.gui.conftest import make_window

    cid = _group_x_and_w(window)
    path = str(tmp_path / "g.json")
    window.save_to(path)
    other = make_window(qtbot)
    assert other.open_path(path)
    assert other.comments.items[cid].rect() == tuple(window.graph.comments[cid].rect)
    assert other.comments.items[cid].members == ["n1", "n2"]


def test_a_mouse_drag_on_the_title_strip_moves_the_group(window, qtbot):
    from PySide6.QtCore import QPoint, QPointF, Qt

    window.show()
    qtbot.waitExposed(window)
    cid = _group_x_and_w(window)
    window.scene.clearSelection()
    x0 = window.graph.node("n1").position[0]
    item = window.comments.items[cid]
    vp = window.view.viewport()
    start = window.view.mapFromScene(item.scenePos() + QPointF(30, 10))
    qtbot.mousePress(vp, Qt.LeftButton, pos=start)
    for step in range(1, 6):
        qtbot.mouseMove(vp, start + QPoint(12 * step, 0))
    qtbot.mouseRelease(vp, Qt.LeftButton, pos=start + QPoint(60, 0))
    assert window.graph.node("n1").position[0] > x0
    assert window.graph.comments[cid].rect[0] == item.pos().x()
    assert window.undo_stack.undoText() == "Move group"


def _select(window, *ids):
    window.scene.clearSelection()
    for nid in ids:
        window.scene.node_items[nid].setSelected(True)


def test_align_left_lines_the_selection_up_in_one_undo_step(window):
    _select(window, "n1", "n4", "n6")
    before = window.graph.to_dict()
    xs = [window.graph.node(n).position[0] for n in ("n1", "n4", "n6")]
    window.named_actions["align_left"].trigger()
    assert {window.graph.node(n).position[0] for n in ("n1", "n4", "n6")} == {min(xs)}
    assert window.scene.node_items["n6"].pos().x() == min(xs)
    window.undo_stack.undo()
    assert window.graph.to_dict() == before


def test_distribute_vertically_spreads_the_selection_evenly(window):
    _select(window, "n1", "n2", "n3")
    window.named_actions["align_distribute_vertically"].trigger()
    ys = sorted(window.graph.node(n).position[1] for n in ("n1", "n2", "n3"))
    assert ys[1] - ys[0] == ys[2] - ys[1]


def test_arranging_one_node_says_to_select_more_and_changes_nothing(window):
    _select(window, "n1")
    count = window.undo_stack.count()
    window.named_actions["align_top"].trigger()
    assert window.undo_stack.count() == count
    assert "two nodes or more" in window.status_label.text()


def test_auto_layout_of_a_selection_moves_only_the_selection(window):
    _select(window, "n4", "n5")
    before = {n: window.graph.node(n).position for n in window.graph.nodes}
    window.named_actions["auto_layout"].trigger()
    moved = {n for n in window.graph.nodes if window.graph.node(n).position != before[n]}
    assert moved <= {"n4", "n5"}
    assert window.graph.node("n4").position[0] < window.graph.node("n5").position[0]


def test_a_bad_formula_asks_again_showing_the_expression_error(empty_window, qtbot):
    import pytest
    from PySide6.QtCore import Qt, QTimer
    from PySide6.QtTest import QTest
    from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

    from core.nodegraph.model.expression import ExpressionError, expand
    from gui.format import sentence

    with pytest.raises(ExpressionError) as expected:
        expand("(x * w")
    answers = ["(x * w", "(x * w).sum() + b"]
    labels: list[str] = []

    def answer() -> None:  # types into the box the way a user does, once it is up (the next one after each answer)
        dialog = QApplication.activeModalWidget()
        if not (isinstance(dialog, QInputDialog) and dialog.isVisible()):
            QTimer.singleShot(10, answer)
            return
        labels.append(dialog.labelText())
        edit = dialog.findChild(QLineEdit)
        edit.selectAll()
        QTest.keyClicks(edit, answers.pop(0))
        QTest.keyClick(edit, Qt.Key_Return)
        if answers:
            QTimer.singleShot(10, answer)

    QTimer.singleShot(0, answer)
    empty_window.insert_expression_dialog()
    assert labels[0].startswith("Formula (each name, such as x, becomes a tensor node")
    assert labels[1] == f"{sentence(str(expected.value))}\n\n{labels[0]}"  # core's message, as a sentence
    assert {n.type for n in empty_window.graph.nodes.values()} >= {"math.mul", "math.add"}


def test_fit_all_shows_comment_backdrops_too(window, qtbot):
    from PySide6.QtCore import QPointF

    window.show()
    qtbot.waitExposed(window)
    cid = window.comments.add_comment(QPointF(3000, 2000), "far away")
    window.view.fit_all()
    visible = window.view.mapToScene(window.view.viewport().rect()).boundingRect()
    assert visible.contains(window.comments.items[cid].sceneBoundingRect())


def test_double_clicking_a_groups_title_renames_it(window, qtbot, monkeypatch):
    from PySide6.QtCore import QPointF, Qt
    from PySide6.QtWidgets import QInputDialog

    window.show()
    qtbot.waitExposed(window)
    cid = _group_x_and_w(window)
    monkeypatch.setattr(QInputDialog, "getText", lambda *a, **k: ("x and w", True))
    item = window.comments.items[cid]
    pos = window.view.mapFromScene(item.scenePos() + QPointF(40, 12))
    qtbot.mouseDClick(window.view.viewport(), Qt.LeftButton, pos=pos)
    assert window.graph.comments[cid].text == "x and w" and item.text == "x and w"
    window.undo_stack.undo()
    assert item.text == "inputs"
