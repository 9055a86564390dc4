"""The benchmarks the README names run to the end at their smallest sizes, as a newcomer tries them first.

Each runs in its own process, as the README's command line does (the benchmarks register node types of their
own, which must not reach the other tests' registry); nothing here looks at the times they print.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "QT_QPA_PLATFORM": "offscreen", **(env or {})}
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_bench_growth_runs_on_a_graph_smaller_than_its_comments_span():
    done = _run("benchmarks/bench_growth.py", "--sizes", "100", "--no-100k", "--repeats", "1")
    assert done.returncode == 0, done.stderr
    assert "load+validate" in done.stdout


def test_bench_gui_canvas_runs_on_a_graph_without_node_n255(tmp_path):
    """It runs to the end, and leaves the user's settings alone: each CI run had put its temporary big.json at the
    top of the developer's File > Open recent."""
    pytest.importorskip("PySide6")
    home = tmp_path / "home"
    home.mkdir()
    done = _run("benchmarks/bench_gui_canvas.py", "1", "50", env={"HOME": str(home), "XDG_CONFIG_HOME": str(home)})
    assert done.returncode == 0, done.stderr
    assert "load-to-visible (50 nodes)" in done.stdout
    assert "Forward all through the Run menu (50 nodes" in done.stdout
    assert [p for p in home.rglob("*") if "Nodegrad" in str(p)] == []


def test_bench_op_sweep_runs_one_op_at_its_smallest_size():
    pytest.importorskip("torch")
    done = _run("benchmarks/bench_op_sweep.py", "--only", "leaky_relu", "--sizes", "S", "--repeat", "1")
    assert done.returncode == 0, done.stderr
    assert "leaky_relu bwd" in done.stdout and "core/torch" in done.stdout


def test_profile_mlp_step_runs_a_few_steps_and_prints_the_exact_against_plain_table():
    pytest.importorskip("torch")
    done = _run("benchmarks/profile_mlp_step.py", "--steps", "5", "--calls", "1")
    assert done.returncode == 0, done.stderr
    assert "fwd AddmmBackward0" in done.stdout and "x.T @ gh1" in done.stdout
    assert "exact (torch bits) vs plain NumPy" in done.stdout and "log_softmax (64, 10)" in done.stdout
