"""The in-place nodes write into their input's memory: views and bases show it, versions count it, and
PyTorch's in-place errors come out on the right node."""

import pytest

import core
import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session


def _graph(nodes, edges):
    g = Graph()
    for nid, type_id, params in nodes:
        g.add_node(Node(nid, type_id, params))
    for src, dst, port in edges:
        g.connect(Edge(src, "out", dst, port))
    return g


@pytest.mark.parametrize(("type_id", "params", "row"), [
    ("inplace.add_", {}, [3.0, 4.0, 5.0]), ("inplace.mul_", {}, [2.0, 4.0, 6.0]),
    ("inplace.fill_", {"value": 7.0}, [7.0, 7.0, 7.0]), ("inplace.zero_", {}, [0.0, 0.0, 0.0])])
def test_an_in_place_node_on_a_view_changes_the_base_and_bumps_its_version(type_id, params, row):
    binary = type_id in ("inplace.add_", "inplace.mul_")
    g = _graph([("n1", "source.tensor", {"tensor": [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]}),
                ("n2", "shape.slice", {"index": "0"}), ("n3", "source.tensor", {"tensor": 2.0}),
                ("n4", type_id, params)],
               [("n1", "n2", "x"), ("n2", "n4", "x")] + ([("n3", "n4", "other")] if binary else []))
    s = Session(g)
    s.forward()
    assert s.errors == {}
    assert s.value("n4").tolist() == row == s.value("n2").tolist()
    assert s.value("n1").tolist() == [row, [4.0, 5.0, 6.0]]
    assert s.inspector.port_info("n1").version == 1 and "n4.out" in s.inspector.port_info("n1").shares_memory_with


def test_an_in_place_op_on_a_leaf_that_requires_grad_is_refused_on_its_node():
    g = _graph([("n1", "source.tensor", {"tensor": [1.0, 2.0], "requires_grad": True}),
                ("n2", "inplace.fill_", {"value": 0.0})], [("n1", "n2", "x")])
    s = Session(g)
    s.forward()
    assert "a leaf Variable that requires grad is being used in an in-place operation" in s.errors["n2"].message


def test_overwriting_a_tensor_saved_for_backward_fails_the_backward_on_the_loss():
    g = _graph([("n1", "source.tensor", {"tensor": [0.5, 1.0], "requires_grad": True}), ("n2", "math.exp", {}),
                ("n3", "source.tensor", {"tensor": 1.0}), ("n4", "inplace.add_", {}), ("n5", "reduce.sum", {})],
               [("n1", "n2", "x"), ("n2", "n4", "x"), ("n3", "n4", "other"), ("n4", "n5", "x")])
    s = Session(g)
    s.backward()
    assert "modified by an inplace operation" in s.errors["n5"].message
    assert s.inspector.port_info("n2").version == 1
