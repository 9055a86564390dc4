"""The training benchmark times real training: its workload learns, and the script runs end to end."""

from __future__ import annotations

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
