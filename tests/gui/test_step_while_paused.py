"""Step while a Train is paused (lesson 6, 1366x768): the status bar and the Train dock's line both follow the step.

By hand, Pause after 923 steps then Step left the status bar at "Training paused after 923 of 100000 steps, loss
1.69e-12" beside the dock's "924 / 100000 steps · loss 4.42e-12", and that line said "7 steps/s" for a run that
trained at 140: the rate counted the time between Pause and the click on Step."""

from tests.gui.real_input import click, show_dock, shown, type_text
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def test_step_after_pause_updates_the_status_bar_and_claims_no_rate(window, qtbot):
    w = shown(qtbot, window)
    open_example(qtbot, w, "06-training-step")
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, panel.steps, "100000")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.done >= 20, timeout=20000)
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: trainer.state == "paused")
    paused_at = trainer.done
    status = w.status_label
    assert f"after {paused_at} of 100000 steps" in status.text()
    click(panel.buttons["Step"])
    qtbot.waitUntil(lambda: trainer.done == paused_at + 1)
    qtbot.waitUntil(lambda: f"after {paused_at + 1} of 100000 steps" in status.text())
    line = panel.progress_label.text()
    assert line.startswith(f"{paused_at + 1} / 100000 steps") and "steps/s" not in line
