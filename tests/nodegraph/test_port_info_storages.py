"""Showing every port of a large graph reads the tensors' storages once per step, and what it shows about
shared memory stays right as steps, time travel and view nodes change the values."""

import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session


def _chain(n):
    g = Graph()
    g.add_node(Node("n0", "source.tensor", {"tensor": [[1.0, 2.0], [3.0, 4.0]]}))
    for i in range(1, n):
        g.add_node(Node(f"n{i}", "shape.t" if i % 3 == 0 else "math.add"))
        g.connect(Edge(f"n{i - 1}", "out", f"n{i}", "x" if i % 3 == 0 else "a"))
        if i % 3:
            g.connect(Edge("n0", "out", f"n{i}", "b"))
    return g


def _count_scans(session):
    calls = []
    scan = session.inspector._scan_storages

    def counted():
        calls.append(1)
        return scan()
    session.inspector._scan_storages = counted
    return calls


def test_showing_every_port_scans_the_storages_once_per_step():
    s = Session(_chain(120))
    s.forward()
    calls = _count_scans(s)
    infos = s.inspector.info()
    assert len(infos) == 120 and len(calls) == 1
    s.zero_grad()  # a step: the map is made again, once
    s.inspector.info()
    assert len(calls) == 2


def test_views_are_seen_sharing_memory_with_their_base_through_the_cached_map():
    s = Session(_chain(7))
    s.forward()
    assert s.inspector.port_info("n3").shares_memory_with == ("n2.out",)
    assert s.inspector.port_info("n2").shares_memory_with == ("n3.out",)
    assert s.inspector.port_info("n1").shares_memory_with == ()
    assert s.inspector.port_info("n6").shares_memory_with == ("n5.out",)


def test_stepping_back_and_forth_shows_the_shared_memory_of_the_step_shown():
    s = Session(_chain(4))
    for _ in range(3):
        s.forward_step()
    assert s.inspector.port_info("n2").shares_memory_with == ()
    s.forward_step()  # n3 = n2.t() now shares n2's memory
    assert s.inspector.port_info("n2").shares_memory_with == ("n3.out",)
    s.history.step_back()
    assert s.inspector.port_info("n2").shares_memory_with == ()


def test_a_value_replaced_without_a_step_is_still_seen_where_it_lives():
    s = Session(_chain(4))
    s.forward()
    s.inspector.port_info("n1")  # builds the map
    s.values["n1"] = {"out": s.value("n0")}  # n1 now shows n0's tensor itself
    assert s.inspector.port_info("n1").shares_memory_with == ("n0.out",)
