"""``torch.utils.benchmark`` against PyTorch: a Measurement's statistics and repr (from fixed raw times), what a
Timer records about its statement, block sizing, the unit helpers and Compare's table."""

from __future__ import annotations

import importlib
import re

import pytest

import core

RAW = [3.1e-4, 2.9e-4, 3.0e-4, 4.4e-4, 3.05e-4, 2.95e-4]


def _bench(lib):
    return importlib.import_module(lib.__name__ + ".utils.benchmark")


def _measurement(lib, raw, **spec):
    bench = _bench(lib)
    task = bench.TaskSpec(stmt=spec.pop("stmt", "x * y"), setup=spec.pop("setup", "pass"), **spec)
    return bench.Measurement(number_per_run=100, raw_times=raw, task_spec=task)


@pytest.mark.parametrize("raw, spec", [(RAW, {}), (RAW[:1], {"label": "mul", "sub_label": "[128]"}),
                                       (RAW[:3], {"description": "D", "setup": "x = 1\ny = 2"}),
                                       ([1e-3, 1.5e-3, 2e-3, 4e-3], {"num_threads": 2})])
def test_a_measurement_has_torchs_statistics_and_repr(torch, raw, spec):
    def describe(lib):
        m = _measurement(lib, list(raw), **dict(spec))
        body = repr(m).splitlines()[1:]  # the first line is the object's address
        return (m.median, m.mean, m.iqr, *m.times, m.significant_figures, m.has_warnings, m.title, m.env,
                m.as_row_name, m.num_threads, body)

    ours, theirs = describe(core), describe(torch)
    assert ours[-7:] == theirs[-7:]
    assert ours[:-7] == pytest.approx(theirs[:-7], rel=1e-12)


def test_a_timer_records_its_dedented_statement_and_times_blocks(torch):
    def run(lib):
        timer = _bench(lib).Timer("""
            x = torch.ones(4)
            y = x * 2
            """, setup="z = 1", label="L", description="double")
        m = timer.timeit(number=20)
        blocked = _bench(lib).Timer("x + 1", globals={"x": lib.ones(2)}).blocked_autorange(min_run_time=0.01)
        return (m.number_per_run, len(m.raw_times), m.stmt, m.task_spec.summarize(), repr(m).splitlines()[1:4],
                str(blocked.number_per_run).strip("0"), sum(blocked.raw_times) >= 0.01)

    assert run(core) == run(torch)


def test_the_unit_helpers_match_torchs(torch):
    def units(lib):
        bench = _bench(lib)
        return ([bench.select_unit(t) for t in (3e-9, 4.2e-7, 2e-6, 2e-4, 3.0, 5e3)],
                [bench.trim_sigfig(x, n) for x, n in ((3.14159, 2), (0.0012345, 3), (98765.0, 1))],
                [bench.unit_to_english(u) for u in ("ns", "us", "ms", "s")])

    assert units(core) == units(torch)
    with pytest.raises(NotImplementedError):
        _bench(core).Timer("x * y;", language=_bench(core).Language.CPP)


def test_compare_renders_one_table_per_label_in_one_unit(torch):  # the layout; column widths may differ
    def table(lib):
        results = [_measurement(lib, [t * s for t in RAW], label="ops", sub_label=f"[{n}]", description=d)
                   for n, s in ((4, 1.0), (64, 2.0)) for d in ("add", "mul")]
        text = str(_bench(lib).Compare(results)).splitlines()
        return [re.sub("-+", "-", line.split("|")[0].strip()) for line in text]  # rule lengths may differ

    assert table(core) == table(torch)
