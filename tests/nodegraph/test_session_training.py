"""Training through a session: the canonical loop, reproducible, equal to plain core step for step."""

import gc
import tracemalloc

import numpy as np
import pytest

import core
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types, plain_linear  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types")


def _plain_losses(steps, lr=0.01, seed=0):
    """The chapter's loop in plain core: Linear(4, 1), MSE, SGD, random batches from one generator."""
    model = plain_linear()
    opt = core.optim.SGD(model.parameters(), lr=lr)
    g = core.Generator().manual_seed(seed)
    losses = []
    for _ in range(steps):
        x = core.randn(32, 4, generator=g)
        y = core.randn(32, 1, generator=g)
        opt.zero_grad()
        loss = core.nn.functional.mse_loss(model(x), y)
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses, model


def test_train_matches_the_same_model_in_plain_core_step_for_step():
    s = Session(linear_mse_graph(), seed=0)
    metrics = list(s.train(20))
    expected, model = _plain_losses(20)
    assert [m["loss"] for m in metrics] == expected
    np.testing.assert_array_equal(s.parameters()["lin.weight"]._data, model.weight._data)
    np.testing.assert_array_equal(s.parameters()["lin.bias"]._data, model.bias._data)


def test_train_yields_metrics_per_step():
    s = Session(linear_mse_graph())
    m = next(iter(s.train(1)))
    assert m["step"] == 0 and m["lr"] == 0.01 and m["accuracy"] is None and m["no_gradient"] == []
    assert set(m["grad_norm"]) == {"lin.weight", "lin.bias"} and all(v > 0 for v in m["grad_norm"].values())
    assert 0 < m["update_ratio"]["lin.weight"] < 1


def test_train_reproduces_by_seed_and_differs_across_seeds():
    a = [m["loss"] for m in Session(linear_mse_graph(), seed=3).train(5)]
    b = [m["loss"] for m in Session(linear_mse_graph(), seed=3).train(5)]
    c = [m["loss"] for m in Session(linear_mse_graph(), seed=4).train(5)]
    assert a == b and a != c


def test_train_is_cancellable_between_steps():
    s = Session(linear_mse_graph())
    seen = []
    for m in s.train(100):
        seen.append(m["step"])
        if m["step"] == 2:
            s.trainer.cancel()
    assert seen == [0, 1, 2] and s.step_count == 3


def test_manual_steps_equal_a_train_step():
    s1, s2 = Session(linear_mse_graph()), Session(linear_mse_graph())
    for _ in range(3):
        s1.zero_grad()
        s1.forward()
        s1.backward()
        s1.optimizer_step()
    losses = [m["loss"] for m in s2.train(3)]
    assert s1.value("loss").item() == losses[-1]
    np.testing.assert_array_equal(s1.parameters()["lin.weight"]._data, s2.parameters()["lin.weight"]._data)


def test_events_are_emitted_for_each_training_step():
    s = Session(linear_mse_graph())
    seen = []
    s.subscribe(seen.append)
    list(s.train(2))
    assert [e.phase for e in seen] == ["train", "train"] and seen[1].detail["step"] == 1


@pytest.mark.filterwarnings("ignore:Using a target size")
def test_a_forward_error_ends_training_with_the_error_on_the_node():
    g = linear_mse_graph()
    g.set_param("y", "shape", [31, 1])
    s = Session(g)
    metrics = list(s.train(5))
    assert len(metrics) == 1 and metrics[0]["node"] == "loss" and "error" in metrics[0]


def test_ten_thousand_training_steps_keep_memory_flat():
    s = Session(linear_mse_graph(batch=4, n_in=2))
    for _ in s.train(9000):
        pass
    gc.collect()
    tracemalloc.start()
    try:
        for _ in s.train(300):
            pass
        gc.collect()
        mid, _ = tracemalloc.get_traced_memory()
        for _ in s.train(700):
            pass
        gc.collect()
        end, _ = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert s.step_count == 10_000
    assert end - mid < 16 * 1024, (mid, end)  # a leak of one small tensor per step would be > 50 KiB


def test_each_training_step_takes_its_gradients_from_backward_and_its_update_from_the_optimizer(monkeypatch):
    s = Session(linear_mse_graph())
    list(s.train(1))  # builds the layer and the optimizer
    calls = []
    backward, step = core.Tensor.backward, core.optim.SGD.step
    monkeypatch.setattr(core.Tensor, "backward", lambda t, *a, **k: calls.append("backward") or backward(t, *a, **k))
    monkeypatch.setattr(core.optim.SGD, "step", lambda o, *a, **k: calls.append("step") or step(o, *a, **k))
    list(s.train(3))
    assert calls == ["backward", "step"] * 3
    assert s.ledger.contributions("lin.weight")[0].backward_call == 1


def test_stepping_after_training_runs_the_engine_node_by_node():
    s = Session(linear_mse_graph())
    list(s.train(3))
    s.zero_grad()
    s.forward()
    assert s.value("loss").grad_fn is not None
    s.backward()
    assert s.inspector.port_info("lin", "weight").grad is not None and s.ledger.contributions("lin.weight")


def test_accuracy_is_reported_for_a_classifier_on_a_dataset():
    from benchmarks.bench_session import classifier_graph

    metrics = list(Session(classifier_graph(0)).train(300))
    assert metrics[0]["accuracy"] is not None and 0 <= metrics[0]["accuracy"] <= 1
    assert metrics[-1]["accuracy"] > 0.8 and metrics[-1]["loss"] < metrics[0]["loss"]


def test_a_graph_fed_by_a_fresh_batch_each_step_trains():
    losses = [m["loss"] for m in Session(linear_mse_graph(teacher=True)).train(30)]
    assert losses == [m["loss"] for m in Session(linear_mse_graph(teacher=True)).train(30)]
    assert losses[-1] < losses[0]


def test_training_a_graph_without_parameters_says_where_parameters_come_from(node_types):  # noqa: F811
    from core.nodegraph.files.examples import default_graph

    step = next(Session(default_graph()).train(1))  # the chapter's graph: x, w, b are Tensor nodes
    error = step["error"]
    assert error.phase == "optimizer" and error.type == "RuntimeError"
    assert "Parameter and layer nodes make them" in error.message and "a tensor node is not trained" in error.message
