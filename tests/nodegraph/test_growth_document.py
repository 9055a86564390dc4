"""Edits of a large document cost O(what they touch): no command scans every edge, every id or every node.

These tests count work with deterministic spies (iterations of the edge list, id probes, nodes visited), never
with timers, so they pass on a busy machine and fail when a per-command scan of the whole graph comes back.
"""

from __future__ import annotations

import pytest

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model import commands as cmd
from core.nodegraph.model import document
from core.nodegraph.model.document import Edge, Graph, GraphError, Node

N = 300


class _ProbeCount(dict):
    """A node dict that counts membership tests (``new_id``'s probes)."""

    probes = 0

    def __contains__(self, key):
        _ProbeCount.probes += 1
        return super().__contains__(key)


def _chain(g: Graph, n: int) -> None:
    cmd.AddNode({"id": "n1", "type": "source.randn", "params": {"shape": [2]}}).do(g)
    for k in range(2, n + 1):
        cmd.AddNode({"id": f"n{k}", "type": "math.exp"}).do(g)
        cmd.Connect(f"n{k - 1}", "out", f"n{k}", "x").do(g)


@pytest.fixture
def edge_scans(monkeypatch):
    """How many times anything iterated the document's edge list."""
    count = {"n": 0}
    original = list.__iter__

    def counting_iter(self):
        count["n"] += 1
        return original(self)

    monkeypatch.setattr(document._EdgeList, "__iter__", counting_iter)
    return count


def test_building_a_long_chain_by_commands_scans_the_edge_list_only_to_index_it_once(edge_scans):
    g = Graph()
    _chain(g, N)
    assert len(g.edges) == N - 1
    assert edge_scans["n"] <= 1


def test_the_cycle_check_of_a_new_edge_visits_only_the_target_s_descendants(monkeypatch):
    g = Graph()
    _chain(g, N)
    visited = []
    original = Graph.descendants

    def spy(self, node_id):
        found = original(self, node_id)
        visited.append(len(found))
        return found

    monkeypatch.setattr(Graph, "descendants", spy)
    cmd.AddNode({"id": "tail", "type": "math.exp"}).do(g)
    cmd.Connect(f"n{N}", "out", "tail", "x").do(g)
    assert visited == [0]
    with pytest.raises(GraphError, match="cycle"):
        cmd.Connect("tail", "out", "n2", "x").do(g)
    assert g.edge_into("n2", "x") == Edge("n1", "out", "n2", "x")  # the replaced edge is back


def test_fresh_ids_cost_amortised_constant_probes_and_removed_ids_are_reused():
    g = Graph()
    g.nodes = _ProbeCount()
    _ProbeCount.probes = 0
    for _ in range(N):
        cmd.AddNode({"type": "math.exp"}).do(g)
    assert list(g.nodes)[-1] == f"n{N}"
    assert _ProbeCount.probes <= 4 * N
    cmd.RemoveNodes(["n7", "n3"]).do(g)
    assert g.new_id() == "n3"
    cmd.AddNode({"type": "math.exp"}).do(g)
    assert g.new_id() == "n7"


def test_an_id_freed_behind_the_document_s_back_is_found_again():
    g = Graph()
    for _ in range(5):
        g.add_node(Node(g.new_id(), "math.exp"))
    del g.nodes["n5"]
    assert g.new_id() == "n5"
    g.add_node(Node("n5", "math.exp"))
    g.new_id()
    del g.nodes["n2"]
    assert g.new_id() == "n2"


def test_direct_edits_of_the_edge_list_are_seen_by_every_query():
    g = Graph()
    _chain(g, 4)
    g.edges.append(Edge("n4", "out", "n1", "x"))  # a broken document, as a file could hold
    assert g.outputs_of("n4") == [Edge("n4", "out", "n1", "x")]
    assert g.inputs_of("n1") == {"x": Edge("n4", "out", "n1", "x")}
    assert "n1" in g.descendants("n4") and "n4" in g.ancestors("n1")
    g.edges = [Edge("n1", "out", "n2", "x")]
    assert g.edge_into("n3", "x") is None and g.descendants("n1") == {"n2"}
    del g.edges[0]
    assert g.descendants("n1") == set()


def test_removing_nodes_and_undoing_restores_the_document_and_its_edge_index():
    g = Graph()
    _chain(g, 6)
    before = g.to_dict()
    remove = cmd.RemoveNodes(["n3", "n5"])
    remove.do(g)
    assert g.edges == [Edge("n1", "out", "n2", "x")] and g.inputs_of("n4") == {}
    remove.undo(g)
    assert g.to_dict() == before
    assert g.inputs_of("n4") == {"x": Edge("n3", "out", "n4", "x")}
    assert g.descendants("n2") == {"n3", "n4", "n5", "n6"}
