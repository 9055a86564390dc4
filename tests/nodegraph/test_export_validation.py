"""Exported training scripts of a graph whose dataset holds rows out: they measure and print ``val_loss`` on the
steps the session measures it, on the same rows, and the printed values equal the session's (exactly for
``core``; closely for ``torch``, which replays the held-out rows and random draws the session used)."""

import os
import subprocess
import sys

import numpy as np

from core.nodegraph.export.script import export_script
from core.nodegraph.files import io as files
from core.nodegraph.model.document import Edge, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.test_export import ROOT, _graph, assert_close, session_run
from tests.nodegraph.test_export import classifier_graph as export_graph
from tests.nodegraph.test_validation_split import run_exported


def split_graph(val_every=2, steps=5):
    """The export tests' classifier (moons, MLP, cross entropy, Adam, StepLR) holding a quarter of its rows out."""
    g = export_graph()
    g.nodes["data"].params["val_fraction"] = 0.25
    g.set_training("val_every", val_every)
    g.set_training("steps", steps)
    return g


def noisy_split_graph():
    """``split_graph`` with unseeded noise added to the inputs (drawn from the session's generator while training
    and from the validation generator while measuring) and an unseeded source outside the loss's inputs that comes
    first in topological order: validation must evaluate the loss's inputs only, or it would draw from it too."""
    g = _graph([("junk", "source.randn", {"shape": [3]}),
                ("data", "data.dataset", {"generator": "moons", "n_samples": 48, "batch_size": 16, "seed": 4,
                                          "val_fraction": 0.25}),
                ("noise", "source.randn", {"shape": [1, 2]}), ("add", "math.add", {}),
                ("mlp", "layer.mlp", {"sizes": [2, 8, 2], "activation": "tanh", "seed": 5}),
                ("loss", "loss.cross_entropy", {})],
               [("data", "x", "add", "a"), ("noise", "out", "add", "b"), ("add", "out", "mlp", "x"),
                ("mlp", "out", "loss", "input"), ("data", "y", "loss", "target")],
               loss="loss", optimizer="SGD", optimizer_params={"lr": 0.1}, steps=6, seed=3, val_every=2)
    return g


def measured(g, steps=None):
    """``(step, val_loss)`` of a fresh session trained like the script trains."""
    t = g.training
    n = t["steps"] if steps is None else steps
    return [(m["step"], m["val_loss"]) for m in Session(g, seed=t.get("seed") or 0).train(n) if "val_loss" in m]


def test_the_core_script_prints_the_sessions_val_loss_exactly_on_the_same_steps(tmp_path):
    g = split_graph()
    got, val = run_exported(export_script(g, "core"), tmp_path)
    assert got == session_run(g)
    assert val == measured(g) and [s for s, _ in val] == [1, 3, 4]


def test_the_core_script_validates_the_loss_inputs_only_with_the_sessions_generator(tmp_path):
    g = noisy_split_graph()
    text = export_script(g, "core")
    assert "def validation_loss(step):" in text and "randn = " not in text.split("def validation_loss")[1].split(
        "def main")[0] and "    randn = " in text.split("def forward")[1]
    got, val = run_exported(text, tmp_path)
    assert got == session_run(g)
    want = measured(g)
    assert val == want and [s for s, _ in val] == [1, 3, 5]
    assert len({v for _, v in val}) == 3


def test_the_steps_argument_moves_the_last_measurement_like_train_n_does(tmp_path):
    g = split_graph(val_every=3, steps=20)
    _, val = run_exported(export_script(g, "core", steps=4), tmp_path)
    assert val == measured(g, steps=4) and [s for s, _ in val] == [2, 3]


def test_without_a_split_or_with_val_every_zero_the_script_prints_no_val_loss(tmp_path):
    for g in (export_graph(), split_graph(val_every=0)):
        for api in ("core", "torch"):
            text = export_script(g, api)
            assert "val_loss" not in text and "_validate" not in text and "_REC_VAL" not in text


def test_an_in_place_node_before_the_loss_gives_no_val_loss_in_session_or_script():
    g = split_graph()
    g.add_node(Node("one", "source.tensor", {"tensor": 1.0}))
    g.add_node(Node("mul", "inplace.mul_", {}))  # validation refuses it: it could change the trained tensors
    g.disconnect(g.inputs_of("loss")["input"])
    g.connect(Edge("mlp", "out", "mul", "x"))
    g.connect(Edge("one", "out", "mul", "other"))
    g.connect(Edge("mul", "out", "loss", "input"))
    metrics = list(Session(g, seed=7).train(5))
    assert all("val_loss" not in m for m in metrics) and "in-place" in metrics[1]["val_error"]
    assert "_validate" not in export_script(g, "core")


def test_the_torch_script_prints_the_sessions_val_loss_on_the_same_steps(tmp_path, torch):
    g = split_graph()
    text = export_script(g, "torch")
    assert "import torch\n" in text and "import core" not in text and "_REC_VAL" in text
    got, val = run_exported(text, tmp_path)
    assert_close(got, session_run(g))
    want = measured(g)
    assert [s for s, _ in val] == [s for s, _ in want] == [1, 3, 4]
    np.testing.assert_allclose([v for _, v in val], [v for _, v in want], rtol=2e-5)


def test_the_torch_script_replays_the_held_out_noise_the_session_drew(tmp_path, torch):
    g = noisy_split_graph()
    got, val = run_exported(export_script(g, "torch"), tmp_path)
    assert_close(got, session_run(g))
    want = measured(g)
    assert [s for s, _ in val] == [s for s, _ in want]
    np.testing.assert_allclose([v for _, v in val], [v for _, v in want], rtol=2e-5)


def test_the_scripts_print_the_sessions_val_accuracy_on_the_steps_that_measure_it(tmp_path, torch):
    g = split_graph()
    want = [(m["step"], m["val_accuracy"]) for m in Session(g, seed=g.training.get("seed") or 0).train(5)
            if "val_accuracy" in m]
    assert [s for s, _ in want] == [1, 3, 4]
    _, _, acc = run_exported(export_script(g, "core"), tmp_path, accuracy=True)
    assert acc == want  # the same rows, the same count
    _, _, acc = run_exported(export_script(g, "torch"), tmp_path, accuracy=True)
    assert acc == want


def test_a_regression_scripts_validation_prints_no_accuracy(tmp_path):
    g = _graph([("data", "data.dataset", {"generator": "sine", "n_samples": 40, "batch_size": 10, "seed": 1,
                                          "val_fraction": 0.25}),
                ("mlp", "layer.mlp", {"sizes": [1, 8, 1], "activation": "tanh", "seed": 2}),
                ("loss", "loss.mse", {})],
               [("data", "x", "mlp", "x"), ("mlp", "out", "loss", "input"), ("data", "y", "loss", "target")],
               loss="loss", optimizer="SGD", optimizer_params={"lr": 0.05}, steps=4, val_every=2)
    text = export_script(g, "core")
    _, val, acc = run_exported(text, tmp_path, accuracy=True)
    assert val == measured(g) and acc == [] and "ACC_KIND = None" in text


def test_a_torch_script_that_validates_is_the_same_text_in_every_run_of_the_app(tmp_path):
    # its _REC_VAL entries came in a set's order, which Python's string hashing changes from one process to the next
    path = tmp_path / "split.json"
    files.save(split_graph(), path)
    code = ("import core.nodegraph.model.nodes\nfrom core.nodegraph.files import io\n"
            "from core.nodegraph.export.script import export_script\n"
            f"print(export_script(io.load({str(path)!r}), 'torch'))")
    texts = {subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": seed}).stdout
             for seed in ("1", "2", "3", "4")}
    assert len(texts) == 1 and "_REC_VAL = {" in next(iter(texts))
