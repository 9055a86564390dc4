"""The Train dock's progress line at 1366x768: "579 / 100000 steps · loss 0.0009 · 194 steps/s · 23.9 s left" is
wider than the dock, so it breaks onto a second line at a " · " and reads whole, without its tooltip."""

from tests.gui.real_input import click, show_dock, shown, type_text
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def test_the_progress_line_reads_whole_while_training_at_1366(window, qtbot):
    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-classifier")
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, panel.steps, "100000")
    click(panel.buttons["Train"])
    line = panel.progress_label
    too_wide = lambda: line.fontMetrics().horizontalAdvance(line.text()) > line.width()  # noqa: E731
    qtbot.waitUntil(lambda: "steps/s" in line.text() and "s left" in line.text() and too_wide(), timeout=20000)
    # (no event runs between the wait and these lines: the text is the one that was too wide for one line)
    assert not line.is_cut() and len(line.lines()) == 2 and line.height() >= 2 * line.fontMetrics().height()
    assert " · ".join(line.lines()) == line.text()
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: w.training.trainer.state != "training")
