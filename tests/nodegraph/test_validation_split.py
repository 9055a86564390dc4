"""A dataset node's validation split: which rows it holds out, and the val_loss/val_accuracy that training
measures on them every ``val_every`` steps without changing anything about the training itself."""

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import core
import core.nn.functional as F
from core import datasets
from core.nodegraph.export.script import export_script
from core.nodegraph.files import io as files
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.commands import SetTraining
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.model.nodes.data import batch_rows, split_parts
from core.nodegraph.run.session import Session
from core.nodegraph.training import holdout
from core.nodegraph.training.runs import RunHistory
from tests.nodegraph.test_export import classifier_graph as export_graph
from tests.nodegraph.test_export import session_run

N, FRACTION = 300, 0.2


def split_classifier(val_every=None, fraction=FRACTION, steps=30) -> Graph:
    """The toy classifier (spiral, MLP 2-16-16-2, cross entropy, Adam) with a split on its dataset."""
    g = classifier_graph(steps=steps)
    g.nodes["n1"].params["val_fraction"] = fraction
    if val_every is not None:
        g.set_training("val_every", val_every)
    return g


def regression_graph(fraction=0.25) -> Graph:
    """sine -> MLP -> MSE with plain SGD."""
    g = Graph()
    g.add_node(Node("data", "data.dataset", {"generator": "sine", "n_samples": 80, "batch_size": 16, "seed": 3,
                                             "val_fraction": fraction}))
    g.add_node(Node("mlp", "layer.mlp", {"sizes": [1, 8, 1], "activation": "tanh", "seed": 1}))
    g.add_node(Node("loss", "loss.mse", {}))
    g.connect(Edge("data", "x", "mlp", "x"))
    g.connect(Edge("mlp", "out", "loss", "input"))
    g.connect(Edge("data", "y", "loss", "target"))
    g.training.update(loss="loss", optimizer="SGD", optimizer_params={"lr": 0.1}, steps=20)
    return g


def held_out_rows(fraction=FRACTION, seed=0):
    """The validation rows of the toy classifier's dataset, computed with core.datasets directly."""
    ds = datasets.spiral(n_samples=N, noise=0.1, seed=seed)
    return ds, ds.split(fraction, seed)


def rows_of(x) -> set:
    return {tuple(r) for r in np.asarray(x._data).tolist()}


def plain_params(s: Session) -> dict:
    return {k: t._data.copy() for k, t in s.parameters().items()}


def without_val(metrics: dict) -> dict:
    return {k: v for k, v in metrics.items() if not k.startswith("val_")}


# ----- the split ------------------------------------------------------------------------------------------
def test_the_split_holds_out_the_rounded_fraction_and_keeps_the_rest_for_training():
    ds, _ = held_out_rows()
    X, y, val_x, val_y = split_parts(ds, 0.2, 0)
    assert (len(X), len(val_x)) == (240, 60) and (len(y), len(val_y)) == (240, 60)
    assert not rows_of(X) & rows_of(val_x) and len(rows_of(X) | rows_of(val_x)) == N
    X1, _, v1, _ = split_parts(ds, 0.1, 0)
    assert (len(X1), len(v1)) == (270, 30)


def test_the_split_is_the_same_for_the_same_seed_and_differs_for_another():
    ds, _ = held_out_rows()
    a, b, c = split_parts(ds, 0.2, 0)[2], split_parts(ds, 0.2, 0)[2], split_parts(ds, 0.2, 1)[2]
    assert np.array_equal(a._data, b._data) and rows_of(a) != rows_of(c)


def test_no_split_gives_the_whole_dataset_for_training():
    ds, _ = held_out_rows()
    X, y, val_x, val_y = split_parts(ds, 0.0, 0)
    assert X is ds.X and y is ds.y and val_x is None and val_y is None


def test_a_split_that_leaves_no_training_row_is_an_error_on_the_node():
    g = Graph()
    g.add_node(Node("d", "data.dataset", {"generator": "moons", "n_samples": 2, "val_fraction": 0.9}))
    s = Session(g)
    s.forward()
    assert "val_fraction" in s.errors["d"].message


def test_val_fraction_is_bounded_like_any_parameter():
    g = classifier_graph()
    g.nodes["n1"].params["val_fraction"] = 0.95
    s = Session(g)
    s.forward()
    assert "val_fraction" in s.errors["n1"].message


# ----- training batches and validation ----------------------------------------------------------------------
def test_training_batches_never_contain_validation_rows():
    ds, (train, val) = held_out_rows()
    val_rows = rows_of(ds.X[core.tensor(val.indices)])
    train_rows = rows_of(ds.X[core.tensor(train.indices)])
    s = Session(split_classifier(steps=12))
    seen = set()
    for _ in range(12):  # 240 training rows in batches of 64: more than two epochs
        next(s.train(1))
        batch = rows_of(s.values["n1"]["x"])
        assert batch <= train_rows and not batch & val_rows
        seen |= batch
    assert seen == train_rows


def test_val_loss_and_accuracy_equal_a_plain_core_evaluation_on_the_held_out_rows():
    s = Session(split_classifier(steps=10))
    last = list(s.train(10))[-1]
    ds, (_, val) = held_out_rows()
    rows = core.tensor(val.indices)
    x, y = ds.X[rows], ds.y[rows]
    p = s.parameters()
    with core.no_grad():
        h = core.tanh(F.linear(x, p["n2.0.weight"], p["n2.0.bias"]))
        h = core.tanh(F.linear(h, p["n2.2.weight"], p["n2.2.bias"]))
        logits = F.linear(h, p["n2.4.weight"], p["n2.4.bias"])
        loss = F.cross_entropy(logits, y)
    assert last["step"] == 9
    np.testing.assert_allclose(last["val_loss"], loss.item(), rtol=1e-6)
    assert last["val_accuracy"] == (logits.argmax(1) == y).sum().item() / len(y)


def test_validation_is_measured_every_val_every_steps_and_on_the_last_step():
    steps = [m["step"] for m in Session(split_classifier(val_every=4, steps=30)).train(10) if "val_loss" in m]
    assert steps == [3, 7, 9]
    g = split_classifier(val_every=7, steps=12)  # the app trains one step per call: the setting's last step counts
    s = Session(g)
    steps = [m["step"] for _ in range(12) for m in s.train(1) if "val_loss" in m]
    assert steps == [6, 11]
    assert holdout.val_every(classifier_graph()) == holdout.DEFAULT_VAL_EVERY == 10


def test_val_every_zero_and_graphs_without_a_split_add_no_val_metrics():
    assert not any(k.startswith("val_") for m in Session(split_classifier(val_every=0)).train(20) for k in m)
    assert not any(k.startswith("val_") for m in Session(classifier_graph()).train(20) for k in m)


def test_training_with_validation_is_identical_to_training_without_it():
    a, b = Session(split_classifier(steps=25)), Session(split_classifier(val_every=0, steps=25))
    ma, mb = list(a.train(25)), list(b.train(25))
    assert sum("val_loss" in m for m in ma) == 3
    assert [without_val(m) for m in ma] == mb
    pa, pb = plain_params(a), plain_params(b)
    assert all(np.array_equal(pa[k], pb[k]) for k in pb)
    assert a.generator.get_state().tolist() == b.generator.get_state().tolist()
    assert [without_val(m) for m in a.train(5)] == list(b.train(5))  # the optimizer state went on alike


def test_training_with_a_split_reproduces_by_seed():
    first = list(Session(split_classifier(steps=20)).train(20))
    again = list(Session(split_classifier(steps=20)).train(20))
    assert first == again and "val_loss" in first[-1]


def test_a_regression_is_validated_too_and_validation_changes_no_training_number():
    a, b = Session(regression_graph()), Session(regression_graph())
    b.graph.set_training("val_every", 0)
    ma, mb = list(a.train(20)), list(b.train(20))
    assert [m["step"] for m in ma if "val_loss" in m] == [9, 19] and "val_accuracy" not in ma[-1]
    assert [without_val(m) for m in ma] == mb
    ds = datasets.sine(n_samples=80, noise=0.1, seed=3)
    _, _, vx, vy = split_parts(ds, 0.25, 3)
    with core.no_grad():
        want = F.mse_loss(a.states["mlp"]["module"](vx), vy).item()
    np.testing.assert_allclose(ma[-1]["val_loss"], want, rtol=1e-6)


def test_validation_leaves_values_ledger_generator_autograd_and_modes_untouched():
    s = Session(split_classifier(val_every=0))
    list(s.train(3))
    loss = s.values["n3"]["out"]
    values = {nid: dict(out) for nid, out in s.values.items()}
    before = (s.step_count, s.generator.get_state().tolist(), s.ledger.state(), dict(s.ownership.owner),
              s.states["n2"]["module"].training, loss.grad_fn)
    out = holdout.validate(s)
    assert set(out) == {"val_loss", "val_accuracy"}
    assert {nid: dict(o) for nid, o in s.values.items()} == values and all(
        s.values[n][p] is v for n, o in values.items() for p, v in o.items())
    after = (s.step_count, s.generator.get_state().tolist(), s.ledger.state(), dict(s.ownership.owner),
             s.states["n2"]["module"].training, loss.grad_fn)
    assert after == before and not s.errors
    s.backward()  # the last step's autograd graph is still there to step through
    assert s.parameters()["n2.0.weight"].grad is not None


def test_a_failed_validation_is_reported_and_training_goes_on():
    g = split_classifier(val_every=5, steps=10)
    g.add_node(Node("one", "source.tensor", {"tensor": 1.0}))
    g.add_node(Node("mul", "inplace.mul_", {}))  # an in-place node before the loss: validation refuses it
    g.disconnect(g.inputs_of("n3")["input"])
    g.connect(Edge("n2", "out", "mul", "x"))
    g.connect(Edge("one", "out", "mul", "other"))
    g.connect(Edge("mul", "out", "n3", "input"))
    metrics = list(Session(g).train(10))
    assert len(metrics) == 10 and "in-place" in metrics[4]["val_error"] and "val_loss" not in metrics[4]


def test_the_data_view_marks_the_held_out_points():
    from core.nodegraph.training.trainview import prediction_view

    s = Session(split_classifier(steps=2))
    list(s.train(2))
    view = prediction_view(s, resolution=8)
    _, (_, val) = held_out_rows()
    assert view["held_out"].sum() == 60 and np.flatnonzero(view["held_out"]).tolist() == sorted(val.indices)
    s = Session(classifier_graph())
    list(s.train(1))
    assert not prediction_view(s, resolution=8)["held_out"].any()


# ----- runs and files ---------------------------------------------------------------------------------------
def test_runs_keep_val_series_sparse_and_the_csv_has_their_columns():
    h = RunHistory()
    run = h.new_run({"optimizer": "Adam"})
    for m in Session(split_classifier(val_every=5)).train(12):
        run.add(m)
    steps, values = run.sparse("val_loss")
    assert steps.tolist() == [4, 9, 11] and np.isfinite(values).all()
    assert run.sparse("val_accuracy")[0].tolist() == [4, 9, 11] and run.sparse("nothing")[0].size == 0
    dense = run.series("val_loss")
    assert len(dense) == 12 and np.isnan(dense[0]) and dense[4] == values[0]
    rows = list(csv.DictReader(io.StringIO(h.to_csv())))
    assert {"val_loss", "val_accuracy", "loss"} <= set(rows[0])
    assert rows[0]["val_loss"] == "" and float(rows[4]["val_loss"]) == values[0]


OLD_FILE = {
    "format": "nodegrad-graph", "version": 2, "app_version": "0.1.0",
    "node_types": {"data.dataset": 1, "layer.mlp": 1, "loss.cross_entropy": 1},
    "nodes": [{"id": "d", "type": "data.dataset", "params": {"generator": "moons", "n_samples": 40, "batch_size": 8,
                                                              "seed": 2}, "position": [0, 0]},
              {"id": "m", "type": "layer.mlp", "params": {"sizes": [2, 4, 2], "seed": 1}, "position": [200, 0]},
              {"id": "l", "type": "loss.cross_entropy", "params": {}, "position": [400, 0]}],
    "edges": [{"from": ["d", "x"], "to": ["m", "x"]}, {"from": ["m", "out"], "to": ["l", "input"]},
              {"from": ["d", "y"], "to": ["l", "target"]}],
    "training": {"loss": "l", "optimizer": "SGD", "optimizer_params": {"lr": 0.1}, "steps": 12},
}


def test_an_old_file_without_the_split_loads_saves_and_trains_as_before():
    g = files.loads(json.dumps(OLD_FILE))
    assert g.nodes["d"].params["val_fraction"] == 0.0 and "val_every" not in files.dumps(g)
    assert json.loads(files.dumps(g))["node_types"]["data.dataset"] == 2  # migrated from version 1
    s = Session(g)
    ds = datasets.moons(n_samples=40, noise=0.1, seed=2)
    for step in range(12):
        m = next(s.train(1))
        assert not any(k.startswith("val_") for k in m)
        want = ds.X[batch_rows(40, 8, step, 2, True)]
        assert np.array_equal(s.values["d"]["x"]._data, want._data)


def test_val_every_is_a_saved_undoable_training_setting():
    g = split_classifier()
    text = files.dumps(g)
    cmd = SetTraining("val_every", 3)
    cmd.do(g)
    assert json.loads(files.dumps(g))["training"]["val_every"] == 3
    assert files.loads(files.dumps(g)).training["val_every"] == 3
    cmd.undo(g)
    assert files.dumps(g) == text


def test_a_bad_val_every_in_a_file_is_refused_with_the_field_named():
    bad = {**OLD_FILE, "training": {**OLD_FILE["training"], "val_every": -1}}
    with pytest.raises(files.LoadError, match="training.val_every"):
        files.loads(json.dumps(bad))


# ----- export -------------------------------------------------------------------------------------------------
def run_exported(text: str, tmp_path, accuracy: bool = False) -> tuple:
    """What an exported script prints, parsed like ``test_export.run_script``, and its ``val_loss`` lines (and,
    with ``accuracy``, its ``val_accuracy`` lines as a third item)."""
    path = tmp_path / "exported.py"
    path.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])}
    done = subprocess.run([sys.executable, str(path), "--json"], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    out, val, acc = {"value": {}, "grad": {}, "param": {}, "loss": []}, [], []
    for line in done.stdout.splitlines():
        kind, key, data = line.split(" ", 2)
        if kind == "val_loss":
            val.append((int(key), float(data)))
        elif kind == "val_accuracy":
            acc.append((int(key), float(data)))
        elif kind == "loss":
            out["loss"].append(float(data))
        else:
            out[kind][key] = json.loads(data)
    return (out, val, acc) if accuracy else (out, val)


def test_an_exported_core_script_trains_on_the_training_part_and_prints_the_same_val_loss(tmp_path):
    g = export_graph()
    g.nodes["data"].params["val_fraction"] = 0.25
    g.set_training("val_every", 2)
    got, val = run_exported(export_script(g, "core"), tmp_path)
    assert got == session_run(g) and len(got["loss"]) == 5
    measured = [(m["step"], m["val_loss"]) for m in Session(g, seed=7).train(5) if "val_loss" in m]
    assert val == measured and [s for s, _ in val] == [1, 3, 4]
    g.nodes["data"].params["val_fraction"] = 0.0
    assert session_run(g)["loss"] != got["loss"]  # the split did change what training sees


def test_headless_training_prints_the_validation_metrics_on_the_measured_steps(tmp_path, capsys):
    import app

    path = tmp_path / "split.json"
    files.save(split_classifier(val_every=5), path)
    assert app.main(["--headless", str(path), "--train", "6"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert "val_loss" in lines[4] and "val_accuracy" in lines[4] and "val_loss" in lines[5]
    assert not any("val_" in line for line in lines[:4])


def test_the_version_1_dataset_migration_adds_no_split():
    from core.nodegraph.files import migrations

    data = {"node_types": {"data.dataset": 1}, "nodes": [{"id": "d", "type": "data.dataset", "params": {"seed": 4}}]}
    out = migrations.migrate_nodes(data, {"data.dataset": 2})
    assert out["nodes"][0]["params"] == {"seed": 4, "val_fraction": 0.0}
