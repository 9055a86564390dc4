"""A block holding an untitled Parameter node written without its defaults (a hand-written or older file): the
Inspector of the block names the tensor as the canvas titles the node, ``Parameter``, not ``Parameter.w``."""

from tests.gui.conftest import make_window
from tests.gui.real_input import click_node, click_toolbar, shown


def _graph():
    """x -> a block of (Linear, untitled Parameter written with its shape only, mul) -> out."""
    from core.nodegraph.model import commands as cmd
    from core.nodegraph.model.document import Graph

    g = Graph()
    for node in ({"id": "x", "type": "source.randn", "params": {"shape": [4, 3]}},
                 {"id": "lin", "type": "layer.linear", "params": {"in_features": 3, "out_features": 2}},
                 {"id": "p", "type": "param.parameter", "params": {"shape": [2]}},
                 {"id": "mul", "type": "math.mul"}):
        cmd.AddNode(node).do(g)
    for edge in (("x", "out", "lin", "x"), ("lin", "out", "mul", "a"), ("p", "out", "mul", "b")):
        cmd.Connect(*edge).do(g)
    collapse = cmd.Collapse(["lin", "p", "mul"], title="block")
    collapse.do(g)
    for node in g.nodes[collapse.node_id].graph["nodes"]:
        if node["type"] == "param.parameter":
            node["params"] = {"shape": [2]}  # as a file written without defaults gives it
    return g, collapse.node_id


def test_a_blocks_untitled_parameter_reads_parameter_in_the_inspector(qtbot, node_types):
    g, block = _graph()
    w = shown(qtbot, make_window(qtbot, g))
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: block in w.bridge.session.values)
    click_node(qtbot, w, block)
    qtbot.waitUntil(lambda: "Parameter = " in w.inspector.value_view.toPlainText())
    assert "Parameter.w" not in w.inspector.value_view.toPlainText()
    w.undo_stack.setClean()
    w.bridge.mark_saved()
