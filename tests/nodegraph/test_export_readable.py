"""An exported script reads like the chapter's code and prints what the session shows: each value under its node's
name (``xw = tensor([ 3.0000, -1.5000], grad_fn=<MulBackward0>)``), then ``z.backward()`` and the leaves' grads."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import core
import core.nodegraph.model.nodes  # registers the node types
from core.nodegraph.export.script import export_script
from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import list_lessons
from core.nodegraph.model.names import node_label
from core.nodegraph.run.session import Session
from tests.nodegraph.test_export import _graph, regression_graph, run_script, session_run

ROOT = Path(__file__).resolve().parents[2]


def _z_graph():
    """Lesson 4's graph: z = (x * w).sum() + b with the chapter's names x, w, b, xw, s, z."""
    lesson = next(lesson for lesson in list_lessons() if lesson.key == "04-autograd-graph")
    return files.load(lesson.file)


def _printed(text: str, tmp_path, *args) -> list:
    path = tmp_path / "exported.py"
    path.write_text(text)
    done = subprocess.run([sys.executable, str(path), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout.splitlines()


def _what_the_session_shows(graph) -> list:
    """A fresh session's forward and backward, written as the chapter prints them."""
    s = Session(graph)
    s.forward()
    lines = [f"{node_label(graph, nid)} = {s.value(nid)!r}" for nid in s.order]
    s.backward()
    lines.append(f"{node_label(graph, graph.training['loss'])}.backward()")
    leaves = [nid for nid in s.order if s.value(nid).is_leaf and s.grad(nid) is not None]
    return lines + [f"{node_label(graph, nid)}.grad = {s.grad(nid)!r}" for nid in leaves]


def test_the_z_graph_script_prints_values_by_name_then_backward_and_the_leaves_grads(tmp_path):
    g = _z_graph()
    printed = _printed(export_script(g, "core"), tmp_path)
    assert printed == _what_the_session_shows(g)
    assert printed[3] == "xw = tensor([ 3.0000, -1.5000], grad_fn=<MulBackward0>)"
    assert printed[6:] == ["z.backward()", "x.grad = tensor([ 1.5000, -0.5000])", "w.grad = tensor([2., 3.])",
                           "b.grad = tensor(1.)"]


def test_the_z_graph_script_reads_like_the_chapters_code():
    text = export_script(_z_graph(), "core")
    forward = text.split("def forward(step):\n")[1].split("\n\n")[0]
    assert forward.splitlines()[0].startswith("    x = torch.tensor([2.0, 3.0]")
    assert "    xw = torch.mul(x, w)" in forward and "    s = torch.sum(xw)" in forward
    assert "    z = torch.add(s, b)" in forward
    assert "    z.backward()" in text and "n1" not in forward.split("return")[0]


def test_the_torch_script_of_the_z_graph_prints_what_the_core_session_shows(tmp_path, torch):
    g = _z_graph()
    assert _printed(export_script(g, "torch"), tmp_path) == _what_the_session_shows(g)


def test_titles_that_are_python_or_script_names_get_fresh_variables_and_still_reproduce_the_session(tmp_path):
    g = _graph([("a", "source.tensor", {"tensor": [1.0, 2.0], "requires_grad": True}),
                ("b", "source.tensor", {"tensor": [3.0, 4.0]}), ("c", "math.mul", {}), ("d", "reduce.sum", {}),
                ("e", "math.exp", {})],
               [("a", "out", "c", "a"), ("b", "out", "c", "b"), ("c", "out", "d", "x"), ("d", "out", "e", "x")],
               loss="e")
    for nid, title in (("a", "torch"), ("b", "step"), ("c", "2 x"), ("d", "x"), ("e", "x")):
        g.nodes[nid].title = title
    text = export_script(g, "core")
    forward = text.split("def forward(step):\n")[1].split("    return")[0]
    assert [line.split(" = ")[0].strip() for line in forward.splitlines()] == ["torch_", "step_", "x", "x_2", "x_3"]
    assert run_script(text, tmp_path) == session_run(g)
    printed = _printed(text, tmp_path)
    assert printed[0] == "torch_ = tensor([1., 2.], requires_grad=True)" and "x_3.backward()" in printed


def test_a_training_script_prints_its_losses_then_the_layers_parameters_by_name(tmp_path):
    g = regression_graph()
    printed = _printed(export_script(g, "core"), tmp_path)
    s = Session(g, seed=g.training.get("seed") or 0)
    losses = [m["loss"] for m in s.train(g.training["steps"])]
    assert printed[:len(losses)] == [f"loss {i} {loss!r}" for i, loss in enumerate(losses)]
    weight = s.parameters()["lin.weight"]
    assert f"linear.weight = {weight!r}".splitlines()[0] in printed
    assert isinstance(weight, core.nn.Parameter)


def test_the_scripts_docstring_counts_its_nodes_in_words():
    """A one-node graph's script said "1 nodes" in its first line (File ▸ Export Python script of a new randn)."""
    from core.nodegraph.model.document import Graph, Node

    g = Graph()
    g.add_node(Node("r", "source.randn"))
    assert export_script(g, "core").startswith('"""Exported from Nodegrad (core): 1 node; runs forward.')
    assert "): 6 nodes; " in export_script(_z_graph(), "core").splitlines()[0]


def test_a_node_that_fails_in_the_session_has_a_note_above_the_script_line_that_raises_the_same_error(tmp_path):
    """Lesson 3's b_view is ``b.view(12)`` on a transposed b: the session shows RuntimeError on it, the script
    raises it at that line, and the comment above the line says so (the lesson's point, not a broken export)."""
    lesson = next(lesson for lesson in list_lessons() if lesson.key == "03-views")
    graph = files.load(lesson.file)
    session = Session(graph)
    session.forward()
    error = session.errors["n4"]
    text = export_script(graph)
    lines = text.splitlines()
    at = next(i for i, line in enumerate(lines) if line.strip().startswith("b_view = "))
    note = []
    for line in reversed(lines[:at]):
        if not line.strip().startswith("#"):
            break
        note.insert(0, line.strip().removeprefix("# "))
    assert " ".join(note) == f"NOTE: the next line raises, as node 'b_view' does in Nodegrad: {error}"
    assert sum(line.strip().startswith("# NOTE: the next line raises") for line in lines) == 1  # only b_view fails
    path = tmp_path / "exported.py"
    path.write_text(text)
    done = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHONPATH": str(ROOT)}, cwd=tmp_path)
    assert done.returncode != 0
    assert f'line {at + 1}, in forward' in done.stderr and error.message in done.stderr
