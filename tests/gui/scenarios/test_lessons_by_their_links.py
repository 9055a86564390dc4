"""Scenario: the lessons, opened from File ▸ Examples and driven only by clicking the links in their text.

Lesson 4 is done step by step: each ``do:`` of a step is a click on that step's link, and each ``expect:``
promise is checked against the window's session right there, in written order (the check is the headless
lesson runner's, reading the window's state), and the step's checklist in the text shows every promise
ticked; the values and gradients must be drawn on the nodes, inside the canvas. Its "Try this" resets,
takes x = [1.0, 1.0] typed into the Inspector, and shows that a second Backward all fails. The classifier
playground's Train link trains until the loss plot holds every step and the decision boundary is drawn.
"""

import json

import numpy as np
import pytest

from core.nodegraph.lessons.runner import LessonRun
from core.nodegraph.lessons.texts import list_lessons
from tests.gui.real_input import show_dock
from tests.gui.scenarios import driver as d
from tests.gui.scenarios.test_build_the_chapter_graph import drawn
from tests.gui.waiting import event_loop_turns


def lesson(key: str):
    return next(x for x in list_lessons() if x.key == key)


def open_example(qtbot, window, key: str):
    """File ▸ Examples ▸ the lesson's title; returns the lesson once its text shows in the Lesson dock."""
    chosen = lesson(key)
    d.click_menu(qtbot, window, "File", "Examples", chosen.title)
    panel = window.lessons.panel
    qtbot.waitUntil(lambda: panel.lesson is not None and panel.lesson.key == key)
    qtbot.waitUntil(lambda: panel.browser.isVisible() and not panel.browser.visibleRegion().isEmpty())
    return chosen


def href(action) -> str:
    """The link target of a lesson action as written in the text (``action:backward?retain_graph=true``)."""
    args = "&".join(f"{k}={json.dumps(v) if not isinstance(v, str) else v}" for k, v in action.args.items())
    return f"action:{action.name}" + (f"?{args}" if args else "")


def checker(window, chosen) -> LessonRun:
    """The lesson runner's checks, reading the window's document and session (the runner computes nothing here)."""
    run = LessonRun(chosen)
    run.graph, run.session = window.graph, window.bridge.session
    run.last_node = window.highlight  # the node the last step ran, as the canvas highlights it
    return run


def checklist(browser, title: str, next_title: str | None) -> list:
    """The ☐/☑ lines the Lesson dock shows under the step ``title`` (up to ``next_title``)."""
    text = browser.toPlainText()
    start = text.index(title)
    section = text[start:text.index(next_title, start)] if next_title else text[start:]
    return [line for line in section.splitlines() if line[:1] in ("☐", "☑")]


def follow_step(qtbot, window, chosen, index: int) -> None:
    """Click the step's links for its ``do:`` lines and check each ``expect:`` where it is written; then every
    promise of the step is ticked in the text the learner reads."""
    step, browser = chosen.steps[index], window.lessons.panel.browser
    for kind, item in step.program:
        if kind == "do":
            d.click_link(qtbot, browser, href(item), after=step.title)  # the link acts as it is clicked
            event_loop_turns(qtbot, 3)  # the window settles between two clicks, as between a user's
        else:
            failure = checker(window, chosen).check(step.title, item)
            assert failure is None, failure
    following = chosen.steps[index + 1].title if index + 1 < len(chosen.steps) else None
    qtbot.waitUntil(lambda: all(line.startswith("☑") for line in checklist(browser, step.title, following)))
    assert checklist(browser, step.title, following), f"step {step.title!r} shows no promises"


def test_lesson_4_end_to_end_by_clicking_its_links(qtbot, app_window):
    w = app_window
    chosen = open_example(qtbot, w, "04-autograd-graph")
    titles = {n.title: nid for nid, n in w.graph.nodes.items()}
    for name in titles:  # opened at a size where every node can be read, no Fit all needed
        d.drawn_values(w, titles[name])
    for index, step in enumerate(chosen.steps):
        if not step.title.lower().startswith("try this"):
            follow_step(qtbot, w, chosen, index)
    x, wt, b = np.array([2.0, 3.0]), np.array([1.5, -0.5]), 0.1
    assert drawn(w, titles, "z")[0] == pytest.approx([(x * wt).sum() + b])
    assert drawn(w, titles, "x")[1] == pytest.approx(wt)
    assert drawn(w, titles, "w")[1] == pytest.approx(x)
    assert drawn(w, titles, "b")[1] == pytest.approx([1.0])

    try_this = "Try this"
    d.click_link(qtbot, w.lessons.panel.browser, "action:reset", after=try_this)
    qtbot.waitUntil(lambda: drawn(w, titles, "x") == ([], []))
    d.click_node(qtbot, w, titles["x"])
    show_dock(qtbot, w, w.inspector_dock)
    d.type_into(qtbot, w.inspector.editors["tensor"], "[1.0, 1.0]")
    qtbot.waitUntil(lambda: w.graph.nodes[titles["x"]].params["tensor"] == [1.0, 1.0])
    show_dock(qtbot, w, w.lessons.dock)
    d.click_link(qtbot, w.lessons.panel.browser, "action:backward", after=try_this)
    qtbot.waitUntil(lambda: drawn(w, titles, "w")[1] == pytest.approx([1.0, 1.0]))
    assert drawn(w, titles, "x")[1] == pytest.approx(wt)
    d.click_link(qtbot, w.lessons.panel.browser, "action:backward", after=try_this)  # "a second time"
    qtbot.waitUntil(lambda: "second time" in w.status_label.text())
    assert drawn(w, titles, "w")[1] == pytest.approx([1.0, 1.0])


def test_the_classifier_lessons_train_link_fills_the_loss_plot_and_draws_the_boundary(qtbot, app_window):
    w = app_window
    open_example(qtbot, w, "playground-classifier")
    d.click_link(qtbot, w.lessons.panel.browser, "action:train?n=200", after="Train")
    trainer = w.training.trainer
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 200, timeout=60_000)

    def loss_curve():
        item = w.training.plot.items.get((1, "loss"))
        steps, losses = item.getData() if item is not None else (None, None)
        return (steps, losses) if steps is not None else ([], [])

    qtbot.waitUntil(lambda: len(loss_curve()[0]) == 200)  # the plot catches up without a Pause
    steps, losses = loss_curve()
    assert np.isfinite(losses).all() and losses[-20:].mean() < losses[:20].mean()
    plots, data = w.training.docks["plots"], w.training.docks["data"]
    qtbot.waitUntil(lambda: not plots.visibleRegion().isEmpty())
    assert "200 / 200" in w.training.panel.progress_label.text()
    show_dock(qtbot, w, data)
    qtbot.waitUntil(lambda: w.training.data.image.image is not None)  # the decision boundary behind the points
    assert "decision boundary" in w.training.data.caption.text()
