"""Training is a change a save keeps: Train, a training Step, Run ▸ Optimizer step and Reset mark the document
modified (the title's asterisk; New, Open and closing ask to save), Ctrl+S clears it, and a session saved after
training and opened again (File ▸ Open) gives the trained loss and then the very step the unsaved one makes."""

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog, QMessageBox

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.run.session import Session
from gui.main_window import MainWindow
from tests.gui.real_input import click, press, shown


@pytest.fixture
def asked(monkeypatch):
    """The "Unsaved changes" questions asked, each answered with Cancel (the document stays)."""
    questions: list[str] = []

    def question(_parent, title, *_args, **_kwargs):
        questions.append(title)
        return QMessageBox.StandardButton.Cancel

    monkeypatch.setattr(QMessageBox, "question", question)
    return questions


@pytest.fixture
def window(qtbot):
    w = MainWindow(classifier_graph("moons", batch_size=32, steps=6))  # minibatches: the step picks the rows
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.bridge.mark_saved()
    w.undo_stack.clear()
    w.close()


def _train(qtbot, w, steps: int) -> None:
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.bridge.session is not None
                    and w.bridge.session.step_count == steps, timeout=60_000)


def _forward_loss(qtbot, w) -> float:
    press(w, Qt.Key_F5)  # Run > Forward all
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.value("n3") is not None,
                    timeout=30_000)
    return w.bridge.session.value("n3").item()


def _starred(w) -> bool:
    return w.windowTitle().split(" — ")[0].endswith("*")


def test_training_marks_the_document_modified_until_it_is_saved(qtbot, window, asked, tmp_path):
    w = shown(qtbot, window)
    assert w.save_to(str(tmp_path / "t.json"))
    assert not _starred(w) and not w.is_modified()
    _train(qtbot, w, 6)
    assert w.is_modified() and _starred(w)
    press(w, Qt.Key_N, Qt.ControlModifier)  # File > New: the trained values would be lost, so it asks
    qtbot.waitUntil(lambda: asked == ["Unsaved changes"])
    assert set(w.graph.nodes) == {"n1", "n2", "n3"}  # Cancel keeps the document
    press(w, Qt.Key_S, Qt.ControlModifier)  # File > Save
    qtbot.waitUntil(lambda: "with the trained parameter values" in w.status_label.text())
    assert not w.is_modified() and not _starred(w)
    press(w, Qt.Key_N, Qt.ControlModifier)  # saved: New asks nothing
    qtbot.waitUntil(lambda: not w.graph.nodes)
    assert asked == ["Unsaved changes"]


def test_a_training_step_and_reset_mark_it_modified_too(qtbot, window, asked, tmp_path):
    w = shown(qtbot, window)
    assert w.save_to(str(tmp_path / "t.json"))
    click(w.training.panel.buttons["Step"])  # one optimizer step
    qtbot.waitUntil(lambda: w.bridge.session is not None and w.bridge.session.step_count == 1)
    qtbot.waitUntil(lambda: _starred(w))
    press(w, Qt.Key_S, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not _starred(w))
    press(w, Qt.Key_R, Qt.ControlModifier)  # Run > Reset: the saved trained values would go
    qtbot.waitUntil(lambda: _starred(w))
    assert w.is_modified() and w.bridge.session.step_count == 0


def test_run_menu_optimizer_step_marks_it_modified(qtbot, window, asked, tmp_path):
    w = shown(qtbot, window)
    assert w.save_to(str(tmp_path / "t.json"))
    _forward_loss(qtbot, w)
    press(w, Qt.Key_F5, Qt.ShiftModifier)  # Run > Backward all
    qtbot.waitUntil(lambda: not w.stepper.active and w.bridge.session.grad("n2", "0.weight") is not None,
                    timeout=30_000)
    assert not _starred(w)  # forward and backward change no parameter
    press(w, Qt.Key_F9)  # Run > Optimizer step
    qtbot.waitUntil(lambda: _starred(w))


def test_closing_after_training_asks_to_save(qtbot, window, asked, tmp_path):
    w = shown(qtbot, window)
    assert w.save_to(str(tmp_path / "t.json"))
    _train(qtbot, w, 6)
    assert not w.close()  # Cancel: the window stays open with its trained values
    assert asked == ["Unsaved changes"] and w.isVisible()


def _reference(steps: int) -> tuple[list[float], dict[str, np.ndarray]]:
    """The same graph trained without saving, headless: its losses and its parameters after ``steps``."""
    s = Session(classifier_graph("moons", batch_size=32, steps=6))
    losses = [m["loss"] for m in s.train(steps)]
    return losses, {k: t.detach().numpy().copy() for k, t in s.parameters().items()}


def test_a_saved_trained_session_reopens_and_steps_on_bit_for_bit(qtbot, window, asked, tmp_path, monkeypatch):
    w = shown(qtbot, window)
    path = str(tmp_path / "trained.json")
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (path, "Nodegrad graphs (*.json)"))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (path, "Nodegrad graphs (*.json)"))
    _train(qtbot, w, 6)
    trained = _forward_loss(qtbot, w)
    press(w, Qt.Key_S, Qt.ControlModifier)  # untitled: the (patched) Save dialog names the file
    qtbot.waitUntil(lambda: "with the trained parameter values" in w.status_label.text())
    press(w, Qt.Key_O, Qt.ControlModifier)  # File > Open the saved file
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Opened trained.json with its trained"))
    assert asked == [] and not _starred(w)
    assert _forward_loss(qtbot, w) == trained  # bit for bit: the batch of the same step, the same values
    assert w.bridge.session.step_count == 6
    click(w.training.panel.buttons["Step"])  # the seventh step, as the unsaved session would have made it
    qtbot.waitUntil(lambda: w.bridge.session.step_count == 7)
    losses, params = _reference(7)
    assert w.training.trainer.last_loss == losses[-1]
    for key, value in params.items():
        np.testing.assert_array_equal(w.bridge.session.parameters()[key].detach().numpy(), value, err_msg=key)
