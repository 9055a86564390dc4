"""Hovering a node after Backward shows the chain-rule product behind its gradient, numbers plugged in."""

import html

import pytest


@pytest.fixture
def stepping(window):
    return window


def tip_lines(window, nid) -> list:
    tip = window.scene.node_items[nid].toolTip()
    assert tip.startswith("<pre>") and tip.endswith("</pre>")  # rich text: the "=" lines stay aligned
    return html.unescape(tip[len("<pre>"):-len("</pre>")]).splitlines()


def test_hovering_x_after_backward_all_shows_add_sum_mul_with_w_plugged_in(stepping):
    stepping.named_actions["backward"].trigger()
    assert tip_lines(stepping, "n1") == [
        "x.grad = ∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x",
        "       = 1. · 1 (AddBackward0) · ones(2) (SumBackward0) · w = [ 1.5000, -0.5000] (MulBackward0)",
        "       = [ 1.5000, -0.5000]"]  # as print(x.grad) writes it, like the rest of the app


def test_hovering_w_and_b_shows_their_products(stepping):
    stepping.named_actions["backward"].trigger()
    assert tip_lines(stepping, "n2")[1].endswith("· x = [2., 3.] (MulBackward0)")
    assert tip_lines(stepping, "n2")[2] == "       = [2., 3.]"
    assert tip_lines(stepping, "n3") == ["b.grad = ∂z/∂z · ∂z/∂b", "       = 1. · 1 (AddBackward0)", "       = 1."]


def test_hovering_after_two_backward_calls_shows_both_blocks_and_their_sum(stepping):
    stepping.named_actions["retain_graph"].setChecked(True)
    stepping.named_actions["backward"].trigger()
    stepping.named_actions["backward"].trigger()
    lines = tip_lines(stepping, "n1")
    assert lines[0] == "x.grad = [ 3., -1.]: gradients accumulate over 2 backward calls"
    assert [line.strip().split(":")[0] for line in lines if "backward #" in line] == ["backward #1", "backward #2"]
    assert "x.grad = [ 1.5000, -0.5000] + [ 1.5000, -0.5000] = [ 3., -1.]" in lines


def test_the_status_bar_sentence_and_the_tooltip_agree_on_what_mul_sent(stepping):
    stepping.named_actions["forward"].trigger()
    messages = []
    for _ in range(8):
        stepping.named_actions["backward_step"].trigger()
        messages.append(stepping.status_label.text())
    assert "MulBackward0: sent grad [ 1.5000, -0.5000] to x" in messages  # as print(x.grad) writes it
    assert tip_lines(stepping, "n1")[-1] == "       = [ 1.5000, -0.5000]"  # the same numbers, written the same way


def test_hovering_a_ports_gradient_shows_the_same_product_below_its_tensor_facts(stepping):
    port = stepping.scene.node_items["n1"].port("out", True)
    stepping.named_actions["forward"].trigger()
    assert "x.grad" not in stepping.scene.port_tooltip(port)  # no gradient yet, no product
    stepping.named_actions["backward"].trigger()
    tip = stepping.scene.port_tooltip(port).splitlines()
    assert tip[0].startswith("n1.out (output,") and "is_leaf=True" in tip[3]
    assert tip[-3:] == [
        "x.grad = ∂z/∂z · ∂z/∂s · ∂s/∂xw · ∂xw/∂x",
        "       = 1. · 1 (AddBackward0) · ones(2) (SumBackward0) · w = [ 1.5000, -0.5000] (MulBackward0)",
        "       = [ 1.5000, -0.5000]"]
