"""Ctrl+Z and Ctrl+Shift+Z in a Train dock field undo and redo the document, as in the Inspector's fields: a
number field keeps the focus after Return and took the keys for its own text, so Ctrl+Z after "Training: lr set to
0.1" did nothing (the Undo button did)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import show_dock, shown, type_text


def _lr(w):
    return (w.graph.training.get("optimizer_params") or {}).get("lr")


def test_ctrl_z_in_the_learning_rate_field_undoes_the_typed_rate_and_ctrl_shift_z_redoes_it(window, qtbot):
    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    lr = w.training.panel.lr
    before = _lr(w)
    type_text(qtbot, lr, "0.1")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: lr set to 0.1")
    assert lr.hasFocus() and _lr(w) == 0.1
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Undone: Training: lr set to 0.1")
    assert _lr(w) == before and lr.value() == before
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Redone: Training: lr set to 0.1")
    assert _lr(w) == 0.1 and lr.value() == 0.1


def test_ctrl_z_in_a_train_field_with_typed_text_takes_back_the_typing_first(window, qtbot):
    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    steps = w.training.panel.steps
    type_text(qtbot, steps, "300")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: steps set to 300")
    QTest.keyClicks(steps, "7")  # typed, not applied: Ctrl+Z is the field's own
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: steps.lineEdit().text() == "300")
    assert w.graph.training["steps"] == 300 and w.status_label.text() == "Training: steps set to 300"


def test_after_ctrl_z_the_learning_rate_field_shows_its_restored_rate_whole_selected(window, qtbot):
    """Qt kept the selection's length over the restored text: after 0.1 (selected whole by Return), Ctrl+Z wrote
    0.02 and showed "0.0" of it selected, as if part of the rate were marked."""
    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    lr = w.training.panel.lr
    type_text(qtbot, lr, "0.02")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: lr set to 0.02")
    type_text(qtbot, lr, "0.1")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: lr set to 0.1")
    edit = lr.lineEdit()
    assert edit.selectedText() == edit.text() == "0.1"  # as Return leaves it
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Undone: Training: lr set to 0.1")
    assert edit.text() == "0.02" and edit.selectedText() == "0.02"
    QTest.keyClicks(edit, "0.5")  # typing replaces the whole rate, not part of it
    assert edit.text() == "0.5"


def test_ctrl_z_of_a_learning_rate_during_training_marks_the_plots_with_the_rate_put_back(window, qtbot):
    """Typing a rate marks the run where it changed; its Ctrl+Z marked nothing, so the run's last marker still read
    'lr 0.02 → 0.1' while the rate was back at 0.02 (and the live optimizer was rebuilt, not retuned)."""
    from core.nodegraph.lessons.texts import EXAMPLES_DIR
    from tests.gui.real_input import click

    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "06-training-step.json"))  # a model to train
    show_dock(qtbot, w, w.training.docks["train"])
    lr = w.training.panel.lr
    type_text(qtbot, lr, "0.02")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: lr set to 0.02")
    click(w.training.panel.buttons["Step"])
    qtbot.waitUntil(lambda: w.training.trainer.history.current is not None
                    and len(w.training.trainer.history.current) == 1, timeout=60_000)
    run = w.training.trainer.history.current
    type_text(qtbot, lr, "0.1")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: lr set to 0.1")
    assert [text for _, text in run.markers][-1] == "lr 0.02 → 0.1"
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Undone: Training: lr set to 0.1")
    assert [text for _, text in run.markers][-2:] == ["lr 0.02 → 0.1", "lr 0.1 → 0.02"]
    assert w.bridge.session.current_optimizer.param_groups[0]["lr"] == 0.02
