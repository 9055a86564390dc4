"""A copy of an example saved elsewhere reopens with its lesson: the file names the lesson (its id), so File ▸ Open
of the copy shows the lesson's text beside it, as opening the example did. A file naming a lesson this app lacks
opens without one, and the status bar says why."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.nodegraph.files import io as files
from core.nodegraph.lessons import EXAMPLES_DIR
from tests.gui.real_input import open_lesson_by_mouse, press, shown

pytest.importorskip("pytestqt")

JSON = "Nodegrad graphs (*.json)"


def _shown_lesson(w) -> str | None:
    return None if w.lessons.panel.lesson is None else w.lessons.panel.lesson.key


def test_a_copy_of_an_example_saved_elsewhere_reopens_with_its_lesson(qtbot, window, tmp_path, monkeypatch):
    w = shown(qtbot, window)
    open_lesson_by_mouse(qtbot, w, "Playground: fitting a curve")
    qtbot.waitUntil(lambda: _shown_lesson(w) == "playground-regression")
    copy = tmp_path / "my models" / "regression copy.json"
    copy.parent.mkdir()
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(copy), JSON))
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)  # File > Save As
    qtbot.waitUntil(lambda: w.path == str(copy))
    assert json.loads(copy.read_text())["lesson"] == "playground-regression"

    press(w, Qt.Key_N, Qt.ControlModifier)  # File > New: no lesson
    qtbot.waitUntil(lambda: w.path is None and w.lessons.panel.lesson is None)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(copy), JSON))
    press(w, Qt.Key_O, Qt.ControlModifier)  # File > Open the copy
    qtbot.waitUntil(lambda: w.path == str(copy))
    qtbot.waitUntil(lambda: _shown_lesson(w) == "playground-regression")
    qtbot.waitUntil(w.lessons.dock.isVisible)
    assert "regression" in w.lessons.panel.browser.toPlainText().lower()


def test_a_file_naming_an_unknown_lesson_opens_without_one_and_says_so(qtbot, window, tmp_path, monkeypatch):
    w = shown(qtbot, window)
    data = json.loads(files.dumps(files.load(EXAMPLES_DIR / "04-autograd-graph.json")))
    path = tmp_path / "from a newer app.json"
    path.write_text(json.dumps({**data, "lesson": "42-lesson-from-the-future"}))
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), JSON))
    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.path == str(path))
    assert w.lessons.panel.lesson is None
    assert len(w.graph.nodes) == len(data["nodes"])
    qtbot.waitUntil(lambda: "without its lesson" in w.status_label.text())
    assert "42-lesson-from-the-future" in w.status_label.text()
