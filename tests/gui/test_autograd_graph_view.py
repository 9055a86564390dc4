"""The autograd graph dock on the chapter's z = (x*w).sum() + b: boxes and arrows after Forward, linked
both ways with the canvas, Backward step highlighting the running box in order, saved tensors listed."""

import pytest
from PySide6.QtCore import QEvent, QPoint, QPointF, Qt
from PySide6.QtGui import QMouseEvent, QWheelEvent
from PySide6.QtWidgets import QApplication

from gui.autograd_items import FILLS

CHAPTER = sorted(["AddBackward0", "SumBackward0", "MulBackward0"] + ["AccumulateGrad"] * 3)


@pytest.fixture
def ag(window, qtbot):
    window.show()
    window.resize(1400, 900)
    window.training.docks["autograd"].raise_()
    qtbot.waitUntil(lambda: window.training.autograd.isVisible())
    return window


def _box(view, name, owner):
    return next(b for b in view.boxes if b.name == name and b.row["owner"] == owner)


def _click(qtbot, view, box):
    gv = view.graph_view
    qtbot.mouseClick(gv.viewport(), Qt.LeftButton, pos=gv.mapFromScene(box.sceneBoundingRect().center()))


def test_forward_draws_one_box_per_autograd_node_with_arrows_down_the_gradient_flow(ag):
    view = ag.training.autograd
    assert view.boxes == [] and "Run Forward" in view.caption.text()
    ag.run_step("forward")
    assert sorted(view.names()) == CHAPTER and sorted(b.name for b in view.boxes) == CHAPTER
    assert {(b.name, b.owner_title) for b in view.boxes} >= {("MulBackward0", "xw · n4"), ("AddBackward0", "z · n6"),
                                                            ("AccumulateGrad", "x · n1")}
    pairs = {(view.boxes[e.src].name, view.boxes[e.dst].name) for e in view.edges}
    assert pairs == {("AddBackward0", "SumBackward0"), ("AddBackward0", "AccumulateGrad"),
                     ("SumBackward0", "MulBackward0"), ("MulBackward0", "AccumulateGrad")}
    top = {b.name: b.sceneBoundingRect().top() for b in view.boxes if b.name != "AccumulateGrad"}
    assert top["AddBackward0"] < top["SumBackward0"] < top["MulBackward0"]
    assert all(view.boxes[e.dst].y() > view.boxes[e.src].y() for e in view.edges)
    leaf, op = _box(view, "AccumulateGrad", "n1"), _box(view, "MulBackward0", "n4")
    assert leaf.fill() != op.fill()  # leaves are coloured apart from ops
    assert view.caption.text().startswith("6 autograd nodes")


def test_the_graph_fits_the_view_and_the_wheel_zooms(ag, qtbot):
    view = ag.training.autograd
    ag.run_step("forward")
    gv = view.graph_view
    visible = gv.mapToScene(gv.viewport().rect()).boundingRect()
    assert all(visible.contains(b.sceneBoundingRect()) for b in view.boxes)
    before = gv.zoom_level()
    centre = QPointF(gv.viewport().rect().center())
    for _ in range(6):
        QApplication.sendEvent(gv.viewport(), QWheelEvent(centre, gv.viewport().mapToGlobal(centre), QPoint(),
                                                          QPoint(0, 120), Qt.NoButton, Qt.NoModifier,
                                                          Qt.NoScrollPhase, False))
    assert gv.zoom_level() == pytest.approx(before * 1.15 ** 6) and gv.user_zoomed
    bars = gv.verticalScrollBar(), gv.horizontalScrollBar()
    for b in bars:  # room to pan both ways, whichever part of the graph the zoom centred on
        b.setValue((b.minimum() + b.maximum()) // 2)
    start = [b.value() for b in bars]
    empty = next(p for p in (QPoint(x, y) for x in range(2, 200, 7) for y in range(2, 200, 7)) if gv.box_at(p) is None)
    for kind, pos, buttons in ((QEvent.MouseButtonPress, empty, Qt.LeftButton),
                               (QEvent.MouseMove, empty + QPoint(40, 40), Qt.LeftButton),
                               (QEvent.MouseButtonRelease, empty + QPoint(40, 40), Qt.NoButton)):
        QApplication.sendEvent(gv.viewport(), QMouseEvent(kind, QPointF(pos), gv.viewport().mapToGlobal(QPointF(pos)),
                                                          Qt.LeftButton, buttons, Qt.NoModifier))
    assert [b.value() for b in bars] != start  # dragging the background panned
    gv.fit()
    assert gv.zoom_level() == pytest.approx(before)


def test_selecting_a_canvas_node_highlights_its_boxes_and_shows_what_it_saved(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    ag.scene.node_items["n4"].setSelected(True)
    mul = _box(view, "MulBackward0", "n4")
    assert mul.state == "selected" and mul.fill() == FILLS["selected"]
    assert all(b.state == "normal" for b in view.boxes if b is not mul)
    text = view.detail.toPlainText()
    assert text.startswith("MulBackward0") and "saved for backward" in text
    assert "x: (2,) float32 [2., 3.]" in text and "w: (2,) float32 [ 1.5000, -0.5000]" in text
    assert "x: (2,) float32 [2., 3.]" in mul.toolTip()
    ag.scene.clearSelection()
    assert mul.state == "normal"


def test_clicking_a_box_selects_and_frames_its_canvas_node(ag, qtbot):
    view = ag.training.autograd
    ag.run_step("forward")
    _click(qtbot, view, _box(view, "AddBackward0", "n6"))
    assert ag.scene.selected_node_ids() == ["n6"]
    _click(qtbot, view, _box(view, "AccumulateGrad", "n2"))
    assert ag.scene.selected_node_ids() == ["n2"]
    assert "adds the incoming gradient into the .grad of w" in view.detail.toPlainText()


def _session_steps(window):
    """The (autograd node, graph node) of every backward step the session runs from now on."""
    steps = []
    window.bridge.session.subscribe(lambda e: steps.append((e.detail["autograd_node"], e.node))
                                    if e.phase == "backward" and e.detail.get("autograd_node") else None)
    return steps


def _step_through(window, view, count):
    """Backward step ``count`` times; the box highlighted as running after each (exactly one each time)."""
    ran = []
    for _ in range(count):
        window.run_step("backward_step")
        (running,) = [b for b in view.boxes if b.state == "running"]
        assert running.fill() == FILLS["running"] and view.detail.toPlainText().startswith(running.name)
        assert all(b.state == "done" for b in ran)
        ran.append(running)
    return ran


def test_every_backward_step_including_the_last_highlights_its_box_in_the_sessions_order(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    steps = _session_steps(ag)
    ran = _step_through(ag, view, len(view.boxes))
    assert not ag.bridge.session.backward_in_progress and len(steps) == len(view.boxes) == 6
    assert [(b.name, b.row["owner"]) for b in ran] == steps
    assert len({b.index for b in ran}) == 6 and ran[-1].name == "AccumulateGrad"
    assert [b.name for b in ran if b.name != "AccumulateGrad"] == ["AddBackward0", "SumBackward0", "MulBackward0"]
    assert "x: (2,) float32 [2., 3.]" in next(b for b in ran if b.name == "MulBackward0").toolTip()
    assert all(b.state == "done" for b in ran[:-1]) and all(e.flowed for e in view.edges)
    assert "running now" in view.detail.toPlainText()
    ag.run_step("zero_grad")  # the next action clears the highlight of the last step
    assert all(b.state == "done" for b in view.boxes)
    assert "running now" not in view.detail.toPlainText()


def test_the_last_steps_highlight_also_clears_when_the_next_action_is_a_forward_step(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    _step_through(ag, view, len(view.boxes))
    ag.run_step("forward_step")
    assert not any(b.state == "running" for b in view.boxes)


def test_backward_all_leaves_no_box_running(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    ag.run_step("backward")
    assert all(b.state == "done" for b in view.boxes) and all(e.flowed for e in view.edges)


def test_a_second_backward_with_retain_graph_highlights_from_the_top_again(ag):
    view = ag.training.autograd
    ag.named_actions["retain_graph"].setChecked(True)
    ag.run_step("forward")
    steps = _session_steps(ag)
    first = _step_through(ag, view, len(view.boxes))
    second = _step_through(ag, view, 2)
    assert [(b.name, b.row["owner"]) for b in second] == [(b.name, b.row["owner"]) for b in first[:2]] == steps[6:]
    assert all(b.state == "normal" for b in view.boxes[2:] if b not in second)


def test_edges_are_labelled_with_the_shape_of_the_gradient_they_carry(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    labels = {(view.boxes[e.src].name, view.boxes[e.dst].row["owner"]): e.label.text for e in view.edges}
    assert labels == {("AddBackward0", "n5"): "()", ("AddBackward0", "n3"): "()", ("SumBackward0", "n4"): "(2,)",
                      ("MulBackward0", "n1"): "(2,)", ("MulBackward0", "n2"): "(2,)"}
    for e in view.edges:  # on the arrow, between the boxes it joins, over no box
        rect = e.label.sceneBoundingRect()
        assert e.path().boundingRect().contains(e.label.pos())
        assert not any(rect.intersects(b.sceneBoundingRect()) for b in view.boxes)
    labels = [e.label.sceneBoundingRect() for e in view.edges]
    assert not any(a.intersects(b) for i, a in enumerate(labels) for b in labels[i + 1:])
    ag.run_step("backward")
    assert all(e.label.flowed for e in view.edges)


def test_after_backward_the_saved_tensors_are_listed_as_freed(ag, qtbot):
    view = ag.training.autograd
    ag.run_step("forward")
    ag.run_step("backward")
    _click(qtbot, view, _box(view, "MulBackward0", "n4"))
    text = view.detail.toPlainText()
    assert "freed by backward" in text and "x: (2,) float32 [2., 3.]" in text


def test_a_second_forward_keeps_the_boxes_and_clears_the_backward_marks(ag):
    view = ag.training.autograd
    ag.run_step("forward")
    boxes = list(view.boxes)
    ag.run_step("backward")
    assert all(b.state == "done" for b in boxes)
    ag.run_step("zero_grad")
    ag.run_step("forward")
    assert view.boxes == boxes and all(b.state == "normal" for b in boxes)


def _trained_window(qtbot, graph, steps):
    """A window on ``graph`` with the autograd dock up, after ``steps`` clicks on the Train panel's Step."""
    from tests.gui.conftest import make_window

    w = make_window(qtbot, graph)
    w.show()
    w.resize(1400, 900)
    w.training.docks["autograd"].raise_()
    qtbot.waitUntil(lambda: w.training.autograd.isVisible())
    for _ in range(steps):
        w.training.panel.buttons["Step"].click()
    return w, w.training.autograd


def test_training_steps_recolour_the_same_boxes_instead_of_rebuilding_them(qtbot, node_types):
    from core.nodegraph.files.toy import classifier_graph

    w, view = _trained_window(qtbot, classifier_graph("spiral"), 0)
    w.run_step("forward")
    boxes, first = list(view.boxes), [r["node"] for r in view.rows]
    for _ in range(2):
        w.training.panel.buttons["Step"].click()
    assert view.boxes == boxes and [r["node"] for r in view.rows] != first
    assert boxes[0].name == "NllLossBackward0" and boxes[0].owner_title.endswith("· n3")
    assert all(b.row is r for b, r in zip(boxes, view.rows))
    w.undo_stack.setClean()


def test_after_training_the_boxes_belong_to_their_canvas_nodes_both_ways(qtbot, node_types):
    from core.nodegraph.files.toy import classifier_graph

    w, view = _trained_window(qtbot, classifier_graph("spiral"), 2)  # no Forward before: training made the graph
    assert view.boxes and view.caption.text().startswith(f"{len(view.boxes)} autograd nodes of the last training step")
    owners = {b.row["owner"] for b in view.boxes}
    assert owners == {"n2", "n3"} and {b.owner_title.split(" · ")[-1] for b in view.boxes} == owners
    w.scene.node_items["n2"].setSelected(True)
    assert {b.state for b in view.boxes if b.row["owner"] == "n2"} == {"selected"}
    assert {b.state for b in view.boxes if b.row["owner"] != "n2"} == {"normal"}
    _click(qtbot, view, next(b for b in view.boxes if b.name == "NllLossBackward0"))
    assert w.scene.selected_node_ids() == ["n3"]
    _click(qtbot, view, next(b for b in view.boxes if b.name == "TanhBackward0"))
    assert "freed by the training step's backward" in view.detail.toPlainText()
    w.undo_stack.setClean()


def test_after_training_a_linear_layer_the_view_shows_the_last_steps_graph(qtbot, node_types):
    from tests.nodegraph.session_graphs import linear_mse_graph

    w, view = _trained_window(qtbot, linear_mse_graph(), 3)
    assert "of the last training step" in view.caption.text()
    assert [(b.name, b.row["owner"]) for b in view.boxes] == [  # the weight through weight.t(), as in torch
        ("MseLossBackward0", "loss"), ("AddmmBackward0", "lin"), ("AccumulateGrad", "lin"), ("TBackward0", "lin"),
        ("AccumulateGrad", "lin")]
    w.scene.node_items["lin"].setSelected(True)
    assert [b.state for b in view.boxes] == ["normal", "selected", "selected", "selected", "selected"]
    labels = {(view.boxes[e.src].name, view.boxes[e.dst].name): e.label.text for e in view.edges}
    assert labels[("MseLossBackward0", "AddmmBackward0")] == "(32, 1)"
    w.undo_stack.setClean()


def test_a_loss_without_grad_fn_says_why_there_is_no_graph(ag):
    ag.graph.set_param("n1", "requires_grad", False)
    ag.graph.set_param("n2", "requires_grad", False)
    ag.graph.set_param("n3", "requires_grad", False)
    ag.run_step("forward")
    view = ag.training.autograd
    assert view.boxes == [] and view.caption.text().startswith("The loss has no grad_fn")
