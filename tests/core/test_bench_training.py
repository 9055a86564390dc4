"""The training benchmark times real training: its workload learns, and the script runs end to end."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import core
from benchmarks import bench_training


def test_the_tanh_workload_lowers_the_loss_it_times():
    train = bench_training.tanh1000_case(core, steps=200)
    before = train.loss()
    train()
    assert train.loss() < before - 0.02


def test_the_benchmark_script_reports_both_workloads(capsys):
    results = bench_training.main(["--repeat", "1", "--steps", "3", "--mlp-steps", "1"])
    out = capsys.readouterr().out
    assert set(results) == {"mlp784", "tanh1000"}
    assert results["tanh1000"]["core"] > 0 and results["tanh1000"]["numpy"] > 0
    assert "784-256-128-10 MLP" in out and "2-8-8-1 tanh MLP" in out


def test_importing_the_benchmark_leaves_the_thread_variables_alone():
    """Imported by tests, the benchmark must not set OMP_NUM_THREADS: core reads it for its default thread count,
    and every later oracle test would compare core on one thread with PyTorch on all of them."""
    root = Path(__file__).resolve().parents[2]
    code = ("import os; from benchmarks import bench_training; import core; "
            "print(os.environ.get('OMP_NUM_THREADS'), core.get_num_threads())")
    env = {k: v for k, v in os.environ.items() if not k.endswith("NUM_THREADS")}
    done = subprocess.run([sys.executable, "-c", code], cwd=root, env={**env, "PYTHONPATH": str(root)},
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    variable, threads = done.stdout.split()
    assert variable == "None"
    assert int(threads) == core._threads._physical_cores()
