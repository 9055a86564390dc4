"""Subgraphs: collapse derives typed ports from the boundary, expand restores, undo is exact, values equal."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import GraphError
from core.nodegraph.model.evaluate import evaluate
from tests.nodegraph.graph_helpers import build, linear_graph, tensor_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("tensor_types")


def _edge_set(g):
    return {tuple(e) for e in g.edges}


def test_w_x_plus_b_collapses_into_a_linear_like_block():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"], "Linear")
    c.do(g)
    sub = g.nodes[c.node_id]
    assert sub.type == "graph.subgraph" and sub.title == "Linear"
    assert sub.input_names() == ["W", "x", "b"] and sub.output_names() == ["out"]
    assert [p["kind"] for p in sub.graph["inputs"]] == ["tensor"] * 3
    assert _edge_set(g) == {("n1", "out", c.node_id, "W"), ("n2", "out", c.node_id, "x"),
                            ("n3", "out", c.node_id, "b"), (c.node_id, "out", "n6", "x")}
    assert list(g.nodes) == ["n1", "n2", "n3", c.node_id, "n6"]


def test_collapse_and_expand_undo_restore_the_document_exactly():
    g = linear_graph()
    cmd.AddComment({"text": "group", "nodes": ["n4", "n5"]}).do(g)
    before = g.to_dict()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    collapsed = g.to_dict()
    e = cmd.Expand(c.node_id)
    e.do(g)
    e.undo(g)
    assert g.to_dict() == collapsed
    c.undo(g)
    assert g.to_dict() == before


def test_expand_after_collapse_gives_back_the_same_nodes_and_edges():
    g = linear_graph()
    before = g.to_dict()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    cmd.Expand(c.node_id).do(g)
    assert g.to_dict()["nodes"] == before["nodes"]
    assert _edge_set(g) == {tuple(e) for e in linear_graph().edges}


def test_values_and_gradients_through_a_subgraph_equal_the_expanded_ones():
    plain = evaluate(linear_graph())
    plain["n6"].backward()
    g = linear_graph()
    cmd.Collapse(["n4", "n5"]).do(g)
    values = evaluate(g)
    values["n6"].backward()
    assert values["n6"].item() == plain["n6"].item()
    for leaf in ("n1", "n2", "n3"):
        assert values[leaf].grad.tolist() == plain[leaf].grad.tolist()


def test_random_nodes_inside_a_subgraph_draw_the_same_numbers_as_expanded():
    g = build([("n1", "tt.randn", {"shape": [3]}), ("n2", "tt.randn", {"shape": [3]}), ("n3", "tt.add", {})],
              [("n1", "out", "n3", "a"), ("n2", "out", "n3", "b")])
    expected = evaluate(g, seed=7)["n3"].tolist()
    c = cmd.Collapse(["n2", "n3"])
    c.do(g)
    assert evaluate(g, seed=7)[c.node_id].tolist() == expected


def test_subgraphs_nest_and_survive_a_file_round_trip():
    g = linear_graph()
    inner = cmd.Collapse(["n4"], "MatMul")
    inner.do(g)
    outer = cmd.Collapse([inner.node_id, "n5"], "Linear")
    outer.do(g)
    nested = g.nodes[outer.node_id].graph["nodes"]
    assert [n["type"] for n in nested] == ["graph.subgraph", "tt.add"]
    loaded = files.loads(files.dumps(g))
    assert loaded == g
    assert evaluate(loaded)["n6"].item() == evaluate(linear_graph())["n6"].item()


def test_a_failure_inside_a_subgraph_names_the_inner_node():
    g = build([("n1", "tt.randn", {"shape": [2, 3]}), ("n2", "tt.matmul", {}), ("n3", "tt.sum", {})],
              [("n1", "out", "n2", "a"), ("n1", "out", "n2", "b"), ("n2", "out", "n3", "x")])
    c = cmd.Collapse(["n2", "n3"])
    c.do(g)
    err = evaluate(g).errors[c.node_id]
    assert err.type == "RuntimeError"
    assert "node 'Matmul' (tt.matmul)" in err.message and "cannot be multiplied" in err.message  # by its title


def test_one_outside_source_feeding_two_inner_ports_becomes_one_input():
    g = build([("n1", "tt.tensor", {"tensor": [1.0, 2.0]}), ("n2", "tt.mul", {}), ("n3", "tt.sum", {})],
              [("n1", "out", "n2", "a"), ("n1", "out", "n2", "b"), ("n2", "out", "n3", "x")])
    c = cmd.Collapse(["n2"])
    c.do(g)
    sub = g.nodes[c.node_id]
    assert sub.graph["inputs"] == [{"name": "a", "kind": "tensor", "to": [["n2", "a"], ["n2", "b"]]}]
    assert evaluate(g)["n3"].item() == 5.0


def test_several_outputs_get_distinct_names():
    g = build([("n1", "tt.tensor", {"tensor": [[1.0], [2.0]]}), ("n2", "tt.split", {}),
               ("n3", "tt.sum", {}), ("n4", "tt.sum", {})],
              [("n1", "out", "n2", "x"), ("n2", "head", "n3", "x"), ("n2", "tail", "n4", "x")])
    c = cmd.Collapse(["n1", "n2"])
    c.do(g)
    assert g.nodes[c.node_id].output_names() == ["head", "tail"]
    values = evaluate(g)
    assert (values["n3"].item(), values["n4"].item()) == (1.0, 2.0)


def test_collapsing_a_selection_that_an_outside_path_reenters_is_refused():
    g = build([("n1", "tt.tensor", {"tensor": 1.0}), ("n2", "tt.sum", {}), ("n3", "tt.add", {})],
              [("n1", "out", "n2", "x"), ("n1", "out", "n3", "a"), ("n2", "out", "n3", "b")])
    before = g.to_dict()
    with pytest.raises(GraphError, match="leaves the selection and comes back"):
        cmd.Collapse(["n1", "n3"]).do(g)
    assert g.to_dict() == before


def test_expanding_a_plain_node_is_refused():
    g = linear_graph()
    with pytest.raises(GraphError, match="not a subgraph"):
        cmd.Expand("n4").do(g)


def test_expand_renames_inner_ids_that_clash_with_outer_ones():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    cmd.AddNode({"id": "n4", "type": "tt.tensor", "params": {"tensor": 0.0}}).do(g)
    cmd.Expand(c.node_id).do(g)
    assert len(g.nodes) == 7 and g.nodes["n4"].type == "tt.tensor"
    assert evaluate(g)["n6"].item() == evaluate(linear_graph())["n6"].item()


def test_collapsing_the_loss_node_points_the_loss_at_the_block_and_expand_points_it_back():
    g = linear_graph()
    cmd.SetTraining("loss", "n6").do(g)
    before = g.to_dict()
    c = cmd.Collapse(["n4", "n5", "n6"])
    c.do(g)
    assert g.training["loss"] == c.node_id and g.nodes[c.node_id].output_names() == ["out"]
    e = cmd.Expand(c.node_id)
    e.do(g)
    assert g.training["loss"] == "n6"
    e.undo(g)
    c.undo(g)
    assert g.to_dict() == before


def test_a_session_steps_a_subgraph_like_its_contents():
    from core.nodegraph.run.session import Session

    def run(g):
        cmd.SetTraining("loss", "n6").do(g)
        s = Session(g)
        s.forward()
        s.backward()
        return s.value("n6").item(), [s.grad(n).tolist() for n in ("n1", "n2", "n3")]

    g = linear_graph()
    cmd.Collapse(["n4", "n5"]).do(g)
    assert run(g) == run(linear_graph())


def test_a_subgraph_with_a_layer_inside_trains_like_its_expanded_contents():
    import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
    from core.nodegraph.run.session import Session

    def graph():
        g = build([("n1", "data.dataset", {"batch_size": 16, "shuffle": False}),
                   ("n2", "layer.linear", {"in_features": 2, "out_features": 1, "seed": 3}),
                   ("n3", "shape.squeeze", {}), ("n4", "loss.bce_with_logits", {})],
                  [("n1", "x", "n2", "x"), ("n2", "out", "n3", "x"), ("n3", "out", "n4", "input"),
                   ("n1", "y", "n4", "target")])
        cmd.SetTraining("loss", "n4").do(g)
        cmd.SetTraining("optimizer_params", {"lr": 0.5}).do(g)
        return g

    def losses(g):
        return [m["loss"] for m in Session(g).train(5)]

    g = graph()
    c = cmd.Collapse(["n2", "n3"], "Head")
    c.do(g)
    s = Session(g)
    s.forward()
    assert sorted(s.parameters()) == [f"{c.node_id}.n2.bias", f"{c.node_id}.n2.weight"]
    assert losses(g) == losses(graph())


def test_an_edited_inner_graph_is_evaluated_afresh_with_the_same_state():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    states = {}
    first = evaluate(g, states=states)["n6"].item()
    inner = g.nodes[c.node_id].graph
    inner["nodes"][1]["type"] = "tt.mul"  # an in-place edit of the inner document
    assert evaluate(g, states=states)["n6"].item() != first


def test_expand_that_fails_leaves_the_document_unchanged():
    g = linear_graph()
    c = cmd.Collapse(["n4", "n5"])
    c.do(g)
    g.nodes[c.node_id].graph["nodes"][0]["params"] = {"bogus": 1}
    before = g.to_dict()
    with pytest.raises(GraphError):
        cmd.Expand(c.node_id).do(g)
    assert g.to_dict() == before
