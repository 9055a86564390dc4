"""Every action a lesson step performs (its ``do:`` lines) is a link in that step's text: the learner clicks what
the step's checklist expects to have happened (lesson 9's MAML step said "run backward" with nothing to click)."""

from __future__ import annotations

import pytest

from core.nodegraph.lessons.texts import links, list_lessons

STEPS = [(lesson.key, step) for lesson in list_lessons() for step in lesson.steps]


@pytest.mark.parametrize(("key", "step"), STEPS, ids=[f"{key}: {step.title}" for key, step in STEPS])
def test_every_do_line_of_a_step_is_a_link_in_the_steps_text(key, step):
    linked = [found.target for found in links(step.text) if found.kind == "action"]
    assert [item for kind, item in step.program if kind == "do" and item not in linked] == []
