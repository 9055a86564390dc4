"""The Train panel's early stopping: "Stop after no improvement" watches the validation loss (or, as chosen, the
training loss), and the stop message says which one it watched."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.model.commands import SetParam
from gui.main_window import MainWindow
from tests.nodegraph.test_stop_watch import frozen_classifier


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    windows = []

    def make(fraction=0.2):
        w = MainWindow(frozen_classifier(fraction))
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.training.trainer.pause()
        w.undo_stack.clear()
        w.close()


def _train(qtbot, w, steps=50):
    w.training.trainer.train(steps)
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=60_000)


def _choose(qtbot, combo, text):
    """Pick an entry as a user does: open the combo's list and click the entry."""
    combo.showPopup()
    view = combo.view()
    index = view.model().index(combo.findText(text), 0)
    qtbot.mouseClick(view.viewport(), Qt.LeftButton, pos=view.visualRect(index).center())
    qtbot.waitUntil(lambda: combo.currentText() == text)


def test_patience_watches_the_validation_loss_by_default_and_the_message_says_so(qtbot, window):
    w = window()
    panel = w.training.panel
    assert panel.watch.currentText() == "validation loss" and not panel.watch.isEnabled()
    panel.patience.setValue(3)
    assert panel.watch.isEnabled()
    _train(qtbot, w)
    run = w.training.trainer.history.current
    assert len(run) == 6  # validation measured at steps 1, 3, 5: the flat training loss would have stopped at 3
    text = panel.message.text()
    assert "no improvement in val_loss for 3 steps" in text and "at step 1" in text
    assert "no improvement in val_loss" in w.status_label.text()


def test_choosing_the_training_loss_stops_on_it(qtbot, window):
    w = window()
    panel = w.training.panel
    panel.patience.setValue(3)
    _choose(qtbot, panel.watch, "training loss")
    assert w.training.trainer.stop_conditions.watch == "loss"
    _train(qtbot, w)
    assert len(w.training.trainer.history.current) == 4
    assert "no improvement in loss for 3 steps" in panel.message.text()


def test_without_a_split_the_choice_says_it_watches_the_training_loss(qtbot, window):
    w = window(fraction=0.0)
    panel = w.training.panel
    assert panel.watch.itemText(0) == "training loss (no validation split)"
    panel.patience.setValue(3)
    _train(qtbot, w)
    assert "no improvement in loss for 3 steps" in panel.message.text()
    w.scene.edit(SetParam("n1", "val_fraction", 0.2))
    assert panel.watch.itemText(0) == "validation loss"


def test_stop_conditions_are_document_settings_undoable_and_saved(qtbot, window, tmp_path):
    from core.nodegraph.files import io as files

    w = window()
    panel = w.training.panel
    panel.patience.setValue(3)
    _choose(qtbot, panel.watch, "training loss")
    qtbot.mouseClick(panel.stop_nan, Qt.LeftButton)
    saved = {"loss_below": None, "patience": 3, "stop_on_nan": False, "watch": "loss"}
    assert w.bridge.graph.training["stop"] == saved
    path = tmp_path / "stops.json"
    files.save(w.bridge.graph, path)
    assert files.load(path).training["stop"] == saved
    w.undo_stack.undo()  # the NaN box again
    assert panel.stop_nan.isChecked() and w.training.trainer.stop_conditions.stop_on_nan
    w.undo_stack.undo()
    w.undo_stack.undo()  # back to no patience: the trainer follows the document
    assert panel.patience.value() == 0 and w.training.trainer.stop_conditions.patience is None


def test_a_file_with_stop_conditions_sets_the_panel_and_training_follows_them(qtbot, window, tmp_path):
    from core.nodegraph.files import io as files

    graph = frozen_classifier(0.2)
    graph.set_training("stop", {"patience": 3, "watch": "loss"})
    path = tmp_path / "stops.json"
    files.save(graph, path)
    w = window()
    assert w.open_path(str(path))
    panel = w.training.panel
    assert panel.patience.value() == 3 and panel.watch.currentData() == "loss"
    _train(qtbot, w)
    assert len(w.training.trainer.history.current) == 4
    assert "no improvement in loss for 3 steps" in panel.message.text()
