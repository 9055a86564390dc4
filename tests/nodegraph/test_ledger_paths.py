"""The gradient ledger's paths (issue #21, "Growth"): paths that merge before a leaf are all listed, loss first, and
a long chain's paths share their beginnings, so stepping backward through it keeps a number of path links linear
in the chain's length (the paths themselves are read, as tuples of node ids, only when asked)."""

import pytest

from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture
from tests.nodegraph.test_growth_session import chain_graph

pytestmark = pytest.mark.usefixtures("node_types")


def diamond_graph() -> Graph:
    """``loss = sum(tanh(x) + x * w)``: x's gradient comes along two paths that meet at x."""
    g = Graph()
    g.add_node(Node("x", "source.tensor", {"tensor": [0.5, -1.0], "requires_grad": True}))
    g.add_node(Node("w", "source.tensor", {"tensor": [2.0, 3.0], "requires_grad": True}))
    for nid, kind in (("t", "math.tanh"), ("m", "math.mul"), ("z", "math.add"), ("loss", "reduce.sum")):
        g.add_node(Node(nid, kind))
    for e in (("x", "out", "t", "x"), ("x", "out", "m", "a"), ("w", "out", "m", "b"), ("t", "out", "z", "a"),
              ("m", "out", "z", "b"), ("z", "out", "loss", "x")):
        g.connect(Edge(*e))
    g.training["loss"] = "loss"
    return g


def test_a_leaf_reached_along_two_paths_lists_both_loss_first():
    s = Session(diamond_graph())
    s.backward()
    (c,) = s.ledger.contributions("x.out")
    assert sorted(c.paths) == [("loss", "z", "m", "x"), ("loss", "z", "t", "x")]
    assert c.path == c.paths[0]
    assert s.ledger.contributions("w.out")[0].paths == (("loss", "z", "m", "w"),)


def test_a_second_backward_call_records_the_same_paths_again():
    s = Session(diamond_graph())
    s.backward(retain_graph=True)
    s.backward()
    first, second = s.ledger.contributions("x.out")
    assert (first.backward_call, second.backward_call) == (1, 2) and first.paths == second.paths


def test_a_long_chains_paths_share_their_links_and_read_whole():
    n = 2000
    s = Session(chain_graph(n))
    s.backward()
    contributions = [c for entries in s.ledger.entries.values() for c in entries]
    assert len(contributions) == n // 4
    first = s.ledger.contributions("n0.out")[0].path
    assert first[0] == "loss" and first[-1] == "n0" and len(first) > n // 2  # the whole chain, loss to leaf
    links, total_length = set(), 0
    for c in contributions:
        for link in c.links:
            total_length += len(link.nodes())
            while link is not None and id(link) not in links:
                links.add(id(link))
                link = link.before
    assert total_length > n * n // 20  # what a tuple per path would hold
    assert len(links) <= 2 * n  # what the shared links hold
