"""Training through the autograd engine with the session's per-step plans (core.nodegraph.run.lean): edits,
resets and device changes between ``train`` calls are honoured; leaves, errors and the ledger stay right."""

import copy

import numpy as np
import pytest

import core
from core.nodegraph.model.document import Edge, Node
from core.nodegraph.model.nodes.data import batch_rows
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")
F = core.nn.functional


def _classifier(batch=32, shuffle=False):
    from benchmarks.bench_session import classifier_graph  # needs the node types

    g = classifier_graph(batch)
    g.set_param("data", "shuffle", shuffle)
    return g


def _plain_classifier_losses(s, steps, batch, shuffle, scale=None):
    """The classifier's loop in plain core from a copy of the session's module (batches from batch_rows)."""
    model = copy.deepcopy(s.states["mlp"]["module"])
    opt = core.optim.SGD(model.parameters(), lr=0.1)
    ds = core.datasets.moons(n_samples=200, noise=0.1, seed=0)
    losses = []
    for step in range(s.step_count, s.step_count + steps):
        rows = batch_rows(len(ds), batch, step, 0, shuffle)
        x, y = ds.X[rows], ds.y[rows]
        opt.zero_grad()
        out = model(x) if scale is None else model(x) * scale
        loss = F.binary_cross_entropy_with_logits(out, (y * core.tensor(1.0)).unsqueeze(1))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


@pytest.mark.parametrize("shuffle", [False, True])
def test_engine_training_of_the_classifier_equals_plain_core_step_for_step(shuffle):
    s = Session(_classifier(32, shuffle))
    list(s.train(1))
    expected = _plain_classifier_losses(s, 14, 32, shuffle)  # 14 steps cross an epoch of 7 batches
    assert [m["loss"] for m in s.train(14)] == expected


def test_the_dataset_batch_is_a_copy_with_the_rows_of_batch_rows():
    s = Session(_classifier(32, shuffle=True))
    list(s.train(9))
    ds = core.datasets.moons(n_samples=200, noise=0.1, seed=0)
    rows = batch_rows(200, 32, 8, 0, True)
    x = s.value("data", "x")
    np.testing.assert_array_equal(x._data, ds.X[rows]._data)
    assert x.is_contiguous() and x._base is None and s.value("data", "y").dtype == core.int64


def test_a_parameter_set_between_train_calls_is_used_by_the_next_step():
    g = _classifier()
    s = Session(g)
    list(s.train(2))
    g.set_param("data", "batch_size", 16)
    list(s.train(1))
    assert s.value("data", "x").shape == (16, 2)
    s.graph.nodes["data"].params["batch_size"] = 8  # replaced without an event: the plan notices
    list(s.train(1))
    assert s.value("data", "x").shape == (8, 2)


def test_a_node_connected_between_train_calls_is_part_of_the_next_steps():
    g = _classifier()
    s = Session(g)
    list(s.train(3))
    g.add_node(Node("two", "source.tensor", {"tensor": 2.0}))
    g.add_node(Node("scale", "math.mul"))
    g.connect(Edge("mlp", "out", "scale", "a"))
    g.connect(Edge("two", "out", "scale", "b"))
    g.disconnect(g.edge_into("loss", "input"))
    g.connect(Edge("scale", "out", "loss", "input"))
    expected = _plain_classifier_losses(s, 3, 32, False, scale=core.tensor(2.0))
    assert [m["loss"] for m in s.train(3)] == expected


def test_reset_between_train_calls_starts_again_from_the_seed():
    s = Session(_classifier())
    first = [m["loss"] for m in s.train(4)]
    s.reset()
    assert [m["loss"] for m in s.train(4)] == first


def test_a_device_change_between_train_calls_reaches_the_nodes():
    s = Session(_classifier())
    list(s.train(2))
    s.device = "cuda" if not core.cuda.is_available() else "cpu"
    m = list(s.train(2))
    if s.device == "cuda":  # no GPU here: the batch's move fails on its node, training stops
        assert len(m) == 1 and m[0]["node"] == "data" and "CUDA" in m[0]["error"].message
    s.device = "cpu"
    m = list(s.train(2))
    assert [x.get("error") for x in m] == [None, None] and s.value("mlp").device.type == "cpu"


def test_a_leaf_made_anew_each_step_replaces_last_steps_leaf():
    g = linear_mse_graph()
    g.set_param("x", "requires_grad", True)
    s = Session(g)
    list(s.train(3))
    leaves = s.leaves()
    assert set(leaves) == {"x.out", "lin.weight", "lin.bias"} and leaves["x.out"] is s.value("x")
    assert leaves["x.out"].grad is not None and len(s.ledger.contributions("x.out")) == 1


def test_retain_grad_nodes_keep_grads_in_engine_training():
    s = Session(_classifier())
    list(s.train(1))
    s.retain_grad_nodes = {"mlp"}
    list(s.train(1))
    assert s.value("mlp").grad is not None and s.value("mlp").grad.shape == (32, 1)


def test_an_upstream_error_stops_training_on_that_node_and_skips_its_consumers():
    g = linear_mse_graph()
    s = Session(g)
    list(s.train(2))
    g.set_param("x", "shape", [32, 3])
    m = list(s.train(3))
    assert len(m) == 1 and m[0]["node"] == "lin" and m[0]["error"].type == "RuntimeError"
    assert "loss" in s.errors and s.errors["loss"].type == "Skipped"


def test_the_ledger_of_a_training_step_holds_each_gradient_once():
    s = Session(_classifier())
    list(s.train(3))
    for key, t in s.parameters().items():
        (c,) = s.ledger.contributions(key)
        np.testing.assert_array_equal(c.grad, t.grad._data)
        assert c.backward_call == 1 and c.grad.dtype == t.grad._data.dtype
        assert s.ledger.running_sum(key) is c.total
    s.zero_grad()
    assert s.ledger.entries == {}


def test_a_train_1_loop_gives_the_losses_of_one_long_train():
    a, b = Session(_classifier()), Session(_classifier())
    assert [next(iter(a.train(1)))["loss"] for _ in range(4)] == [m["loss"] for m in b.train(4)]


def test_constants_are_reused_across_engine_steps_and_what_a_fresh_batch_feeds_is_not():
    s = Session(linear_mse_graph(teacher=True))
    list(s.train(1))
    w_true, y = s.value("w_true"), s.value("y")
    list(s.train(1))
    assert s.value("w_true") is w_true and "y" not in s._static.cache
    assert s.value("y") is not y and not np.array_equal(s.value("y")._data, y._data)


@pytest.mark.parametrize("settings", [{}, {"optimizer": "NoSuchOptimizer"}, {"optimizer_params": {"lr": -1.0}}])
def test_training_with_nothing_to_train_or_a_bad_optimizer_setting_ends_with_an_error_not_an_exception(settings):
    from tests.nodegraph.session_graphs import chapter_graph

    g = linear_mse_graph() if settings else chapter_graph()  # the chapter's graph has leaves but no parameters
    g.training.update(settings)
    s = Session(g)
    metrics = list(s.train(5))
    assert len(metrics) == 1 and metrics[0]["step"] == 0 and metrics[0]["node"] is None
    error = metrics[0]["error"]
    assert error.phase == "optimizer" and error.message
    assert s.step_count == 0  # no optimizer step was counted


def test_a_loss_node_that_gives_no_scalar_ends_training_with_pytorchs_message():
    g = _classifier()
    g.training["loss"] = next(nid for nid, n in g.nodes.items() if n.type.startswith("layer."))  # the logits
    metrics = list(Session(g).train(3))
    assert len(metrics) == 1 and metrics[0]["loss"] is None and metrics[0]["node"] == g.training["loss"]
    assert "grad can be implicitly created only for scalar outputs" in str(metrics[0]["error"])
