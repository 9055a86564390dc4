"""Edits of a large document cost what they change: a rename runs nothing, and cutting a long chain re-runs the
nodes after the cut with each re-run's snapshot looking at that node's own tensors (not every tensor the session
holds, which made deleting a node in the middle of a 2,000-node chain take 50 s). Timings are in
benchmarks/bench_nodegraph_scale.py; these tests count the work instead."""

from __future__ import annotations

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session

N = 400


def _chain(n: int) -> Graph:
    """n1, n4, n8, ... are leaves (randn, requires_grad); the rest a chain of tanh, add (the last leaf), mul (it)."""
    g = Graph()
    prev = leaf = "n1"
    g.add_node(Node("n1", "source.randn", {"shape": [4], "seed": 1, "requires_grad": True}))
    for k in range(2, n + 1):
        nid = f"n{k}"
        if k % 4 == 0:
            g.add_node(Node(nid, "source.randn", {"shape": [4], "seed": k, "requires_grad": True}))
            leaf = nid
            continue
        op = ("math.mul", "math.tanh", "math.add")[k % 4 - 1]
        g.add_node(Node(nid, op, {}))
        g.connect(Edge(prev, "out", nid, "x" if op == "math.tanh" else "a"))
        if op != "math.tanh":
            g.connect(Edge(leaf, "out", nid, "b"))
        prev = nid
    return g


def _computed_chain():
    graph = _chain(N)
    session = Session(graph)
    session.forward()
    assert not session.errors
    return graph, session


def test_renaming_or_recolouring_a_node_reruns_nothing_and_keeps_every_value():
    graph, session = _computed_chain()
    values = {nid: dict(ports) for nid, ports in session.values.items()}
    events = []
    session.subscribe(events.append)
    for command in (cmd.SetNodeAttr("n2", "title", "renamed"), cmd.SetNodeAttr("n2", "color", "#ff0000")):
        command.do(graph)
        command.undo(graph)
    assert events == []
    assert all(session.values[nid][p] is t for nid, ports in values.items() for p, t in ports.items())
    assert session.forward_complete


def test_deleting_a_node_mid_chain_reruns_the_rest_each_step_checking_only_its_own_tensors():
    graph, session = _computed_chain()
    whole_checks = []
    tracked = session.tracked_tensors
    session.tracked_tensors = lambda: whole_checks.append(1) or tracked()
    middle = list(graph.nodes)[N // 2]
    after = graph.descendants(middle)
    cmd.RemoveNodes([middle]).do(graph)
    assert all(nid in session.errors for nid in after)  # each re-ran: an input missing, or one that failed
    assert len(whole_checks) <= 8  # a few pruning passes, not one scan of the session per re-run node (~200)


def test_renaming_a_node_whose_consumer_failed_reruns_it_so_its_error_names_the_new_title():
    graph, session = _computed_chain()
    cmd.RemoveNodes(["n2"]).do(graph)  # n3 = n2 + n1 has no input a now; n5 = n3 * n4 fails with it
    assert "which failed" in session.errors["n5"].message
    cmd.SetNodeAttr("n3", "title", "renamed").do(graph)
    assert "comes from renamed, which failed" in session.errors["n5"].message
