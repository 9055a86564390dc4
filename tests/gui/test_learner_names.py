"""Learner-facing text names nodes by their titles (x, s, x.grad), never by internal ids (n1, 'n1.out')."""

import re

from PySide6.QtCore import Qt

from tests.gui.real_input import click_node, click_toolbar, press, shown

ID = re.compile(r"\bn\d+\b")


def test_a_breakpoint_pause_names_the_node_by_its_title(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n5")  # the sum, drawn as "s"
    press(w, Qt.Key_F8)
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: "breakpoint" in w.status_label.text())
    assert w.status_label.text() == "Paused before the breakpoint at s"


def test_the_accumulation_hint_says_x_grad(window, qtbot):
    w = shown(qtbot, window)
    click_toolbar(w, "retain_graph")
    for _ in range(2):
        press(w, Qt.Key_F5, Qt.ShiftModifier)  # Backward all
    qtbot.waitUntil(lambda: w.scene.node_items["n1"].display.grad_note == "sum of 2 backward calls")
    hints = w.training.diagnostics.refresh(force=True)
    texts = [h.message for h in hints if h.rule == "grad_accumulation"]
    assert "x.grad is the sum of 2 backward calls since the last zero_grad (gradients accumulate)" in texts
    assert not any(ID.search(h.message) for h in hints)
