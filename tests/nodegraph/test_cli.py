"""The headless command line: ``app.py --headless [FILE] ...`` exit codes, messages and outputs (no Qt)."""

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import app
import core.nodegraph.model.nodes  # noqa: F401 - registers the node types
from core.nodegraph.files import io as files
from core.nodegraph.model.document import Edge, Graph, Node
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import chapter_graph
from tests.nodegraph.test_export import regression_graph

ROOT = Path(__file__).resolve().parents[2]


def headless(*args, cwd=None):
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, str(ROOT / "app.py"), "--headless", *map(str, args)], capture_output=True,
                          text=True, env=env, timeout=120, cwd=cwd or ROOT)
    return done.returncode, done.stdout, done.stderr


def main(capsys, *args):
    code = app.main(["--headless", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def _save(g, tmp_path, name="g.json"):
    path = tmp_path / name
    files.save(g, path)
    return path


def _graph(nodes, edges, **training):
    g = Graph()
    for nid, type_id, params in nodes:
        g.add_node(Node(nid, type_id, params))
    for e in edges:
        g.connect(Edge(*e))
    g.training.update(training)
    return g


def test_without_a_file_it_prints_the_chapters_example():
    code, out, err = headless()
    assert code == 0 and out.splitlines()[0] == "z = 1.6000"
    assert "x.grad = tensor([ 1.5000, -0.5000])" in out and "b.grad = tensor(1.)" in out


def test_train_prints_a_progress_bar_and_the_sessions_loss_per_step(tmp_path):
    path = _save(regression_graph(), tmp_path)
    code, out, err = headless(path, "--train", 3)
    assert code == 0, err
    lines = out.splitlines()
    want = [m["loss"] for m in Session(regression_graph()).train(3)]
    assert len(lines) == 3 and lines[-1].startswith("[" + "#" * 24 + "]")
    assert [float(re.search(r"loss (\S+)", line).group(1)) for line in lines] == [float(f"{v:.6g}") for v in want]
    assert "step 2/3" in lines[1]


def test_a_missing_or_damaged_file_exits_2_with_one_line_and_no_traceback(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nodegrad-graph", "version": 1, "nodes": [')
    for path in (tmp_path / "missing.json", bad):
        code, out, err = headless(path, "--forward")
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and err.startswith(f"nodegrad: can't load {path}") and "Traceback" not in err


def test_a_python_file_given_as_the_graph_is_named_as_code_with_the_option_that_runs_it(tmp_path):
    """A newcomer's snippet passed where a graph file goes got "not valid JSON ... line 1 column 1"."""
    snippet = tmp_path / "snippet.py"
    snippet.write_text("import torch\nx = torch.ones(2, requires_grad=True)\ny = (x * x).sum()\n")
    code, out, err = headless(snippet, "--forward")
    assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert err.startswith(f"nodegrad: can't load {snippet}: it is Python code, not a graph file")
    assert f"--import-py {snippet} OUT.json" in err
    out_json = tmp_path / "snippet.json"
    code, out, err = headless("--import-py", snippet, out_json)  # the option the line names does run it
    assert code == 0 and out_json.is_file(), err


def test_export_py_writes_a_script_that_runs(tmp_path):
    path = _save(chapter_graph(), tmp_path)
    code, out, err = headless(path, "--export-py", tmp_path / "z.py")
    assert code == 0 and "wrote" in out
    ran = subprocess.run([sys.executable, str(tmp_path / "z.py")], capture_output=True, text=True, timeout=120,
                         env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert ran.returncode == 0 and "tensor_2.grad = tensor([2., 3.])" in ran.stdout  # w is the second tensor node


def test_forward_prints_every_port_and_backward_the_gradients(tmp_path, capsys):
    path = _save(chapter_graph(), tmp_path)
    code, out, _ = main(capsys, path, "--forward", "--backward")
    assert code == 0
    assert "mul (math.mul).out = tensor([ 3.0000, -1.5000], grad_fn=<MulBackward0>)" in out
    assert "w.out.grad = tensor([2., 3.])" in out


def test_actions_without_a_file_run_on_the_start_document(capsys):
    code, out, _ = main(capsys, "--check")
    assert code == 0 and "6 nodes" in out and out.rstrip().endswith("ok")


def test_check_is_the_default_action_and_passes_a_healthy_graph(tmp_path, capsys):
    code, out, _ = main(capsys, _save(chapter_graph(), tmp_path))
    assert code == 0 and "hints: 0 errors, 0 warnings, 0 infos; ok" in out


def test_check_prints_diagnostics_and_fails_on_errors(tmp_path, capsys):
    g = _graph([("x", "source.tensor", {"tensor": [1.0, -1.0], "requires_grad": True}), ("log", "math.log", {}),
                ("s", "reduce.sum", {})], [("x", "out", "log", "x"), ("log", "out", "s", "x")], loss="s")
    code, out, _ = main(capsys, _save(g, tmp_path), "--check")
    assert code == 1 and "error: [log] nan first appears here" in out and "problems found" in out


def test_check_reports_validation_issues_per_node(tmp_path, capsys):
    g = _graph([("m", "math.mul", {})], [])
    code, out, _ = main(capsys, _save(g, tmp_path), "--check")
    assert code == 1 and "invalid m: required input 'a' is not connected" in out


def test_a_failing_node_makes_forward_exit_1_with_its_message(tmp_path, capsys):
    g = _graph([("a", "source.randn", {"shape": [2, 3], "seed": 1}),
                ("b", "source.randn", {"shape": [4, 5], "seed": 1}),
                ("mm", "linalg.mm", {})], [("a", "out", "mm", "a"), ("b", "out", "mm", "b")])
    code, out, _ = main(capsys, _save(g, tmp_path), "--forward")
    assert code == 1 and re.search(r"error mm \(linalg.mm\): RuntimeError: .*shapes cannot be multiplied", out)


def test_train_without_parameters_and_unexportable_graphs_fail_with_one_line(tmp_path, capsys, test_types):
    code, out, err = main(capsys, _save(chapter_graph(), tmp_path), "--train", 2)
    assert code == 1 and err.startswith("nodegrad: can't train:") and err.count("\n") == 1
    g = _graph([("v", "test.value", {})], [])
    code, out, err = main(capsys, _save(g, tmp_path), "--export-py", tmp_path / "x.py")
    assert code == 1 and "can't export: node 'v'" in err and not (tmp_path / "x.py").exists()


@pytest.mark.parametrize("api", ["core", "torch"])
def test_export_py_api_picks_the_import(tmp_path, capsys, api):
    out_path = tmp_path / "out.py"
    code, out, _ = main(capsys, _save(regression_graph(), tmp_path), "--export-py", out_path, "--api", api)
    assert code == 0 and f"({api} script)" in out
    text = out_path.read_text()
    assert ("import core as torch" in text) == (api == "core") and "for step in range(STEPS)" in text
    assert "STEPS = 6" in text


def test_export_py_with_train_n_exports_n_steps(tmp_path, capsys):
    out_path = tmp_path / "out.py"
    code, out, _ = main(capsys, _save(regression_graph(), tmp_path), "--train", 2, "--export-py", out_path)
    assert code == 0 and out.count(" loss ") == 2 and "STEPS = 2" in out_path.read_text()


def test_an_unknown_node_type_loads_as_a_placeholder_that_check_and_export_report(tmp_path, capsys):
    path = _save(chapter_graph(), tmp_path)
    path.write_text(path.read_text().replace('"math.mul"', '"math.future_op"'))
    code, out, _ = main(capsys, path, "--check")
    assert code == 1 and "unknown node type 'math.future_op'" in out
    code, out, err = main(capsys, path, "--export-py", tmp_path / "p.py")
    assert code == 1 and err.startswith("nodegrad: can't export: node 'mul'")


def test_train_stops_on_the_documents_stop_conditions_like_the_train_button(tmp_path, capsys):
    g = regression_graph()
    losses = [m["loss"] for m in Session(regression_graph()).train(6)]
    g.set_training("stop", {"loss_below": (losses[2] + losses[3]) / 2})  # reached at the fourth step
    code, out, err = main(capsys, _save(g, tmp_path), "--train", 6)
    lines = out.splitlines()
    assert code == 0 and len(lines) == 5 and "step 4/6" in lines[3]
    assert lines[4].startswith("stopped at step 3: loss") and "is below" in lines[4]
    g.set_training("optimizer_params", {"lr": 10.0})  # diverges: the NaN/Inf stop ends it, and the exit says so
    code, out, err = main(capsys, _save(g, tmp_path), "--train", 30)
    assert code == 1 and "the loss is" in out.splitlines()[-1]
