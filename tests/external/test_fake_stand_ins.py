"""The corpus runs' tqdm stand-in (``fake_stand_ins.Bar``): every way the corpus scripts call tqdm works and draws
nothing, ``tqdm.write`` prints, and the fakes that hand out tqdm hand out this bar. Needs no fetched scripts."""

from __future__ import annotations

import importlib
import io
import os
import sys

import pytest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from fake_stand_ins import Bar


def test_bar_over_an_iterable_yields_its_items_and_counts_them():
    bar = Bar(["a", "b", "c"], desc="loading")
    assert (bar.total, len(bar)) == (3, 3)
    assert list(bar) == ["a", "b", "c"]
    assert bar.n == 3


def test_bar_over_an_iterable_without_a_length_has_no_total():
    bar = Bar(enumerate("xy"))
    assert bar.total is None
    assert list(bar) == [(0, "x"), (1, "y")]


def test_bar_with_total_only_works_as_a_context_manager_moved_by_hand():
    with Bar(total=1.0, desc="NFE: 0") as ctx:  # flow_matching's discrete solver
        ctx.n = 0.25
        ctx.refresh()
        ctx.set_description("NFE: 1")
        ctx.update(0.5)
    assert (ctx.n, ctx.total, ctx.desc) == (0.75, 1.0, "NFE: 1")
    assert list(ctx) == []


def test_bar_takes_its_total_late_and_counts_updates():
    pbar = Bar(total=None)  # d2l's download: the total comes from the response
    if pbar.total is None:
        pbar.total = 100
    pbar.update(40 - pbar.n)
    pbar.update()
    pbar.set_postfix(loss=0.5)
    pbar.set_postfix_str("loss=0.5")
    pbar.close()
    assert (pbar.n, pbar.total) == (41, 100)
    pbar.reset(total=7)
    assert (pbar.n, pbar.total) == (0, 7)


def test_trange_is_a_bar_over_a_range():
    bar = Bar.trange(2, 8, 3, desc="epochs")
    assert isinstance(bar, Bar) and len(bar) == 2
    assert list(bar) == [2, 5]


def test_write_prints_the_message_on_stdout_or_the_file_given(capsys):
    Bar.write("epoch 1 done")
    Bar.write("no newline", end="")
    assert capsys.readouterr().out == "epoch 1 done\nno newline"
    file = io.StringIO()
    Bar.write("to a file", file=file)
    assert file.getvalue() == "to a file\n"


def test_format_num_gives_three_significant_digits_as_lightnings_bar_asks():
    class Tqdm(Bar):  # (Lightning's TQDMProgressBar subclasses tqdm.tqdm so)
        @staticmethod
        def format_num(n):
            return Bar.format_num(n) if not isinstance(n, str) else n

    assert (Tqdm.format_num(0.123456), Tqdm.format_num(1234567), Tqdm.format_num("x")) == ("0.123", "1.23e+06", "x")


@pytest.mark.parametrize("fake", ["fake_lightning_deps", "fake_pyg_deps", "fake_tianshou_deps", "fake_pyro_deps"])
def test_the_fakes_hand_out_the_bar_as_tqdm(fake, monkeypatch):
    for name in ("tqdm", "tqdm.auto"):  # (the fakes that leave an imported tqdm as it is make theirs)
        monkeypatch.delitem(sys.modules, name, raising=False)
    made = importlib.import_module(fake).modules()
    assert made["tqdm"].tqdm is Bar
    assert getattr(made["tqdm"], "auto", made["tqdm"]).tqdm is Bar


def test_a_trainer_bar_of_a_total_counts_to_it_inside_with():
    steps = 0
    with Bar(total=5, desc="Epoch #1", position=1) as t:  # (Tianshou's trainers)
        while t.n < t.total:
            t.update(2)
            t.set_postfix(loss="0.1")
            steps += 1
    assert (steps, t.n) == (3, 6)
