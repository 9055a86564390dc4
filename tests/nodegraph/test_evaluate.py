"""Plain evaluation: every node once in topological order; errors attach to nodes and never escape."""

import pytest

import core
from core.nodegraph.model.evaluate import Values, evaluate, evaluate_node, make_context
from tests.nodegraph.graph_helpers import build, linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")


def test_a_graph_evaluates_like_the_same_core_calls():
    values = evaluate(linear_graph())
    w = core.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=core.float64)
    x = core.tensor([[1.0], [-1.0]], dtype=core.float64)
    b = core.tensor([[0.5], [0.25]], dtype=core.float64)
    assert not values.errors
    assert values["n6"].item() == (w @ x + b).sum().item()
    assert values.get("n4").shape == (2, 1)


def test_gradients_flow_through_the_evaluated_values():
    values = evaluate(linear_graph())
    values["n6"].backward()
    assert values["n1"].grad.tolist() == [[1.0, -1.0], [1.0, -1.0]]
    assert values["n3"].grad.tolist() == [[1.0], [1.0]]


def test_a_failing_node_gets_pytorchs_message_and_its_descendants_are_skipped():
    g = build([("n1", "tt.randn", {"shape": [2, 3]}), ("n2", "tt.randn", {"shape": [2, 3]}),
               ("n3", "tt.matmul", {}), ("n4", "tt.sum", {}), ("n5", "tt.randn", {"shape": [1]})],
              [("n1", "out", "n3", "a"), ("n2", "out", "n3", "b"), ("n3", "out", "n4", "x")])
    values = evaluate(g)
    assert values.errors["n3"].type == "RuntimeError"
    assert "cannot be multiplied" in values.errors["n3"].message
    assert values.errors["n4"].skipped
    assert str(values.errors["n4"]) == "Skipped: input 'x' comes from Matmul, which failed"  # n3 by its title
    assert values.ok("n5") and values.ok("n1")


def test_unconnected_required_inputs_and_placeholders_are_errors_not_crashes():
    g = build([("n1", "tt.add", {}), ("n2", "tt.optional", {}), ("n3", "tt.tensor", {"tensor": 2.0})],
              [("n3", "out", "n2", "x")])
    g.nodes["n4"] = type(g.nodes["n1"])("n4", "future.widget", {"a": 1})
    values = evaluate(g)
    assert values.errors["n1"].message == "input 'a' is not connected"
    assert values.ok("n2") and values["n2"].item() == 2.0
    assert values.errors["n4"].type == "UnknownNodeType"


def test_multi_output_nodes_expose_each_port():
    g = build([("n1", "tt.tensor", {"tensor": [[1.0], [2.0], [3.0]]}), ("n2", "tt.split", {})],
              [("n1", "out", "n2", "x")])
    values = evaluate(g)
    assert values["n2", "head"].tolist() == [[1.0]]
    assert values["n2", "tail"].tolist() == [[2.0], [3.0]]


def test_random_nodes_are_reproducible_by_seed_and_differ_across_seeds():
    g = build([("n1", "tt.randn", {"shape": [4]}), ("n2", "tt.randn", {"shape": [4]})])
    a, b, c = evaluate(g, seed=1), evaluate(g, seed=1), evaluate(g, seed=2)
    assert a["n1"].tolist() == b["n1"].tolist()
    assert a["n1"].tolist() != c["n1"].tolist()
    assert a["n1"].tolist() != a["n2"].tolist()


def test_node_state_persists_across_calls_when_the_caller_keeps_it():
    g = build([("n1", "tt.counter", {})])
    states = {}
    evaluate(g, states=states)
    assert evaluate(g, states=states)["n1"] == 2
    assert evaluate(g)["n1"] == 1


def test_evaluate_node_steps_one_node_at_a_time():
    g = linear_graph()
    values = Values()
    order = g.topological_order()
    for node_id in order[:4]:
        assert evaluate_node(g, node_id, values, make_context(node_id))
    assert "n5" not in values.outputs and values["n4"].shape == (2, 1)
    assert not evaluate_node(g, "n6", values, make_context("n6"))
    assert "has no value yet" in values.errors["n6"].message or values.errors["n6"].type == "MissingInput"


def test_a_cycle_marks_every_node_instead_of_raising():
    g = build([("n1", "tt.add", {}), ("n2", "tt.add", {})], [("n1", "out", "n2", "a")])
    g.edges.append(type(g.edges[0])("n2", "out", "n1", "a"))  # bypassing the document's cycle check
    values = evaluate(g)
    assert set(values.errors) == {"n1", "n2"} and "cycle" in values.errors["n1"].message
