"""The targets benchmark prints every row of the speed targets with its ratio and verdict."""

from __future__ import annotations

import core
from benchmarks import bench_targets, bench_training


def test_the_report_prints_each_row_with_its_ratio_target_and_verdict(capsys):
    results = {key: {"core": 1.0, "torch": 2.0, "numpy": 0.5} for _, key, _, _ in bench_targets.ROWS}
    results["conv"]["gemms"] = 0.25
    missed = bench_targets.report(results)
    lines = capsys.readouterr().out.splitlines()
    for row, _, ref, target in bench_targets.ROWS:
        line = next(line for line in lines if line.startswith(row + " "))
        ratio = 1.0 / results["conv"][ref]
        assert f"{ratio:.2f}x" in line
        assert ("ok" if ratio <= target else "MISSED") in line.split()[-1]
    assert missed == sum(1.0 / results["conv"][ref] > target for _, _, ref, target in bench_targets.ROWS)
    assert "a hand-written NumPy step takes 500 ms, 0.25x PyTorch's; core 2.00x it" in lines[-3]
    assert "core takes 4.00x the time of its GEMMs alone" in lines[-2]
    assert lines[-1].startswith("load average")


def test_the_adam_tanh_workload_lowers_the_loss_it_times():
    train = bench_training.tanh1000_case(core, steps=100, optimizer="Adam")
    before = train.loss()
    train()
    assert train.loss() < before - 0.02
