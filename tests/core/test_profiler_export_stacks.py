"""``torch.profiler.profile.export_stacks`` against PyTorch: its argument checks, and a file written (the profiler
recipe exports stacks for flame graphs; core records no Python frames, so core's file has no stack lines)."""

from __future__ import annotations

import importlib

import pytest

import core


def test_export_stacks_checks_its_arguments_as_torch_and_writes_a_file(torch, tmp_path):
    for lib in (core, torch):
        profiler = importlib.import_module(lib.__name__ + ".profiler")
        layer, x = lib.nn.Linear(4, 2), lib.ones(3, 4)
        with profiler.profile(activities=[profiler.ProfilerActivity.CPU], with_stack=True) as prof:
            layer(x)
        path = tmp_path / f"{lib.__name__}.txt"
        prof.export_stacks(str(path), "self_cpu_time_total")
        assert path.exists()
        with pytest.raises(ValueError, match="metric should be one of: \\['self_cpu_time_total'"):
            prof.export_stacks(str(path), "cpu_time")
        with profiler.profile(activities=[profiler.ProfilerActivity.CPU]) as plain:
            layer(x)
        with pytest.raises(AssertionError, match="export_stacks\\(\\) requires with_stack=True"):
            plain.export_stacks(str(path))
