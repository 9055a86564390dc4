"""A lesson's document recovered after a crash comes back with its lesson in front, as the lesson opened it: the
recovered graph opened beside the Nodes library, and the learner had to find the Lesson tab and the step again."""

import os

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QMessageBox

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from tests.gui.conftest import make_window
from tests.gui.real_input import click, click_node, shown
from tests.gui.test_new_after_code import in_front

REAL_QUESTION = QMessageBox.question  # the conftest answers questions at once; this test clicks the real one


def _answer_when_asked(answered: list, button) -> None:
    """Click ``button`` in the question box once it is up (the question runs its own event loop, so this polls)."""
    box = QApplication.activeModalWidget()
    if not isinstance(box, QMessageBox) or not box.isVisible():
        QTimer.singleShot(10, lambda: _answer_when_asked(answered, button))
        return
    answered.append(box.text())
    click(box.button(button))


def test_a_lesson_document_recovered_after_a_crash_opens_with_its_lesson_in_front(qtbot, window, monkeypatch):
    from gui import autosave

    lesson_file = str(EXAMPLES_DIR / "06-training-step.json")
    w = shown(qtbot, window)
    assert w.open_path(lesson_file)
    qtbot.waitUntil(lambda: in_front(w.lessons.dock))
    click_node(qtbot, w, "n2")  # true_w
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit: the lesson's graph is modified
    qtbot.waitUntil(w.is_modified)
    edited = w.graph.to_dict()
    assert w.autosaver.autosave()
    w.autosaver.lock.release()  # the app is killed: the OS drops its lock
    w.hide()

    fresh = shown(qtbot, make_window(qtbot))
    assert in_front(fresh.library_dock) and not in_front(fresh.lessons.dock)  # a fresh window's left column
    answered: list[str] = []
    QTimer.singleShot(0, lambda: _answer_when_asked(answered, QMessageBox.Yes))
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    assert autosave.offer(fresh)  # returns once the question is answered
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.Discard)  # as the conftest answers
    assert "did not close normally" in answered[0]
    assert fresh.graph.to_dict() == edited and fresh.path == lesson_file and fresh.is_modified()
    qtbot.waitUntil(lambda: in_front(fresh.lessons.dock))
    assert not in_front(fresh.library_dock)
    assert "training step" in fresh.lessons.panel.browser.toPlainText().lower()
    assert fresh.status_label.text() == f"Recovered unsaved changes to {os.path.basename(lesson_file)}"
    fresh.undo_stack.setClean()
    fresh.bridge.mark_saved()
