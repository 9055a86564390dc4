"""Run options belong to the document: Retain graph, Create graph and breakpoints set in one document are
off in the next one (File ▸ New, Open, a lesson), so lesson 4's "a second Backward all fails" holds."""

from PySide6.QtCore import Qt

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from tests.gui.real_input import click_node, click_toolbar, press, shown, toolbar_button

LESSON_4 = str(EXAMPLES_DIR / "04-autograd-graph.json")


def _new_document(qtbot, w):
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes)


def test_retain_graph_clicked_on_is_off_again_after_file_new(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "retain_graph")
    qtbot.waitUntil(lambda: w.bridge.retain_graph)
    assert toolbar_button(w, "retain_graph").isChecked()
    _new_document(qtbot, w)
    assert not w.named_actions["retain_graph"].isChecked() and not toolbar_button(w, "retain_graph").isChecked()
    assert w.bridge.retain_graph is False


def test_a_second_backward_all_fails_in_lesson_four_after_retain_graph_was_on_elsewhere(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "retain_graph")
    click_toolbar(w, "create_graph")
    qtbot.waitUntil(lambda: w.bridge.retain_graph and w.bridge.create_graph)
    _new_document(qtbot, w)
    assert w.open_path(LESSON_4)
    assert not w.named_actions["create_graph"].isChecked() and w.bridge.create_graph is False
    loss = w.graph.training.get("loss") or w.graph.topological_order()[-1]
    press(w, Qt.Key_F5, Qt.ShiftModifier)  # Backward all
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad == "[ 1.5000, -0.5000]")
    press(w, Qt.Key_F5, Qt.ShiftModifier)
    qtbot.waitUntil(lambda: loss in w.bridge.session.errors)
    assert "second time" in str(w.bridge.session.errors[loss])
    assert w.scene.node_items["n1"].display.grad == "[ 1.5000, -0.5000]"  # nothing accumulated


def test_breakpoints_stay_with_their_document(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n5")
    press(w, Qt.Key_F8)  # Toggle breakpoint
    qtbot.waitUntil(lambda: w.scene.node_items["n5"].breakpoint)
    _new_document(qtbot, w)
    assert w.open_path(LESSON_4)
    assert not w.scene.node_items["n5"].breakpoint
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.forward_complete)
