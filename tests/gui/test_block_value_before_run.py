"""A block collapsed from nodes that already ran shows no value until it runs, then its output.

Collapsing a layer, a parameter node and what joins them after Forward all made a block that holds the layer's
weights but has not run; its node drew the inner layer's weight (``(2, 3) float32 cpu``, badged "parameter") as if
it were the block's result. Now it shows nothing until Forward all runs it, and then its own output. The
Inspector says it has not run yet and names what it holds by the inner nodes' titles (``model.weight``), not by
their ids (``lin.weight``), in its text and on its Watch buttons.
"""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from gui import format as fmt
from tests.gui.conftest import make_window
from tests.gui.real_input import click, press, show_dock, shown, toolbar_button

pytest.importorskip("pytestqt")

GROUP = ("lin", "w", "mul")


def _graph():
    """x [8, 3] -> model: Linear(3, 2) -> * w_cut (a parameter [2]) -> sum."""
    import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
    from core.nodegraph.model import commands as cmd
    from core.nodegraph.model.document import Graph

    g = Graph()
    for i, node in enumerate(({"id": "x", "type": "source.randn", "params": {"shape": [8, 3], "seed": 1}},
                              {"id": "lin", "type": "layer.linear", "title": "model",
                               "params": {"in_features": 3, "out_features": 2, "seed": 4}},
                              {"id": "w", "type": "param.parameter", "title": "w_cut",
                               "params": {"shape": [2], "seed": 3}},
                              {"id": "mul", "type": "math.mul"}, {"id": "total", "type": "reduce.sum"})):
        cmd.AddNode({**node, "position": [i * 240.0, (i % 2) * 160.0]}).do(g)
    for edge in (("x", "out", "lin", "x"), ("lin", "out", "mul", "a"), ("w", "out", "mul", "b"),
                 ("mul", "out", "total", "x")):
        cmd.Connect(*edge).do(g)
    return g


def _title_point(w, nid: str) -> QPoint:
    item = w.scene.node_items[nid]
    return w.view.mapFromScene(item.mapToScene(item.boundingRect().topLeft() + QPoint(30, 8)))


def _block_text(item) -> str:
    return " ".join([item.display.value, *item.display.badges])


def _collapsed_after_forward(qtbot):
    """The window after Forward all, a click on model, Ctrl+clicks on w_cut and mul, and Ctrl+G; the block's id."""
    w = shown(qtbot, make_window(qtbot, _graph()))
    w.view.fit_all()
    click(toolbar_button(w, "forward"))
    qtbot.waitUntil(lambda: w.scene.node_items["total"].display.value != "")
    viewport = w.view.viewport()
    QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, _title_point(w, GROUP[0]))
    for nid in GROUP[1:]:
        QTest.mouseClick(viewport, Qt.LeftButton, Qt.ControlModifier, _title_point(w, nid))
    qtbot.waitUntil(lambda: set(w.scene.selected_node_ids()) == set(GROUP))

    press(w, Qt.Key_G, Qt.ControlModifier)  # Edit > Collapse to subgraph
    qtbot.waitUntil(lambda: "lin" not in w.graph.nodes and len(w.scene.node_items) == 3)
    (block,) = [nid for nid, node in w.graph.nodes.items() if node.graph is not None]
    return w, block


def test_a_block_collapsed_after_a_forward_shows_no_inner_weight_and_then_its_output(qtbot):
    w, block = _collapsed_after_forward(qtbot)
    item = w.scene.node_items[block]
    assert w.bridge.session.node_parameters(block)  # it holds the layer's weights...
    assert item.display.value == "" and "parameter" not in item.display.badges  # ...but shows none as its value
    assert "(2, 3)" not in _block_text(item)

    click(toolbar_button(w, "forward"))
    out = lambda: w.bridge.session.value(block, "out")  # noqa: E731
    qtbot.waitUntil(lambda: out() is not None and item.display.value == fmt.short(out()))
    assert tuple(out().shape) == (8, 2)
    w.undo_stack.setClean()
    w.bridge.mark_saved()


def test_the_inspector_names_a_blocks_inner_weights_by_their_titles_before_it_ran(qtbot):
    w, block = _collapsed_after_forward(qtbot)
    QTest.mouseClick(w.view.viewport(), Qt.LeftButton, Qt.NoModifier, _title_point(w, block))
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: w.inspector.node_id == block and "model.weight = " in w.inspector.value_view.toPlainText())
    text = w.inspector.value_view.toPlainText()
    assert text.startswith("Not computed yet")
    assert "w_cut = " in text and "lin." not in text and "w.w" not in text
    buttons = {b.text() for b in w.inspector.watch_buttons.buttons.values()}
    assert {"model.weight", "model.bias", "w_cut"} <= buttons
    w.undo_stack.setClean()
    w.bridge.mark_saved()
