"""A node's parameter summary on the canvas shows each parameter whole: a Linear typed to in_features=16,
out_features=32, seed=7 lays its summary out a few parameters to a line (``in_features=16 out_features=32`` cut to
``in_features=16 out_fe…`` before), and the node grows to hold the lines."""

import pytest
from PySide6.QtWidgets import QAbstractSpinBox, QLineEdit

from gui import style
from gui.canvas.node_item import pack_params, small_metrics
from tests.gui.real_input import click_node, double_click_library, shown, type_text

pytest.importorskip("pytestqt")


def _field(w, name: str):
    """The visible Inspector field of parameter ``name`` (None while the form is being built)."""
    fields = [f for kind in (QLineEdit, QAbstractSpinBox) for f in w.inspector.findChildren(kind, f"param_{name}")]
    return next((f for f in fields if f.isVisible()), None)


def test_a_linears_parameter_summary_is_drawn_whole_on_lines_that_fit_the_node(qtbot, empty_window):
    w = shown(qtbot, empty_window)
    nid = double_click_library(qtbot, w, "layer.linear")
    click_node(qtbot, w, nid)
    item = w.scene.node_items[nid]
    bare = item.body_rect().height()
    for name, text in (("in_features", "16"), ("out_features", "32"), ("seed", "7")):
        qtbot.waitUntil(lambda n=name: _field(w, n) is not None)
        type_text(qtbot, _field(w, name), text)
        qtbot.waitUntil(lambda n=name, t=text: str(w.graph.nodes[nid].params[n]) == t)
    item = w.scene.node_items[nid]
    qtbot.waitUntil(lambda: "seed=7" in " ".join(item.display.params))
    room = style.NODE_WIDTH - 16
    lines = [text for kind, text in item._preview_lines() if kind == "badge"]
    assert " ".join(item.display.params) == "in_features=16 out_features=32 seed=7"
    assert lines == pack_params(item.display.params, room) and len(lines) >= 2
    assert all(small_metrics().horizontalAdvance(line) <= room for line in lines)  # nothing elided
    assert {part for line in lines for part in line.split(" ")} == set(item.display.params)  # each part whole
    assert item.body_rect().height() >= bare + 16 * (len(lines) - 1)  # the node holds every line


def test_a_part_longer_than_a_line_is_elided_on_the_node_and_whole_in_its_tooltip(qtbot, empty_window):
    parts = ["in_features=16", "name=" + "a_very_long_parameter_value" * 2]
    assert pack_params(parts, style.NODE_WIDTH - 16) == parts
    w = shown(qtbot, empty_window)
    nid = double_click_library(qtbot, w, "layer.linear")
    item = w.scene.node_items[nid]
    from gui.canvas.node_item import NodeDisplay

    item.set_display(NodeDisplay(badges=[" ".join(parts)], params=parts))
    assert parts[1] in item.toolTip()


def test_a_lists_part_takes_a_line_of_its_own_whatever_its_length():
    """Lesson 1's x showed ``shape=[32, 3, 224, 224]`` / ``seed=0`` and w ``shape=[64, 3, 7, 7] seed=1``: the same
    kind of summary laid out two ways, by the digits in it. A list (a shape, a tensor literal, dims) now stands on its
    line."""
    room = style.NODE_WIDTH - 16
    assert pack_params(["shape=[32, 3, 224, 224]", "seed=0"], room) == ["shape=[32, 3, 224, 224]", "seed=0"]
    assert pack_params(["shape=[64, 3, 7, 7]", "seed=1"], room) == ["shape=[64, 3, 7, 7]", "seed=1"]
    assert pack_params(["shape=[4]", "seed=0", "dtype=float64"], room) == ["shape=[4]", "seed=0 dtype=float64"]
    assert pack_params(["stride=2", "padding=3"], room) == ["stride=2 padding=3"]
    assert pack_params(["tensor=(300, 400) values", "dtype=float16"], room) == ["tensor=(300, 400) values",
                                                                               "dtype=float16"]


def test_lesson_ones_x_and_w_lay_their_summaries_out_alike(qtbot, window):
    """Opened from File ▸ Examples at 1366x768, as the hand test did."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    w = shown(qtbot, window)
    open_example(qtbot, w, "01-tensors")
    titles = {node.title: nid for nid, node in w.graph.nodes.items()}
    items = {name: w.scene.node_items[titles[name]] for name in ("x", "w")}

    def lines(name):
        return [text for kind, text in items[name]._preview_lines() if kind == "badge"]

    qtbot.waitUntil(lambda: all(lines(name) for name in items))
    assert lines("x") == ["shape=[32, 3, 224, 224]", "seed=0"]
    assert lines("w") == ["shape=[64, 3, 7, 7]", "seed=1"]
    assert items["x"].body_rect().height() == items["w"].body_rect().height()
