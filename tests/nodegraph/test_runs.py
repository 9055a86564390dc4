"""Run bookkeeping, smoothing, decimation, stop conditions, CSV export and the training views, headless."""

import csv
import io
import math

import numpy as np

from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from core.nodegraph.training.runs import Run, RunHistory, StopConditions, decimate, ema
from core.nodegraph.training.trainview import autograd_graph, prediction_view, retune


def _metrics(step, loss, lr=0.1):
    return {"step": step, "loss": loss, "lr": lr, "accuracy": None, "grad_norm": {"w": 1.0},
            "update_ratio": {"w": 0.01}}


def test_ema_starts_at_the_first_value_and_skips_nan():
    out = ema([2.0, math.nan, 2.0], alpha=0.5)
    assert out[0] == 2.0 and out[1] == 2.0 and out[2] == 2.0


def test_decimate_keeps_short_series_and_the_spikes_of_long_ones():
    x = np.arange(10.0)
    assert np.array_equal(decimate(x, x, 100)[0], x)
    x = np.arange(100_000.0)
    y = np.zeros_like(x)
    y[54_321] = 99.0
    y[7] = -5.0
    dx, dy = decimate(x, y, 1000)
    assert len(dx) <= 1100 and np.all(np.diff(dx) > 0)
    assert 99.0 in dy and -5.0 in dy


def test_a_run_keeps_aligned_series_and_a_smoothed_loss():
    h = RunHistory()
    run = h.new_run({"optimizer": "SGD", "optimizer_params": {"lr": 0.1}})
    for i in range(5):
        run.add(_metrics(i, 1.0 / (i + 1)))
    run.add({"step": 5, "loss": 0.1, "lr": 0.1, "grad_norm": {"w": 1.0, "b": 2.0}})
    assert list(run.steps()) == [0, 1, 2, 3, 4, 5]
    assert len(run.series("grad_norm/b")) == 6 and np.isnan(run.series("grad_norm/b")[0])
    assert np.isnan(run.series("update_ratio/w")[5])
    assert run.series("smoothed")[0] == 1.0 and run.series("smoothed")[-1] < 1.0
    assert run.label == "run 1: SGD(lr=0.1)"


def test_reset_keeps_previous_runs_and_csv_lists_every_step_of_every_run():
    h = RunHistory()
    for r in range(2):
        run = h.new_run({"optimizer": "SGD", "optimizer_params": {"lr": 0.1 * (r + 1)}})
        for i in range(3):
            run.add(_metrics(i, 1.0 - 0.1 * i))
    run.mark("lr 0.2 -> 0.3")
    assert [r.number for r in h.runs] == [1, 2] and h.current.markers == [(2, "lr 0.2 -> 0.3")]
    rows = list(csv.DictReader(io.StringIO(h.to_csv())))
    assert len(rows) == 6 and rows[3]["run"] == "2" and rows[3]["step"] == "0"
    assert float(rows[2]["loss"]) == 0.8


def test_stop_conditions_say_why_training_ends():
    stop = StopConditions(loss_below=0.5, patience=2)
    assert stop.check(_metrics(0, 1.0)) is None
    assert "below 0.5" in stop.check(_metrics(1, 0.4))
    stop = StopConditions(patience=2)
    stop.check(_metrics(0, 1.0))
    stop.check(_metrics(1, 1.0))
    assert "no improvement in loss for 2 steps" in stop.check(_metrics(2, 1.0))
    assert "nan" in StopConditions().check(_metrics(3, math.nan))


def test_prediction_view_gives_a_decision_boundary_that_changes_with_training():
    s = Session(classifier_graph("circles"))
    assert prediction_view(s) is None
    list(s.train(1))
    first = prediction_view(s, resolution=20)
    assert first["kind"] == "classification" and first["grid"].shape == (20, 20)
    assert first["X"].shape[1] == 2 and set(np.unique(first["y"])) == {0, 1}
    values = {k: t._data.copy() for k, t in s.parameters().items()}
    list(s.train(50))
    later = prediction_view(s, resolution=20)
    assert not np.allclose(first["grid"], later["grid"])
    assert any(not np.array_equal(values[k], t._data) for k, t in s.parameters().items())


def test_autograd_graph_lists_the_chapter_nodes_with_their_owners():
    s = Session(default_graph())
    s.forward()
    rows = autograd_graph(s)
    names = [r["name"] for r in rows]
    assert names[0] == "AddBackward0" and names.index("SumBackward0") < names.index("MulBackward0")
    assert sorted(names) == sorted(["AddBackward0", "SumBackward0", "MulBackward0"] + ["AccumulateGrad"] * 3)
    mul = rows[names.index("MulBackward0")]
    assert rows[0]["owner"] == "n6" and mul["owner"] == "n4" and mul["saved"]
    assert {rows[i]["name"] for i in mul["next"]} == {"AccumulateGrad"}


def test_retune_changes_the_learning_rate_and_keeps_the_optimizer_state():
    g = classifier_graph(optimizer="Adam", lr=0.01)
    s = Session(g)
    list(s.train(3))
    opt = s.optimizer()
    g.set_training("optimizer_params", {"lr": 0.05})
    assert retune(s)
    assert s.optimizer() is opt and opt.param_groups[0]["lr"] == 0.05
    assert next(s.train(1))["lr"] == 0.05


def test_decimate_keeps_step_order_without_duplicates_and_every_extreme():
    rng = np.random.default_rng(0)
    x = np.arange(10_007.0)
    y = rng.normal(size=x.shape)
    y[::97] = 3.0  # constant stretches make min and max the same sample
    dx, dy = decimate(x, y, 500)
    assert np.all(np.diff(dx) > 0)
    assert np.array_equal(dy, y[dx.astype(int)])
    assert dy.max() == y.max() and dy.min() == y.min()
    assert dx[-1] == x[-1]  # the tail that does not fill a bucket is kept whole


def _reported(step: int) -> dict:
    """Metrics the way a session reports them, with a parameter appearing late and a val loss now and then."""
    grads = {"w": 1.0 / step} | ({"late": float(step)} if step > 4 else {})
    out = {"step": step, "loss": math.nan if step == 3 else 10.0 / step, "lr": 0.1, "accuracy": None,
           "grad_norm": grads, "update_ratio": {"w": 0.01}}
    if step % 4 == 0:
        out["val_loss"] = 1.0 / step
    return out


def test_a_run_reads_the_same_however_its_steps_were_batched():
    history = RunHistory()
    every, once, small = (history.new_run({}) for _ in range(3))
    small.BATCH = 3
    for step in range(1, 12):
        for run in (every, once, small):
            run.add(_reported(step))
        assert len(every.steps()) == step  # a read sees every step added so far
    np.testing.assert_array_equal(once.sparse("val_loss")[0], [4, 8])  # any first read sees the waiting steps
    for run in (once, small):
        assert run.names() == every.names() == ["loss", "lr", "accuracy", "grad_norm/w", "update_ratio/w",
                                                 "grad_norm/late", "val_loss"]
        assert len(run) == 11
        for name in (*every.names(), "smoothed"):
            np.testing.assert_array_equal(run.series(name), every.series(name))
        np.testing.assert_array_equal(run.sparse("val_loss")[0], [4, 8])
    assert np.isnan(every.series("grad_norm/late")[:4]).all() and every.series("grad_norm/late")[4] == 5.0
    assert np.isnan(every.series("accuracy")).all() and every.series("smoothed")[2] == every.series("smoothed")[1]


def test_an_optimizer_switched_mid_run_is_marked_and_named_in_the_label_after_the_first():
    h = RunHistory()
    run = h.new_run({"optimizer": "Adam", "optimizer_params": {"lr": 0.05}})
    for i in range(3):
        run.add(_metrics(i, 1.0))
    run.switch_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.1, "momentum": 0.9}})
    assert run.markers == [(2, "optimizer Adam → SGD")]
    assert run.label == "run 1: Adam(lr=0.05) → SGD(lr=0.1, momentum=0.9)"
    run.switch_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.1, "momentum": 0.9}})  # no change
    assert len(run.markers) == 1
    run.switch_optimizer({"optimizer": "AdamW", "optimizer_params": {"lr": 0.01}})  # before any SGD step: replaces it
    assert run.label == "run 1: Adam(lr=0.05) → AdamW(lr=0.01)"
    run.switch_optimizer({"optimizer": "Adam", "optimizer_params": {"lr": 0.05}})  # back before a step: as it was
    assert run.label == "run 1: Adam(lr=0.05)"
    for name in ("SGD", "RMSprop", "AdamW"):
        run.add(_metrics(len(run), 1.0))
        run.switch_optimizer({"optimizer": name, "optimizer_params": {"lr": 0.1}})
    assert run.label == "run 1: Adam(lr=0.05) → … → AdamW(lr=0.1)"
    assert h.new_run({"optimizer": "SGD", "optimizer_params": {"lr": 0.1}}).label == "run 2: SGD(lr=0.1)"


def test_a_new_learning_rate_is_named_in_the_label_from_the_step_it_took_over():
    h = RunHistory()
    run = h.new_run({"optimizer": "SGD", "optimizer_params": {"lr": 0.1}, "steps": 5})
    for i in range(3):
        run.add(_metrics(i, 1.0))
    run.use_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.1}})  # the same: nothing new
    assert run.label == "run 1: SGD(lr=0.1)"
    run.use_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.5}})
    run.use_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.05}})  # before any step at 0.5: replaces it
    assert run.label == "run 1: SGD(lr=0.1) → SGD(lr=0.05)"
    assert run.markers == []  # the window marks the change with what changed (Trainer.retune)
    run.add(_metrics(3, 1.0))
    run.use_optimizer({"optimizer": "SGD", "optimizer_params": {"lr": 0.1}})  # undone after a step at 0.05
    assert run.label == "run 1: SGD(lr=0.1) → SGD(lr=0.05) → SGD(lr=0.1)"
    assert Run.from_state(run.state()).label == run.label  # a saved run names them too
