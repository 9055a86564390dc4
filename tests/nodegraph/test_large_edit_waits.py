"""An edit that makes a node large does not run it at once (issue #21: typing the largest allowed shape into a
randn source froze the window for seconds while the session redrew 50M samples). The session re-runs a node
after an edit only when ``budget.quick`` says it is small; a large one waits for the next forward step."""

import tracemalloc

import pytest

import core.nodegraph.model.nodes  # noqa: F401 (registers the node types)
from core.nodegraph.model import commands
from core.nodegraph.model.document import Graph
from core.nodegraph.model.spec import MAX_NUMEL
from core.nodegraph.run.session import Session


@pytest.fixture
def computed():
    """A session that has run a small randn source feeding exp."""
    graph = Graph()
    src = commands.AddNode({"type": "source.randn", "params": {"shape": [2, 3]}, "position": [0.0, 0.0]})
    act = commands.AddNode({"type": "math.exp", "params": {}, "position": [200.0, 0.0]})
    src.do(graph)
    act.do(graph)
    commands.Connect(src.node["id"], "out", act.node["id"], "x").do(graph)
    session = Session(graph)
    session.forward()
    return graph, session, src.node["id"], act.node["id"]


def test_setting_the_largest_shape_does_not_draw_the_tensor(computed):
    graph, session, src, act = computed
    tracemalloc.start()
    try:
        commands.SetParam(src, "shape", [MAX_NUMEL // 1000, 1000]).do(graph)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 5 * 1024 ** 2
    assert src not in session.values and act not in session.values
    assert session.next_node == src  # the next forward step computes it


def test_a_small_edit_still_reruns_the_nodes_at_once(computed):
    graph, session, src, act = computed
    commands.SetParam(src, "shape", [4]).do(graph)
    assert tuple(session.values[src]["out"].shape) == (4,)
    assert tuple(session.values[act]["out"].shape) == (4,)
