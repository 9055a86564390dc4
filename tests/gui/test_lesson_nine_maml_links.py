"""Lesson 9's MAML step by its links: 'use outer_loss', Forward all and Backward all are each a click in its text
(it said "run backward" with nothing to click), and the step's promises come true and are ticked."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from tests.gui.real_input import shown
from tests.gui.scenarios.test_lessons_by_their_links import follow_step, open_example

MAML = "A MAML-style inner step"


def test_the_maml_steps_links_run_it_and_tick_its_promises(qtbot, window):
    w = shown(qtbot, window)
    chosen = open_example(qtbot, w, "09-higher-order")
    index = next(i for i, step in enumerate(chosen.steps) if step.title == MAML)
    follow_step(qtbot, w, chosen, index)  # clicks each do: line's link, checks each expect: against the session
    grads = w.bridge.session.inspector.node_info(next(n for n, node in w.graph.nodes.items() if node.title == "w"))
    assert tuple(grads["out"].grad.shape) == (2, 1)
