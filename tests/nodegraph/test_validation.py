"""Validation reports what is wrong per node, with a clear message, and never runs the graph."""

import pytest

from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Edge, Node
from core.nodegraph.model.validation import validate
from tests.nodegraph.graph_helpers import build, linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")


def _kinds(issues):
    return {node: [i.kind for i in found] for node, found in issues.items()}


def test_a_complete_graph_has_no_issues():
    assert validate(linear_graph()) == {}


def test_missing_required_inputs_are_reported_per_port_and_optional_ones_are_not():
    g = build([("n1", "tt.add", {}), ("n2", "tt.optional", {})])
    issues = validate(g)
    assert [i.message for i in issues["n1"]] == ["required input 'a' is not connected",
                                                 "required input 'b' is not connected"]
    assert [i.field for i in issues["n2"]] == ["x"]


def test_an_unknown_node_type_is_reported_as_a_placeholder():
    g = linear_graph()
    g.nodes["n9"] = Node("n9", "future.widget", {"k": 1})
    issue, = validate(g)["n9"]
    assert issue.kind == "unknown_type" and "future.widget" in issue.message and "placeholder" in issue.message


def test_bad_parameter_values_are_reported_naming_the_parameter():
    g = build([("n1", "tt.mixed", {})])
    g.nodes["n1"].params["i"] = 500  # bypassing set_param's check, as an edited file could
    issue, = validate(g)["n1"]
    assert issue.kind == "bad_param" and issue.message == "parameter 'i' must be <= 100, got 500"


def test_edges_to_unknown_ports_and_missing_nodes_are_reported():
    g = linear_graph()
    g.edges.append(Edge("n1", "nope", "n6", "zz"))
    g.edges.append(Edge("n77", "out", "n5", "q"))
    kinds = _kinds(validate(g))
    assert kinds["n6"] == ["unknown_port", "unknown_port"]
    assert "dangling_edge" in kinds["n5"]


def test_two_edges_into_one_input_are_reported():
    g = linear_graph()
    g.edges.append(Edge("n2", "out", "n5", "b"))
    assert "duplicate_input" in _kinds(validate(g))["n5"]


def test_a_cycle_is_reported_on_its_edges():
    g = build([("n1", "tt.sum", {}), ("n2", "tt.sum", {})], [("n1", "out", "n2", "x")])
    g.edges.append(Edge("n2", "out", "n1", "x"))
    issues = validate(g)
    assert any(i.kind == "cycle" and "n2.out -> n1.x" in i.message for i in issues["n1"])


def test_problems_inside_a_subgraph_are_reported_on_the_subgraph_node():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    assert validate(g) == {}
    g.nodes[c.node_id].graph["nodes"][0]["type"] = "future.matmul"
    issue, = validate(g)[c.node_id]
    assert issue.kind == "unknown_type" and issue.message.startswith("inside the subgraph, node 'n4'")


def test_an_unconnected_subgraph_input_is_a_missing_input():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    cmd.RemoveNodes(["n1"]).do(g)
    issue, = validate(g)[c.node_id]
    assert issue.kind == "missing_input" and issue.field == "W"


def test_a_training_loss_that_names_a_deleted_node_is_reported():
    g = linear_graph()
    cmd.SetTraining("loss", "n6").do(g)
    cmd.RemoveNodes(["n6"]).do(g)
    issue, = validate(g)["training"]
    assert issue.kind == "bad_training" and "'n6'" in issue.message
