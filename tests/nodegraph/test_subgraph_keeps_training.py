"""Collapsing trained nodes into a subgraph, or expanding one, keeps their trained weights and optimizer state.

A model trained for a few steps, then collapsed (or expanded, undone, redone, saved and reopened), trains on with
exactly the numbers, bit for bit, that the same model trained on without the edit gives: the layers are not built
again from their seeds and Adam's moments and step counts carry on.
"""

from __future__ import annotations

import numpy as np
import pytest

import core.nodegraph.model.nodes  # noqa: F401 - the built-in node types
from core.nodegraph.files import io as files
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph
from core.nodegraph.run.session import Session

GROUP = ["lin", "w", "mul"]  # a layer, a parameter node and what joins them


def layered_graph() -> Graph:
    """x [8, 3] -> Linear(3, 2) -> * w (a parameter [2]) -> MSE against y (no training settings)."""
    g = Graph()
    for node in ({"id": "x", "type": "source.randn", "params": {"shape": [8, 3], "seed": 1}},
                 {"id": "y", "type": "source.randn", "params": {"shape": [8, 2], "seed": 2}},
                 {"id": "lin", "type": "layer.linear", "params": {"in_features": 3, "out_features": 2, "seed": 4}},
                 {"id": "w", "type": "param.parameter", "params": {"shape": [2], "seed": 3}},
                 {"id": "mul", "type": "math.mul"}, {"id": "loss", "type": "loss.mse"}):
        cmd.AddNode(node).do(g)
    for edge in (("x", "out", "lin", "x"), ("lin", "out", "mul", "a"), ("w", "out", "mul", "b"),
                 ("mul", "out", "loss", "input"), ("y", "out", "loss", "target")):
        cmd.Connect(*edge).do(g)
    return g


def model() -> Graph:
    """``layered_graph`` trained with Adam."""
    g = layered_graph()
    for key, value in (("loss", "loss"), ("optimizer", "Adam"), ("optimizer_params", {"lr": 0.05})):
        cmd.SetTraining(key, value).do(g)
    return g


def losses(s: Session, steps: int) -> list[float]:
    return [m["loss"] for m in s.train(steps)]


def weights(s: Session) -> list[np.ndarray]:
    """The trained values in the optimizer's order (names differ inside a subgraph: ``n7.lin.weight``)."""
    return [t.detach().numpy().copy() for t in s.parameters().values()]


def moments(s: Session) -> list[np.ndarray]:
    """Adam's state of every parameter, in parameter order."""
    state = s.optimizer().state
    return [np.asarray(v.detach().numpy() if hasattr(v, "detach") else v)
            for t in s.parameters().values() for _, v in sorted(state[t].items())]


def same(a: list[np.ndarray], b: list[np.ndarray]) -> bool:
    return len(a) == len(b) and all(x.dtype == y.dtype and np.array_equal(x, y) for x, y in zip(a, b))


@pytest.fixture
def reference() -> tuple[list[float], list[np.ndarray], list[np.ndarray]]:
    """Eight steps without any edit: the losses of the last five, the weights and Adam's state after them."""
    s = Session(model())
    got = losses(s, 8)[3:]
    return got, weights(s), moments(s)


def trained(steps: int = 3) -> tuple[Graph, Session]:
    g = model()
    s = Session(g)
    losses(s, steps)
    return g, s


def assert_trains_on_like(s: Session, reference: tuple[list[float], list[np.ndarray], list[np.ndarray]]) -> None:
    expected, expected_weights, expected_moments = reference
    assert losses(s, 5) == expected
    assert same(weights(s), expected_weights)
    assert same(moments(s), expected_moments)


@pytest.mark.parametrize("group", [GROUP, ["lin"], ["w", "mul", "loss"], ["lin", "w", "mul", "loss"]])
def test_training_on_after_a_collapse_gives_the_numbers_of_training_on_without_it(reference, group):
    g, s = trained()
    cmd.Collapse(group).do(g)
    assert_trains_on_like(s, reference)


def test_a_collapse_keeps_the_optimizer_and_names_its_parameters_inside_the_subgraph():
    g, s = trained()
    before = s.optimizer()
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    losses(s, 1)
    assert s.optimizer() is before
    assert sorted(s.parameters()) == sorted(f"{collapse.node_id}.{k}" for k in ("lin.weight", "lin.bias", "w.w"))


def test_expanding_a_trained_subgraph_trains_on_as_before(reference):
    g, s = trained(2)
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    losses(s, 1)
    cmd.Expand(collapse.node_id).do(g)
    assert_trains_on_like(s, reference)


def test_an_expand_that_renames_a_clashing_inner_id_keeps_that_nodes_weights(reference):
    g, s = trained()
    collapse = cmd.Collapse(["lin"])
    collapse.do(g)
    cmd.AddNode({"id": "lin", "type": "source.randn", "params": {"shape": [2]}}).do(g)  # takes the inner id
    expand = cmd.Expand(collapse.node_id)
    expand.do(g)
    assert "lin" not in expand.added
    assert_trains_on_like(s, reference)


@pytest.mark.parametrize("redo", [False, True])
def test_undo_and_redo_of_a_collapse_after_training_inside_keep_training_alike(reference, redo):
    g, s = trained(2)
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    losses(s, 1)
    collapse.undo(g)
    if redo:
        collapse.do(g)
    assert_trains_on_like(s, reference)


@pytest.mark.parametrize("redo", [False, True])
def test_undo_and_redo_of_an_expand_keep_training_alike(reference, redo):
    g, s = trained(1)
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    losses(s, 1)
    expand = cmd.Expand(collapse.node_id)
    expand.do(g)
    losses(s, 1)
    expand.undo(g)
    if redo:
        expand.do(g)
    assert_trains_on_like(s, reference)


def test_a_collapsed_model_saved_and_reopened_trains_on_like_the_live_one(reference):
    g, s = trained()
    cmd.Collapse(GROUP).do(g)
    reopened = Session(files.loads(files.dumps(g, trained=s.trained_values())))
    assert_trains_on_like(reopened, reference)
    assert_trains_on_like(s, reference)


def test_a_reopened_trained_file_collapsed_before_it_runs_trains_on_from_its_saved_state(reference):
    g, s = trained()
    opened = files.loads(files.dumps(g, trained=s.trained_values()))
    fresh = Session(opened)
    collapse = cmd.Collapse(GROUP)
    collapse.do(opened)
    assert_trains_on_like(fresh, reference)
    cmd.Expand(collapse.node_id).do(opened)
    again = files.loads(files.dumps(opened, trained=fresh.trained_values()))
    assert losses(Session(again), 3) == losses(fresh, 3)


def test_a_collapse_orders_the_inner_nodes_once(monkeypatch):
    """Ordering the inner nodes builds a Graph of them (a few ms for a 200-node group): one build per collapse."""
    from core.nodegraph.run import regrouping
    calls = []
    real = regrouping._inner_order
    monkeypatch.setattr(regrouping, "_inner_order", lambda inner: calls.append(1) or real(inner))
    g, s = trained(1)
    collapse = cmd.Collapse(GROUP)
    collapse.do(g)
    assert len(calls) == 1
    assert sorted(s.parameters()) == sorted(f"{collapse.node_id}.{k}" for k in ("lin.weight", "lin.bias", "w.w"))
