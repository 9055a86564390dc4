"""Scenario: lesson 4 stepped with Page Down alone ticks every promise of each step.

One Page Down runs all of a step's ``do:`` actions (step 1 is Forward step then Forward all), so a promise that
held between two actions ("the last step ran x") must tick although it no longer holds at the end.
"""

from PySide6.QtCore import Qt

from tests.gui.scenarios import driver as d
from tests.gui.scenarios.test_lessons_by_their_links import checklist, open_example


def test_lesson_4_by_page_down_ticks_every_promise_of_each_step(qtbot, app_window):
    w = app_window
    chosen = open_example(qtbot, w, "04-autograd-graph")
    browser = w.lessons.panel.browser
    for i in range(len(chosen.steps) - 1):  # every step before "Try this"
        d.press(qtbot, w, Qt.Key_PageDown)
        title, following = chosen.steps[i].title, chosen.steps[i + 1].title

        def lines(title=title, following=following):
            return checklist(browser, title, following)
        assert lines(), f"step {title!r} shows no checklist"
        qtbot.waitUntil(lambda: all(line.startswith("☑") for line in lines()))
