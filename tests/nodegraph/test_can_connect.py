"""``Graph.can_connect``: the document's rule for which output may feed which input, with the reason it refuses."""

import pytest

from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph
from core.nodegraph.model.spec import NodeSpec, Port, register, unregister


@pytest.fixture
def kinds(test_types):
    """Besides test.value/test.add: a node with a module output and one whose input takes anything."""
    specs = [NodeSpec("test.module", "Test", "Module", "a module", lambda ctx, inputs, params: None,
                      outputs=(Port("out", "module"),)),
             NodeSpec("test.sink", "Test", "Sink", "takes anything", lambda ctx, inputs, params: None,
                      inputs=(Port("x", "any"), Port("t"))),
             NodeSpec("test.grad", "Test", "Grad", "a gradient", lambda ctx, inputs, params: None,
                      outputs=(Port("out", "gradient"),))]
    for s in specs:
        register(s)
    yield specs
    for s in specs:
        unregister(s.type_id)


def _graph(*nodes) -> Graph:
    g = Graph()
    for nid, type_id in nodes:
        cmd.AddNode({"id": nid, "type": type_id}).do(g)
    return g


def test_an_output_may_feed_a_free_or_an_occupied_input(test_types):
    g = _graph(("v", "test.value"), ("w", "test.value"), ("add", "test.add"))
    assert g.can_connect(("v", "out"), ("add", "a")) == (True, "")
    cmd.Connect("v", "out", "add", "a").do(g)
    assert g.can_connect(("w", "out"), ("add", "a")) == (True, "")


def test_a_node_feeding_itself_or_closing_a_cycle_is_refused(test_types):
    g = _graph(("v", "test.value"), ("a1", "test.add"), ("a2", "test.add"))
    cmd.Connect("v", "out", "a1", "a").do(g)
    cmd.Connect("a1", "out", "a2", "a").do(g)
    assert g.can_connect(("a1", "out"), ("a1", "b")) == (False, "a node can't feed itself")
    assert g.can_connect(("a2", "out"), ("a1", "b")) == (False, "a2.out -> a1.b would create a cycle")
    assert g.can_connect(("v", "out"), ("a2", "b")) == (True, "")


def test_unknown_nodes_and_ports_are_refused(test_types):
    g = _graph(("v", "test.value"), ("add", "test.add"))
    assert g.can_connect(("v", "out"), ("nope", "a")) == (False, "no node 'nope'")
    assert g.can_connect(("v", "value"), ("add", "a")) == (False, "no such port")
    assert g.can_connect(("v", "out"), ("add", "c")) == (False, "no such port")


def test_kinds_must_match_except_tensor_like_kinds_and_any(kinds):
    g = _graph(("m", "test.module"), ("g", "test.grad"), ("sink", "test.sink"), ("add", "test.add"))
    assert g.can_connect(("m", "out"), ("add", "a")) == (False, "a module output can't feed a tensor input")
    assert g.can_connect(("m", "out"), ("sink", "x")) == (True, "")
    assert g.can_connect(("g", "out"), ("add", "b")) == (True, "")


def test_connect_refuses_the_cycles_can_connect_refuses(test_types):
    from core.nodegraph.model.document import Edge, GraphError

    g = _graph(("a1", "test.add"), ("a2", "test.add"))
    cmd.Connect("a1", "out", "a2", "a").do(g)
    ok, why = g.can_connect(("a2", "out"), ("a1", "a"))
    assert not ok and "cycle" in why
    with pytest.raises(GraphError, match="would create a cycle"):
        g.connect(Edge("a2", "out", "a1", "a"))
