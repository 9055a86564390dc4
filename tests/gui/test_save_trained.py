"""A graph saved after training reopens trained: Train, Ctrl+S, open the file again, Forward all (F5) gives the
trained loss bit for bit, not the untrained one; the status bar says the trained values were saved."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.files.toy import classifier_graph
from gui.main_window import MainWindow
from tests.gui.real_input import click, press, shown


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    w = MainWindow(classifier_graph("moons", batch_size=0, steps=15))  # the whole set each step: one loss
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.undo_stack.clear()
    w.close()


def _forward_loss(qtbot, w) -> float:
    press(w, Qt.Key_F5)  # Run > Forward all
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.value("n3") is not None,
                    timeout=30_000)
    return w.bridge.session.value("n3").item()


def test_train_save_and_reopen_gives_the_trained_loss(qtbot, window, tmp_path):
    w = shown(qtbot, window)
    path = str(tmp_path / "trained.json")
    assert w.save_to(path)  # the document has a file: Ctrl+S writes there without a dialog
    untrained = _forward_loss(qtbot, w)
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.bridge.session.step_count == 15,
                    timeout=60_000)
    trained = _forward_loss(qtbot, w)
    assert trained < untrained * 0.9
    press(w, Qt.Key_S, Qt.ControlModifier)  # File > Save
    qtbot.waitUntil(lambda: "with the trained parameter values" in w.status_label.text())
    assert w.open_path(path)
    assert w.status_label.text().startswith("Opened trained.json with its trained parameter values")
    assert _forward_loss(qtbot, w) == trained  # bit for bit: the step count came back, so the rows' order too
    assert w.bridge.session.step_count == 15
    press(w, Qt.Key_R, Qt.ControlModifier)  # Run > Reset: the parameters start again from their seeds
    qtbot.waitUntil(lambda: w.bridge.session.value("n3") is None)
    assert _forward_loss(qtbot, w) == untrained


def test_a_graph_saved_before_training_says_nothing_of_trained_values(qtbot, window, tmp_path):
    w = shown(qtbot, window)
    path = str(tmp_path / "plain.json")
    assert w.save_to(path)
    _forward_loss(qtbot, w)
    press(w, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Saved"))
    assert "trained" not in w.status_label.text()
    assert w.open_path(path)
    assert "trained" not in w.status_label.text()



def test_the_recovery_file_of_a_trained_graph_keeps_its_trained_values(qtbot, tmp_path, monkeypatch):
    from core.nodegraph.files import io as files
    from gui import autosave

    monkeypatch.setattr(autosave, "recovery_dir", lambda: str(tmp_path / "recovery"))  # never the user's cache
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)
    w = MainWindow(classifier_graph("moons", batch_size=0, steps=15))
    qtbot.addWidget(w)
    shown(qtbot, w)
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.bridge.session.step_count == 15,
                    timeout=60_000)
    assert w.undo_stack.isClean() and w.is_modified()  # no edit: the training alone is a change to keep
    assert w.autosaver.autosave()
    assert set(files.load(w.autosaver.path).trained_values) == {"n2", "@session"}  # and where training stood
    assert not w.autosaver.autosave()  # written already: nothing changed since
    click(w.training.panel.buttons["Step"])
    qtbot.waitUntil(lambda: w.bridge.session.step_count == 16)
    assert w.autosaver.autosave()  # one more step: written again
    trained = _forward_loss(qtbot, w)
    assert w.open_path(w.autosaver.path)
    assert _forward_loss(qtbot, w) == trained
    w.undo_stack.clear()
    w.close()
