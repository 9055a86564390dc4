"""Stepping through the default graph: the canvas and the inspector show the session's values and
gradients ([ 1.5000, -0.5000], [2., 3.], 1.: as PyTorch prints them), accumulation (sum of 2 backward calls), the second
backward's error, step back."""

import pytest

from tests.gui.real_input import click_toolbar, toolbar_button
from tests.gui.real_input import shown as shown_window


@pytest.fixture
def stepping(window):
    return window


@pytest.fixture
def run(qtbot):
    """Forward all or Backward all from its action, waited for: a pass runs in slices on the event loop, and on a
    busy machine its first slice ends before a small graph is done (the wall-time cap of gui/step_runner.py)."""
    def run_pass(window, name: str) -> None:
        window.named_actions[name].trigger()
        qtbot.waitUntil(lambda: not window.stepper.active)
    return run_pass


def shown(window, nid):
    return window.scene.node_items[nid].display


def test_run_actions_are_enabled_with_a_session(stepping):
    assert all(stepping.named_actions[n].isEnabled() for n in ("forward_step", "backward", "zero_grad", "step_back"))


def test_forward_step_highlights_the_node_and_fills_its_value(stepping):
    stepping.named_actions["forward_step"].trigger()
    (first,) = [nid for nid, item in stepping.scene.node_items.items() if item.display.highlight]
    assert first == "n1" and shown(stepping, "n1").value == "[2., 3.]"
    assert shown(stepping, "n4").value == ""
    assert stepping.status_label.text() == "Forward: x = [2., 3.]"


def test_forward_all_fills_every_value(stepping, run):
    run(stepping, "forward")
    assert shown(stepping, "n4").value == "[ 3.0000, -1.5000]"
    assert shown(stepping, "n6").value == "1.6000"
    assert stepping.scene.edge_items[next(e for e in stepping.graph.edges if e.src == "n4")].label_text == "(2,)"


def test_backward_all_shows_the_chapter_gradients(stepping, run):
    run(stepping, "backward")
    assert shown(stepping, "n1").grad == "[ 1.5000, -0.5000]"
    assert shown(stepping, "n2").grad == "[2., 3.]"
    assert shown(stepping, "n3").grad == "1."
    assert shown(stepping, "n1").grad_note == "" and shown(stepping, "n1").leaf


def test_backward_step_by_step_names_what_each_autograd_node_sent(stepping, run):
    messages = []
    run(stepping, "forward")
    for _ in range(8):
        stepping.named_actions["backward_step"].trigger()
        messages.append(stepping.status_label.text())
    assert any(m == "MulBackward0: sent grad [ 1.5000, -0.5000] to x" for m in messages)
    assert shown(stepping, "n2").grad == "[2., 3.]"


def test_backward_twice_with_retain_graph_accumulates_and_counts(stepping, run):
    stepping.named_actions["retain_graph"].setChecked(True)
    run(stepping, "backward")
    run(stepping, "backward")
    assert shown(stepping, "n1").grad == "[ 3., -1.]"
    assert shown(stepping, "n1").grad_note == "sum of 2 backward calls"
    stepping.inspector.show_node("n1")
    text = stepping.inspector.value_view.toPlainText()
    assert "backward #1" in text and "backward #2" in text and "out.grad = [ 3., -1.]" in text
    assert "backward #1 via z → s → xw → x:" in text  # the path by the nodes' titles, never their ids
    first, second = (line.strip() for line in text.splitlines() if "backward #" in line)
    assert first.endswith("x: [ 1.5000, -0.5000]")  # the first pass is the whole gradient, nothing added to
    assert second.endswith("x: + [ 1.5000, -0.5000] = [ 3., -1.]")  # a later one is added to what was there


def test_second_backward_without_retain_graph_shows_the_error_on_the_loss_node(stepping, run):
    run(stepping, "backward")
    assert shown(stepping, "n4").spent
    run(stepping, "backward")
    assert "Trying to backward through the graph a second time" in shown(stepping, "n6").error
    assert stepping.status_label.text().startswith("Error at z")


def test_zero_grad_clears_the_gradients(stepping, run):
    run(stepping, "backward")
    stepping.named_actions["zero_grad"].trigger()
    assert shown(stepping, "n1").grad == ""


def test_step_back_restores_the_previous_step(stepping):
    stepping.named_actions["forward_step"].trigger()
    stepping.named_actions["forward_step"].trigger()
    assert shown(stepping, "n2").value == "[ 1.5000, -0.5000]"
    stepping.named_actions["step_back"].trigger()
    assert shown(stepping, "n1").value == "[2., 3.]" and shown(stepping, "n2").value == ""
    assert stepping.status_label.text().startswith("Stepped back")


def test_inspector_shows_numbers_and_statistics_for_the_selected_node(stepping, run):
    run(stepping, "backward")
    stepping.scene.node_items["n2"].setSelected(True)
    text = stepping.inspector.value_view.toPlainText()
    assert "out = [ 1.5000, -0.5000]" in text and "out.grad = [2., 3.]" in text
    assert "min -0.5" in text and "NaN 0" in text
    assert "  min 2  max 3  mean 2.5  std 0.7071  norm 3.606  NaN 0" in text.splitlines()  # out.grad = [2., 3.]


def test_forward_all_pauses_before_a_breakpoint(stepping, run):
    stepping.scene.node_items["n5"].setSelected(True)
    stepping.named_actions["toggle_breakpoint"].trigger()
    assert stepping.scene.node_items["n5"].breakpoint
    run(stepping, "forward")
    assert shown(stepping, "n4").value == "[ 3.0000, -1.5000]" and shown(stepping, "n5").value == ""
    assert "breakpoint" in stepping.status_label.text()
    run(stepping, "forward")
    assert shown(stepping, "n6").value == "1.6000"


def test_backward_all_pauses_at_a_breakpoint(stepping, run):
    stepping.scene.node_items["n4"].setSelected(True)
    stepping.named_actions["toggle_breakpoint"].trigger()
    run(stepping, "forward")
    run(stepping, "backward")
    assert stepping.highlight == "n4" and shown(stepping, "n1").grad == ""
    run(stepping, "backward")
    assert shown(stepping, "n1").grad == "[ 1.5000, -0.5000]"


def test_hovering_a_gradient_tells_where_it_came_from(stepping, run):
    stepping.named_actions["retain_graph"].setChecked(True)
    run(stepping, "backward")
    run(stepping, "backward")
    tip = stepping.scene.node_items["n1"].toolTip()
    assert "x.grad = [ 3., -1.]: gradients accumulate over 2 backward calls" in tip
    assert "backward #2: ∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x" in tip


def test_clicking_create_graph_on_the_toolbar_turns_it_on_for_the_next_backward_and_again_off(stepping, qtbot):
    """Two clicks on Create graph, then Backward all clicked: the gradients carry no graph. (The pass runs in slices
    on the event loop, which on a busy machine outlasts its first slice: the test waits for the pass to end.)"""
    w = shown_window(qtbot, stepping)
    assert w.named_actions["create_graph"].isEnabled() and w.bridge.create_graph is False
    click_toolbar(w, "create_graph")
    qtbot.waitUntil(lambda: w.bridge.create_graph is True)
    assert toolbar_button(w, "create_graph").isChecked()
    click_toolbar(w, "create_graph")
    qtbot.waitUntil(lambda: w.bridge.create_graph is False)
    click_toolbar(w, "backward")
    qtbot.waitUntil(lambda: not w.stepper.active and w.bridge.session.grad("n2") is not None)
    grad = w.bridge.session.grad("n2")
    assert grad.tolist() == [2.0, 3.0] and not grad.requires_grad


def test_backward_with_create_graph_on_gives_gradients_with_a_graph(stepping, run):
    stepping.named_actions["create_graph"].setChecked(True)
    run(stepping, "backward")
    grad = stepping.bridge.session.grad("n2")
    assert grad.requires_grad and grad.grad_fn is not None and grad.tolist() == [2.0, 3.0]
