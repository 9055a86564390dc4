"""Shape inference of a large source (issue #21, "Big tensors"): its shape, dtype, device and requires_grad come
from its parameters without making the tensor, unless something downstream may write into it; a source over the
memory budget is still refused."""

import tracemalloc

import pytest

from core.nodegraph.model import budget
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.inference import PortInfo, infer
from tests.nodegraph.session_graphs import node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _graph(nodes, edges=()) -> Graph:
    g = Graph()
    for nid, kind, params in nodes:
        g.add_node(Node(nid, kind, params))
    for e in edges:
        g.connect(Edge(*e))
    return g


def _peak(fn):
    tracemalloc.start()
    try:
        result = fn()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("kind", ["source.randn", "source.rand", "source.zeros", "source.ones", "source.full"])
def test_a_64_mb_source_is_inferred_without_making_it(kind):
    g = _graph([("x", kind, {"shape": [4000, 4000], "requires_grad": True}), ("t", "shape.transpose", {}),
                ("s", "reduce.sum", {})], [("x", "out", "t", "x"), ("t", "out", "s", "x")])
    result, peak = _peak(lambda: infer(g))
    assert result.ok(), result.errors
    assert result.port("x") == PortInfo((4000, 4000), "float32", "cpu", "tensor", (0, 0), False)
    assert result.port("t").shape == (4000, 4000) and result.port("s") == PortInfo((), "float32", "cpu", "tensor",
                                                                                     (), True)
    assert peak < 2 * 1024 ** 2  # the tensor would take 64 MB


def test_a_large_source_keeps_its_dtype_and_a_small_one_is_made():
    g = _graph([("big", "source.ones", {"shape": [100, 100], "dtype": "int64"}),
                ("small", "source.randn", {"shape": [3, 4], "dtype": "float64"})])
    result = infer(g)
    assert result.port("big").dtype == "int64" and result.port("big").strides == (0, 0)
    assert result.port("small") == PortInfo((3, 4), "float64", "cpu", "tensor", (4, 1), True)


def test_a_large_source_written_in_place_downstream_is_made_for_real():
    g = _graph([("x", "source.zeros", {"shape": [100, 100]}), ("v", "shape.transpose", {}),
                ("y", "source.ones", {"shape": [100, 100]}), ("w", "inplace.add_", {})],
               [("x", "out", "v", "x"), ("v", "out", "w", "x"), ("y", "out", "w", "other")])
    result = infer(g)
    assert "w" not in result.errors and result.port("x").strides == (100, 1)


def test_adding_a_tensor_into_its_own_transpose_is_refused_as_pytorch_refuses_it():
    """``x.t().add_(x)`` writes memory it reads in another order: torch raises, and so does the graph's check."""
    g = _graph([("x", "source.zeros", {"shape": [100, 100]}), ("v", "shape.transpose", {}),
                ("w", "inplace.add_", {})],
               [("x", "out", "v", "x"), ("v", "out", "w", "x"), ("x", "out", "w", "other")])
    assert "refer to a single memory location" in infer(g).errors["w"]


def test_an_integer_source_requiring_grad_gets_the_sources_own_message():
    g = _graph([("x", "source.zeros", {"shape": [100, 100], "dtype": "int64", "requires_grad": True})])
    assert "only floating point and complex tensors can require gradients" in infer(g).errors["x"]


def test_a_source_over_the_memory_budget_is_still_refused():
    old = budget.set_memory_budget(1000)
    try:
        result = infer(_graph([("x", "source.randn", {"shape": [100, 100]})]))
    finally:
        budget.set_memory_budget(old)
    assert result.errors["x"].startswith("BudgetError: randn would make a 100x100 float32 tensor")

