"""``torch.profiler.profile`` with a ``schedule`` as the profiler recipe uses it: ``on_trace_ready`` sees the step
number after the cycle's last step (core's was one less), each cycle reports only its own events unless
``acc_events=True`` (core's kept every cycle's), and PyTorch's warning about that comes once."""

from __future__ import annotations

import warnings

import pytest

import core


@pytest.mark.parametrize("acc_events", [False, True])
def test_a_scheduled_profile_reports_each_cycle_at_torchs_step(torch, acc_events):
    def report(lib):
        lib.manual_seed(0)
        model = lib.nn.Sequential(lib.nn.Linear(4, 3), lib.nn.ReLU())
        seen = []

        def handler(p):
            relu = [e for e in p.key_averages() if e.key == "aten::relu"]
            seen.append((p.step_num, relu[0].count if relu else 0))

        kwargs = {"acc_events": True} if acc_events else {}
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            schedule = lib.profiler.schedule(wait=1, warmup=1, active=2)
            with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], schedule=schedule,
                                      on_trace_ready=handler, **kwargs) as p:
                for _ in range(8):
                    model(lib.ones(2, 4))
                    p.step()
        cleared = [str(w.message) for w in caught if "clears events" in str(w.message)]
        return seen, cleared
    assert report(core) == report(torch)


def test_key_averages_grouped_by_input_shape_shows_the_shapes_column_as_torch(torch):
    """The profiler recipe's ``key_averages(group_by_input_shape=True).table()`` has PyTorch's Input Shapes column
    (core's table had none); the relu row shows its input's shape."""
    def report(lib):
        with lib.profiler.profile(activities=[lib.profiler.ProfilerActivity.CPU], record_shapes=True) as prof:
            lib.ones(2, 3).relu()
        grouped = prof.key_averages(group_by_input_shape=True)
        table = grouped.table(sort_by="cpu_time_total", row_limit=10)
        heads = table.splitlines()[1].split("  ")
        relu = [line for line in table.splitlines() if "aten::relu " in line]
        return ([h.strip() for h in heads if h.strip()], relu[0].rstrip().endswith("[[2, 3]]"),
                "Input Shapes" in prof.key_averages().table())
    assert report(core) == report(torch)


@pytest.mark.parametrize("steps", [4, 5, 6, 7, 8])
def test_a_scheduled_profile_keeps_the_finished_or_running_cycles_events_as_torch(torch, steps):
    """After the profile: the cycle that just finished, else the one under way (empty in its wait and warmup)."""
    def kept(lib):
        x = lib.ones(3, requires_grad=True)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (the once-only note that cycles clear their events)
            with lib.profiler.profile(schedule=lib.profiler.schedule(wait=1, warmup=1, active=2)) as prof:
                for _ in range(steps):
                    x.exp()
                    prof.step()
        return [e.key for e in prof.events() if e.key == "aten::exp"]
    assert kept(core) == kept(torch)
