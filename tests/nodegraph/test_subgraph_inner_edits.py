"""An edit of a subgraph's inner graph (``SetNodeAttr(node, "graph", ...)``) is followed as an edit of the same
nodes outside a subgraph: a save before the next run leaves out the weights the edit makes the session rebuild
(a subgraph has no build key of its own: each inner node is judged by its own), undo and redo give the inner
layers their trained weights back, and an inner node the edit dropped takes its parameters with it. Each is
checked against a fresh session of the saved file, or against the same edits of the expanded graph."""

import copy

import numpy as np
import pytest

from core.nodegraph.files import io as files
from core.nodegraph.model.commands import Collapse, SetNodeAttr, SetParam
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _graph(collapsed: bool) -> tuple[Graph, str]:
    g = linear_mse_graph(teacher=True)
    g.training.update(optimizer="Adam", optimizer_params={"lr": 0.05})
    if not collapsed:
        return g, "lin"
    c = Collapse(["lin", "loss"])
    c.do(g)
    return g, c.node_id


def _inner_set(g: Graph, sid: str, node: str, **params) -> SetNodeAttr:
    inner = copy.deepcopy(g.node(sid).graph)
    for nd in inner["nodes"]:
        if nd["id"] == node:
            nd["params"].update(params)
    return SetNodeAttr(sid, "graph", inner)


def _fresh(session: Session, tmp_path) -> Session:
    path = tmp_path / "g.json"
    files.save(session.graph, path, trained=session.trained_values())
    return Session(files.load(path))


def _values(session: Session) -> dict[str, np.ndarray]:
    return {k: t.detach().numpy().copy() for k, t in session.parameters().items()}


@pytest.mark.parametrize("edit", [{"seed": 5}, {"bias": False}])
def test_an_inner_layer_edited_then_saved_before_it_ran_reopens_training_as_the_live_session(edit, tmp_path):
    g, sid = _graph(collapsed=True)
    live = Session(g)
    list(live.train(3))
    _inner_set(g, sid, "lin", **edit).do(g)
    fresh = _fresh(live, tmp_path)  # the live session still holds the weights built for the old parameters
    assert [m["loss"] for m in fresh.train(3)] == [m["loss"] for m in live.train(3)]
    want, got = _values(live), _values(fresh)
    assert got.keys() == want.keys()
    for key in want:
        np.testing.assert_array_equal(got[key], want[key])


@pytest.mark.parametrize("edits", [["do", "train", "undo"], ["do", "train", "undo", "train", "do"],
                                   ["do", "train", "undo", "do", "undo"]])
def test_undo_and_redo_of_an_inner_edit_give_back_the_trained_weights_as_outside_a_subgraph(edits, tmp_path):
    runs = []
    for collapsed in (False, True):
        g, sid = _graph(collapsed)
        s = Session(g)
        losses = [m["loss"] for m in s.train(3)]
        edit = _inner_set(g, sid, "lin", seed=7) if collapsed else SetParam("lin", "seed", 7)
        for step in edits:
            if step == "train":
                losses += [m["loss"] for m in s.train(2)]
            else:
                getattr(edit, step)(g)
        fresh = _fresh(s, tmp_path)
        kept_on = [m["loss"] for m in s.train(2)]
        assert [m["loss"] for m in fresh.train(2)] == kept_on
        runs.append(losses + kept_on)
    np.testing.assert_allclose(runs[1], runs[0], rtol=1e-6)


def test_an_inner_node_the_edit_removes_takes_its_parameters_with_it(tmp_path):
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [8, 4]}))
    g.add_node(Node("y", "source.randn", {"shape": [8, 1]}))
    g.add_node(Node("l1", "layer.linear", {"in_features": 4, "out_features": 1, "seed": 0}))
    g.add_node(Node("l2", "layer.linear", {"in_features": 1, "out_features": 1, "seed": 1}))
    g.add_node(Node("loss", "loss.mse"))
    for e in (("x", "out", "l1", "x"), ("l1", "out", "l2", "x"), ("l2", "out", "loss", "input"),
              ("y", "out", "loss", "target")):
        g.connect(Edge(*e))
    g.training.update(loss="loss", optimizer="Adam", optimizer_params={"lr": 0.05})
    collapse = Collapse(["l1", "l2", "loss"])
    collapse.do(g)
    live = Session(g)
    list(live.train(2))
    inner = copy.deepcopy(g.node(collapse.node_id).graph)
    inner["nodes"] = [nd for nd in inner["nodes"] if nd["id"] != "l2"]
    inner["edges"] = [e for e in inner["edges"] if "l2" not in (e["from"][0], e["to"][0])]
    inner["edges"].append({"from": ["l1", "out"], "to": ["loss", "input"]})
    edit = SetNodeAttr(collapse.node_id, "graph", inner)
    edit.do(g)
    assert "l2" not in str(sorted(live.trained_values()[collapse.node_id]))  # saved before the next run
    list(live.train(1))
    fresh = _fresh(live, tmp_path)
    fresh.forward()
    assert sorted(live.parameters()) == sorted(fresh.parameters())
    edit.undo(g)
    list(live.train(1))
    assert sorted(k.split(".", 1)[1] for k in live.parameters()) == ["l1.bias", "l1.weight", "l2.bias", "l2.weight"]

