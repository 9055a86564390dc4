"""Lesson 7's check node shows its max_error whole, exponent included, within the node: the lesson is about
gradients agreeing "to about 1e-10", and the 190 px node cut ``1.344e-10`` to ``1.34…``."""

import pytest

from gui import style
from gui.canvas.node_item import small_metrics
from tests.gui.real_input import click_toolbar, open_lesson_by_mouse, shown

pytest.importorskip("pytestqt")


def test_lesson_7s_check_node_shows_max_error_with_its_exponent_within_the_node(qtbot, window):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "7.")
    qtbot.waitUntil(lambda: w.lessons.panel.lesson is not None and "gradcheck" in w.lessons.panel.lesson.key)
    check = next(nid for nid, n in w.graph.nodes.items() if n.title == "check")
    item = w.scene.node_items[check]
    w.view.centerOn(item)
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: "max_error" in item.painted_value)
    text = item.painted_value
    assert text == item.display.value, f"the value line was cut: {text!r}"
    assert "e-" in text.split("max_error")[1], text  # about 1e-10: the exponent is what the lesson is about
    assert small_metrics().horizontalAdvance(text) <= style.NODE_WIDTH - 16
