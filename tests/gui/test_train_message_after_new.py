"""A document opened while another trains starts with a clean Train dock: the dock kept "Stopped: another document
was opened" beside the new document, which never trained (the stop was said after the new run's empty progress
had cleared the dock's lines). The status bar says that training stopped, where it says what just happened."""

from PySide6.QtCore import Qt

from tests.gui.real_input import click, press, show_dock, shown, type_text
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _train_a_few_steps(qtbot, w) -> None:
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, panel.steps, "100000")  # still training when the next document opens (100 steps took < 1 s)
    qtbot.waitUntil(lambda: w.graph.training.get("steps") == 100000)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "training" and trainer.done >= 2, timeout=60_000)


def test_a_document_opened_or_new_while_training_shows_no_message_of_the_old_run(qtbot, window):
    w = shown(qtbot, window)
    panel = w.training.panel
    open_example(qtbot, w, "06-training-step")
    _train_a_few_steps(qtbot, w)
    open_example(qtbot, w, "07-gradcheck")  # File ▸ Examples by clicks, while lesson 6 trains
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle")
    assert w.status_label.text() == "Training stopped: another document was opened"
    assert panel.message.text() == "" and panel.message.isHidden()
    assert panel.progress_label.isHidden() and panel.progress_bar.isHidden()

    open_example(qtbot, w, "06-training-step")
    _train_a_few_steps(qtbot, w)
    press(w, Qt.Key_N, Qt.ControlModifier)  # File ▸ New
    qtbot.waitUntil(lambda: not w.graph.nodes and w.training.trainer.state == "idle", timeout=60_000)
    assert w.status_label.text() == "Training stopped: another document was opened"
    assert panel.message.text() == "" and panel.message.isHidden()
