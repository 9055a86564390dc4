"""Lesson 6's 'Forgetting zero_grad' by its links, as a learner does it: the buggy loop's 20 losses are drawn on the
loss plot the lesson points at (a run of their own, from the session's steps), and Reset takes back the ticks that
described the run it ended."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from core.nodegraph.lessons.runner import LessonRun
from core.nodegraph.lessons.texts import Action
from tests.gui.real_input import click_link, click_toolbar, shown
from tests.gui.scenarios.test_lessons_by_their_links import checklist, open_example

LOOP, BUGGY = "The loop", "Forgetting zero_grad"


def _loss_points(window, run_number: int) -> list[float]:
    item = window.training.plot.items.get((run_number, "loss"))
    data = item.getData()[1] if item is not None else None
    return [] if data is None else [float(v) for v in data]


def _lines(browser, title: str) -> list[str]:
    following = {LOOP: BUGGY, BUGGY: "Try this"}[title]
    return checklist(browser, title, following)


def test_the_buggy_loops_losses_are_plotted_and_reset_takes_back_its_ticks(qtbot, window):
    w = shown(qtbot, window)
    chosen = open_example(qtbot, w, "06-training-step")
    browser, trainer = w.lessons.panel.browser, w.training.trainer
    click_link(qtbot, browser, "action:train?n=100")
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 100, timeout=60_000)
    qtbot.waitUntil(lambda: all(line.startswith("☑") for line in _lines(browser, LOOP)), timeout=10_000)

    click_toolbar(w, "reset")  # the buggy loop's step: Reset first, as its text says
    qtbot.waitUntil(lambda: all(line.startswith("☐") for line in _lines(browser, LOOP)), timeout=10_000)
    assert all(line.startswith("☐") for line in _lines(browser, BUGGY)), "no tick from the run Reset ended"

    click_link(qtbot, browser, "action:train?n=20&zero_grad=false")
    qtbot.waitUntil(lambda: len(_loss_points(w, 2)) == 20, timeout=30_000)  # run 2 on the plot, step by step
    expected = LessonRun(chosen)
    expected.perform(Action("train", {"n": 20, "zero_grad": False}))
    assert _loss_points(w, 2) == [m["loss"] for m in expected.metrics]
    assert len(_loss_points(w, 1)) == 100, "the first run stays beside it"
    assert trainer.history.runs[1].markers == [(0, "without zero_grad")], "the plot says which run forgot it"
    qtbot.waitUntil(lambda: all(line.startswith("☑") for line in _lines(browser, BUGGY)), timeout=30_000)
    assert "☑ the last loss is 30.91" in _lines(browser, BUGGY)

    click_toolbar(w, "reset")  # the learner starts again: the ticks about that run go
    qtbot.waitUntil(lambda: all(line.startswith("☐") for line in _lines(browser, BUGGY)), timeout=10_000)
    assert all(line.startswith("☐") for line in _lines(browser, LOOP))
    assert not any(h.rule == "loss_diverging" for h in w.training.diagnostics.refresh(force=True)), \
        "the diverging run is over"
