"""The Train panel says which path the training steps took, in a learner's words: the replay of the captured
forward pass, or a step by step (eager) one and why (it said "Step: captured (replaying)", the code's state names;
then "fast replay" even after a Step, which runs every node; then "replayed" for a run whose last step ran every node).
The line is about the last step; after a Train whose earlier steps replayed it says how many did."""

import re

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.nodegraph.files.toy import classifier_graph
from gui.main_window import MainWindow


@pytest.fixture(params=[64])
def window(qtbot, monkeypatch, request):
    """A window on the spiral classifier (batches of ``request.param`` of its 300 rows)."""
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(classifier_graph("spiral", batch_size=request.param))
    qtbot.addWidget(w)
    w.show()
    yield w
    w.training.trainer.pause()
    w.undo_stack.clear()
    w.close()


AFTER_REPLAYS = re.compile(r"Training step: the last step by step \(every node ran\); (\d+) of the (\d+) before it "
                           r"replayed \(recorded once, same numbers\)")


def test_the_train_panel_labels_captured_steps_after_training(qtbot, window):
    window.graph.training["steps"] = 30
    panel = window.training.panel
    QTest.mouseClick(panel.buttons["Train"], Qt.LeftButton)
    qtbot.waitUntil(lambda: window.training.trainer.state == "idle", timeout=60_000)
    qtbot.waitUntil(lambda: AFTER_REPLAYS.fullmatch(panel.step_mode.text()) is not None, timeout=10_000)
    replayed, ran = map(int, AFTER_REPLAYS.fullmatch(panel.step_mode.text()).groups())
    assert ran == 29 and replayed == window.training.trainer.session.trainer.compiled.replays - 1 > 0


@pytest.mark.parametrize("window", [60], indirect=True)  # five whole batches an epoch: every step replays
def test_pausing_a_replaying_train_says_its_last_step_ran_every_node(qtbot, window):
    window.graph.training["steps"] = 100_000
    panel = window.training.panel
    QTest.mouseClick(panel.buttons["Train"], Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.step_mode.text() == "Training step: replayed (recorded once, same numbers)",
                    timeout=60_000)  # while it trains, the steps replay
    QTest.mouseClick(panel.buttons["Pause"], Qt.LeftButton)
    qtbot.waitUntil(lambda: window.training.trainer.state == "paused", timeout=60_000)
    qtbot.waitUntil(lambda: AFTER_REPLAYS.fullmatch(panel.step_mode.text()) is not None, timeout=10_000)
    assert not window.training.trainer.session.trainer.replayed  # the last step, the one the line is about


def test_the_train_panel_says_why_steps_ran_eagerly(qtbot, window):
    window.training.trainer.session.trainer.capture = False
    window.graph.training["steps"] = 5
    panel = window.training.panel
    QTest.mouseClick(panel.buttons["Train"], Qt.LeftButton)
    expected = "Training step: step by step, every node ran (capture is off)"
    qtbot.waitUntil(lambda: panel.step_mode.text() == expected, timeout=60_000)


def test_a_step_after_a_replaying_train_says_every_node_ran(qtbot, window):
    window.graph.training["steps"] = 30
    panel = window.training.panel
    QTest.mouseClick(panel.buttons["Train"], Qt.LeftButton)
    qtbot.waitUntil(lambda: window.training.trainer.state == "idle", timeout=60_000)
    qtbot.waitUntil(lambda: AFTER_REPLAYS.fullmatch(panel.step_mode.text()) is not None, timeout=10_000)
    QTest.mouseClick(panel.buttons["Step"], Qt.LeftButton)
    qtbot.waitUntil(lambda: panel.step_mode.text() == "Training step: step by step (every node ran)", timeout=30_000)


def test_a_first_step_says_why_it_ran_every_node_without_nested_brackets(qtbot, window):
    """The Step button on a document just opened: the line read '... every node ran (first step after a change (the
    next one is recorded))', brackets in brackets."""
    panel = window.training.panel
    QTest.mouseClick(panel.buttons["Step"], Qt.LeftButton)
    expected = "Training step: step by step, every node ran (first step after a change; the next one is recorded)"
    qtbot.waitUntil(lambda: panel.step_mode.text() == expected, timeout=60_000)
