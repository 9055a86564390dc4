"""What a node shows as its value (``PortInspector.face_info``): its output once it ran, never a parameter it owns
as if that were its output.

A block collapsed after a forward holds its inner layers' trained weights but has not run: it showed an inner
``Linear``'s weight as its value (``(2, 3) float32``, badged "parameter"), which reads as the block's result.
"""

from __future__ import annotations

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
from core.nodegraph.model import commands as cmd
from core.nodegraph.run.session import Session
from tests.nodegraph.test_subgraph_keeps_training import GROUP  # a layer, a parameter node and what joins them
from tests.nodegraph.test_subgraph_keeps_training import layered_graph as model  # x -> Linear -> * w -> MSE


def collapsed_after_forward() -> tuple[Session, str]:
    g = model()
    s = Session(g)
    s.forward()
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    return s, collapse.node_id


def test_a_block_collapsed_after_a_forward_shows_no_inner_parameter_as_its_value():
    s, block = collapsed_after_forward()
    assert s.node_parameters(block)  # it holds the inner layer's weights...
    assert block not in s.values
    assert s.inspector.face_info(block) is None  # ...but no output yet


def test_a_block_shows_its_output_once_it_ran():
    s, block = collapsed_after_forward()
    s.forward()
    info = s.inspector.face_info(block)
    assert info is not None and info.port == "out"
    assert info.value is s.value(block, "out")
    assert not info.is_parameter


def test_a_layer_brought_out_of_a_block_shows_no_weight_as_its_value_before_it_runs():
    s, block = collapsed_after_forward()
    cmd.Expand(block).do(s.graph)
    assert s.node_parameters("lin") and "lin" not in s.values
    assert s.inspector.face_info("lin") is None


def test_a_parameter_node_shows_its_own_tensor_which_is_its_output():
    s, block = collapsed_after_forward()
    cmd.Expand(block).do(s.graph)
    info = s.inspector.face_info("w")
    assert info is not None and info.is_parameter
    s.forward()
    assert s.value("w", "out") is info.value


def test_a_node_that_ran_shows_its_out_port():
    s = Session(model())
    s.forward()
    for nid in ("x", "lin", "w", "mul", "loss"):
        info = s.inspector.face_info(nid)
        assert info is not None and info.port == "out" and info.value is s.value(nid, "out")
