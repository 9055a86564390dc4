"""Exported scripts reproduce the session: run in a subprocess, their printed values, gradients, parameters
and losses equal a fresh session's (exactly for ``core``; closely for ``torch`` when PyTorch is installed)."""

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.export.script import ExportError, export_script, write_script
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph, linear_mse_graph

ROOT = Path(__file__).resolve().parents[2]


def _graph(nodes, edges, **training) -> Graph:
    g = Graph()
    for nid, type_id, params in nodes:
        g.add_node(Node(nid, type_id, params))
    for e in edges:
        g.connect(Edge(*e))
    g.training.update(training)
    return g


def run_script(text: str, tmp_path) -> dict:
    path = tmp_path / "exported.py"
    path.write_text(text)
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(path), "--json"], capture_output=True, text=True, env=env, timeout=120,
                          cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    out = {"value": {}, "grad": {}, "param": {}, "loss": []}
    for line in done.stdout.splitlines():
        kind, key, data = line.split(" ", 2)
        if kind == "loss":
            out["loss"].append(float(data))
        else:
            out[kind][key] = json.loads(data)
    return out


def _plain(v):
    return v.detach().tolist() if isinstance(v, core.Tensor) else v


def session_run(g: Graph, steps=None) -> dict:
    """What the script mirrors: a fresh session, trained or run forward (and backward)."""
    t = g.training
    s = Session(g, device=t.get("device") or "cpu", seed=t.get("seed") or 0)
    out = {"value": {}, "grad": {}, "param": {}, "loss": []}
    has_params = any(n.type in ("param.parameter", "layer.linear", "layer.mlp", "layer.conv2d")
                     for n in g.nodes.values())
    if t.get("loss") and has_params:
        out["loss"] = [m["loss"] for m in s.train(t["steps"] if steps is None else steps)]
    else:
        s.forward()
        loss = s.value(t["loss"]) if t.get("loss") else None
        if isinstance(loss, core.Tensor) and loss.requires_grad:
            s.backward()
    for nid in s.order:
        for port, v in (s.values.get(nid) or {}).items():
            if isinstance(v, (core.Tensor, bool, int, float)):
                out["value"][f"{nid}.{port}"] = _plain(v)
            if isinstance(v, core.Tensor) and v.is_leaf and v.grad is not None:
                out["grad"][f"{nid}.{port}"] = _plain(v.grad)
    for key, p in s.parameters().items():
        out["param"][key] = _plain(p)
        if p.grad is not None:
            out["grad"][key] = _plain(p.grad)
    return out


def assert_close(got: dict, want: dict, rtol=2e-4, atol=1e-5):
    for kind in ("value", "grad", "param"):
        assert set(got[kind]) == set(want[kind]), kind
        for key in want[kind]:
            np.testing.assert_allclose(np.asarray(got[kind][key], dtype=np.float64),
                                       np.asarray(want[kind][key], dtype=np.float64), rtol=rtol, atol=atol,
                                       err_msg=f"{kind} {key}")
    np.testing.assert_allclose(got["loss"], want["loss"], rtol=rtol, atol=atol)


def regression_graph():
    return _graph([("x", "source.randn", {"shape": [16, 3], "seed": 1}),
                   ("y", "source.randn", {"shape": [16, 1], "seed": 2}),
                   ("lin", "layer.linear", {"in_features": 3, "out_features": 1, "seed": 3}),
                   ("loss", "loss.mse", {})],
                  [("x", "out", "lin", "x"), ("lin", "out", "loss", "input"), ("y", "out", "loss", "target")],
                  loss="loss", optimizer="SGD", optimizer_params={"lr": 0.05}, steps=6)


def classifier_graph():
    """Moons batches, an MLP, cross entropy, Adam with a StepLR schedule: the playground's toy classifier."""
    return _graph([("data", "data.dataset", {"generator": "moons", "n_samples": 48, "batch_size": 16, "seed": 4}),
                   ("mlp", "layer.mlp", {"sizes": [2, 8, 2], "activation": "tanh", "seed": 5}),
                   ("loss", "loss.cross_entropy", {})],
                  [("data", "x", "mlp", "x"), ("mlp", "out", "loss", "input"), ("data", "y", "loss", "target")],
                  loss="loss", optimizer="Adam", optimizer_params={"lr": 0.02},
                  schedule={"type": "StepLR", "step_size": 2, "gamma": 0.5}, steps=5, seed=7)


def many_ops_graph(dropout=0.5):
    """A graph through views, reductions with indices, joins, a formula, a parameter and seeded dropout."""
    return _graph([("x", "source.randn", {"shape": [3, 4], "seed": 1, "requires_grad": True}),
                   ("w", "param.parameter", {"name": "w", "shape": [4, 2], "init": "xavier_uniform", "seed": 2}),
                   ("t", "shape.transpose", {}), ("c", "shape.contiguous", {}), ("v", "shape.view", {"shape": [12]}),
                   ("r", "shape.reshape", {"shape": [3, 4]}), ("mm", "linalg.matmul", {}),
                   ("mx", "reduce.max", {"dim": 1}), ("cat", "join.cat", {"dim": 0}),
                   ("sl", "shape.slice", {"index": "1:, ..."}), ("d", "nn.dropout", {"p": dropout, "seed": 9}),
                   ("noise", "source.rand", {"shape": [5, 2]}), ("add", "math.add", {}),
                   ("act", "nn.gelu", {"approximate": "tanh"}),
                   ("e", "expr.expression", {"formula": "(a * 2.0).tanh() - a.mean()", "inputs": "a"}),
                   ("s", "reduce.sum", {})],
                  [("x", "out", "t", "x"), ("t", "out", "c", "x"), ("c", "out", "v", "x"), ("v", "out", "r", "x"),
                   ("r", "out", "mm", "a"), ("w", "out", "mm", "b"), ("mm", "out", "mx", "x"),
                   ("mm", "out", "cat", "in0"), ("mm", "out", "cat", "in1"), ("cat", "out", "sl", "x"),
                   ("sl", "out", "d", "x"), ("d", "out", "add", "a"), ("noise", "out", "add", "b"),
                   ("add", "out", "act", "x"), ("act", "out", "e", "a"), ("e", "out", "s", "x")],
                  loss="s", seed=11, steps=3)


def test_the_chapters_graph_exports_to_a_core_script_with_the_same_values_and_gradients(tmp_path):
    g = chapter_graph()
    got = run_script(export_script(g, "core"), tmp_path)
    assert got == session_run(g)
    assert got["grad"]["x.out"] == [1.5, -0.5] and got["grad"]["w.out"] == [2.0, 3.0]


def test_a_core_script_reproduces_the_training_losses_and_parameters_exactly(tmp_path):
    g = regression_graph()
    got = run_script(export_script(g, "core"), tmp_path)
    want = session_run(g)
    assert len(got["loss"]) == 6 and got["loss"][-1] < got["loss"][0]
    assert got == want


def test_random_batches_from_the_session_generator_reproduce_exactly_in_core(tmp_path):
    g = linear_mse_graph(batch=8)
    g.training.update(steps=4, seed=3)
    text = export_script(g, "core")
    assert "generator=gen" in text
    assert run_script(text, tmp_path) == session_run(g)


def test_the_toy_classifier_with_a_dataset_adam_and_a_schedule_reproduces_exactly_in_core(tmp_path):
    g = classifier_graph()
    assert run_script(export_script(g, "core"), tmp_path) == session_run(g)


def test_a_forward_graph_through_many_node_types_reproduces_exactly_in_core(tmp_path):
    g = many_ops_graph()
    got = run_script(export_script(g, "core"), tmp_path)
    assert got == session_run(g)
    assert "mx.indices" in got["value"] and "w.w" in got["param"] and "x.out" in got["grad"]


def test_the_steps_argument_overrides_the_graphs_steps(tmp_path):
    got = run_script(export_script(regression_graph(), "core", steps=2), tmp_path)
    assert got["loss"] == session_run(regression_graph(), steps=2)["loss"]


@pytest.mark.parametrize("make", [classifier_graph, many_ops_graph], ids=["classifier", "many_ops"])
def test_the_torch_script_matches_pytorch_given_the_same_initial_values(make, tmp_path, torch):
    """Batches, an unseeded rand source and dropout are replayed; everything else is PyTorch's own arithmetic."""
    g = make()
    text = export_script(g, "torch")
    assert "import torch\n" in text and "import core" not in text
    assert_close(run_script(text, tmp_path), session_run(g))


def test_node_types_without_export_code_are_refused_by_name(test_types):
    g = _graph([("v", "test.value", {})], [])
    with pytest.raises(ExportError, match="node 'v' \\(test.value\\): this node type has no export code"):
        export_script(g)
    g = _graph([("x", "source.tensor", {"tensor": [0.5]}), ("gc", "check.gradcheck", {}), ("m", "math.mul", {})],
               [("x", "out", "gc", "x"), ("gc", "max_error", "m", "a"), ("x", "out", "m", "b")])
    with pytest.raises(ExportError, match="output 'max_error' of node 'gc' has no export code"):
        export_script(g)  # torch's gradcheck gives only the verdict
    with pytest.raises(ExportError, match="node 'm': required input 'b' is not connected"):
        export_script(_graph([("x", "source.tensor", {}), ("m", "math.mul", {})], [("x", "out", "m", "a")]))
    with pytest.raises(ExportError, match="unknown api"):
        export_script(chapter_graph(), api="jax")


def test_write_script_writes_the_text_it_returns(tmp_path):
    path = tmp_path / "out.py"
    assert write_script(chapter_graph(), path) == path.read_text()


def _collapsed(g, node_ids):
    from core.nodegraph.model import commands as cmd

    cmd.Collapse(node_ids, "block").do(g)
    return g


def test_a_subgraph_exports_as_a_function_with_the_same_values(tmp_path):
    g = _collapsed(chapter_graph(), ["mul", "sum"])
    text = export_script(g, "core")
    assert "def _subgraph_" in text
    got = run_script(text, tmp_path)
    assert got == session_run(g) and got["grad"]["w.out"] == [2.0, 3.0]


def test_random_nodes_inside_a_subgraph_draw_like_the_session(tmp_path):
    g = _graph([("r", "source.randn", {"shape": [3]}), ("e", "math.exp", {}), ("s", "reduce.sum", {})],
               [("r", "out", "e", "x"), ("e", "out", "s", "x")], seed=5)
    _collapsed(g, ["r", "e"])
    assert run_script(export_script(g, "core"), tmp_path) == session_run(g)
    with pytest.raises(ExportError, match="inside subgraph"):
        export_script(g, "torch")
