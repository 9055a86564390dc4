"""The document's edge index (``core.nodegraph.model.edge_index``, issue #21 "Growth"): every query agrees with a
scan of the edge list through any mix of edits, undos and direct edits of the list (two edges into one input
included), and a large document adds no tracked container per node for the garbage collector to walk."""

import gc
import random
from collections import Counter

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Edge, Graph, GraphError


def _chain(n: int) -> Graph:
    g = Graph()
    cmd.AddNode({"id": "n1", "type": "source.randn", "params": {"shape": [2]}}).do(g)
    for k in range(2, n + 1):
        cmd.AddNode({"id": f"n{k}", "type": "math.add"}).do(g)
        cmd.Connect(f"n{k - 1}", "out", f"n{k}", "a").do(g)
        cmd.Connect("n1", "out", f"n{k}", "b").do(g)
    return g


def _reach(edges: list[Edge], start: str, downstream: bool) -> set[str]:
    nexts: dict[str, list[str]] = {}
    for e in edges:
        a, b = (e.src, e.dst) if downstream else (e.dst, e.src)
        nexts.setdefault(a, []).append(b)
    seen, stack = set(), [start]
    while stack:
        for m in nexts.get(stack.pop(), ()):
            if m not in seen:
                seen.add(m)
                stack.append(m)
    return seen


def _assert_queries_match_a_scan(g: Graph) -> None:
    edges = list(g.edges)
    for nid in g.nodes:
        into = {e.dst_port: e for e in edges if e.dst == nid}  # the last edge of the list into a port is its edge
        assert g.inputs_of(nid) == into
        assert all(g.edge_into(nid, p) == e for p, e in into.items())
        assert Counter(g.outputs_of(nid)) == Counter(e for e in edges if e.src == nid)
        assert g.node_edges(nid) == [e for e in edges if nid in (e.src, e.dst)]
        assert g.descendants(nid) == _reach(edges, nid, True)
        assert g.ancestors(nid) == _reach(edges, nid, False)


def test_every_query_agrees_with_a_scan_of_the_edge_list_through_random_edits_and_undos():
    rng = random.Random(21)
    g = _chain(12)
    done: list[cmd.Command] = []
    for _ in range(300):
        ids = list(g.nodes)
        roll = rng.random()
        try:
            if roll < 0.35 and ids:
                c: cmd.Command = cmd.Connect(rng.choice(ids), "out", rng.choice(ids), rng.choice("ab"))
            elif roll < 0.5 and g.edges:
                c = cmd.Disconnect(*rng.choice(g.edges))
            elif roll < 0.6 and ids:
                c = cmd.RemoveNodes(rng.sample(ids, min(2, len(ids))))
            elif roll < 0.7:
                c = cmd.AddNode({"type": "math.add"})
            elif roll < 0.75 and g.edges:
                g.edges.append(rng.choice(g.edges))  # a second edge into one input, as a broken file holds
                _assert_queries_match_a_scan(g)
                continue
            elif done:
                done.pop().undo(g)
                _assert_queries_match_a_scan(g)
                continue
            else:
                continue
            c.do(g)
            done.append(c)
        except GraphError:
            pass  # refused edits leave the document as it was
        _assert_queries_match_a_scan(g)


def test_the_earlier_of_two_edges_into_one_input_is_found_and_takes_the_input_when_the_later_goes():
    g = _chain(3)
    late = Edge("n1", "out", "n3", "a")
    g.edges.append(late)  # n3.a is entered by n2 (earlier) and n1 (later)
    assert g.edge_into("n3", "a") == late
    assert g.node_edges("n3") == [Edge("n2", "out", "n3", "a"), Edge("n1", "out", "n3", "b"), late]
    g.disconnect(late)
    assert g.edge_into("n3", "a") == Edge("n2", "out", "n3", "a")
    assert g.descendants("n2") == {"n3"}


def test_removing_a_node_entered_twice_on_one_input_removes_both_edges():
    g = _chain(3)
    g.edges.append(Edge("n1", "out", "n3", "a"))
    g.edges.append(Edge("n1", "out", "n3", "a"))  # the same edge twice, too
    cmd.RemoveNodes(["n3"]).do(g)
    assert g.edges == [Edge("n1", "out", "n2", "a"), Edge("n1", "out", "n2", "b")]
    _assert_queries_match_a_scan(g)


def test_a_replaced_input_moves_last_in_the_order_of_a_node_s_inputs():
    g = _chain(3)
    assert list(g.inputs_of("n3")) == ["a", "b"]
    cmd.Connect("n2", "out", "n3", "a").do(g)
    assert list(g.inputs_of("n3")) == ["b", "a"]


def _tracked() -> int:
    gc.collect()
    return len(gc.get_objects())


def test_a_built_document_adds_one_tracked_object_per_node_and_per_edge_and_no_container_per_node():
    before = _tracked()
    g = _chain(2000)
    # the nodes and edges themselves, the containers of the document and its index, nothing per node
    assert _tracked() - before <= len(g.nodes) + len(g.edges) + 20
