"""The scenarios' window: the app's window at each common screen size, with real message boxes.

tests/gui/conftest.py answers message boxes at once (``dialogs``); a scenario answers them as a user does,
so the real ``QMessageBox.question`` and ``warning`` are put back here. A modal dialog that nothing answers
would wait forever: the watchdog closes one that stays up for STUCK_S seconds and fails the test instead.
"""

import time

import pytest
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from tests.gui.scenarios.driver import SIZES, start

REAL_QUESTION, REAL_WARNING = QMessageBox.question, QMessageBox.warning
STUCK_S = 30.0


@pytest.fixture
def real_message_boxes(dialogs, monkeypatch):
    monkeypatch.setattr(QMessageBox, "question", REAL_QUESTION)
    monkeypatch.setattr(QMessageBox, "warning", REAL_WARNING)


@pytest.fixture(autouse=True)
def stuck_dialogs(qtbot):
    """Closes a modal dialog left unanswered for STUCK_S seconds; the test fails naming it."""
    stuck, seen = [], {}

    def check():
        dialog = QApplication.activeModalWidget()
        if dialog is None:
            seen.clear()
            return
        first = seen.setdefault(id(dialog), time.monotonic())
        if time.monotonic() - first > STUCK_S:
            stuck.append(f"{type(dialog).__name__} {dialog.windowTitle()!r}")
            dialog.reject()

    timer = QTimer()
    timer.timeout.connect(check)
    timer.start(200)
    yield stuck
    timer.stop()
    assert not stuck, f"a modal dialog waited for an answer that never came: {stuck}"


@pytest.fixture(params=SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def screen(request):
    return request.param


@pytest.fixture
def app_window(qtbot, node_types, real_message_boxes, screen):
    """The window ``python app.py`` opens (the chapter's graph), shown at ``screen`` size; marked saved and
    closed afterwards, so closing it asks no question."""
    window = start(qtbot, screen)
    yield window
    window.undo_stack.setClean()
    window.bridge.mark_saved()  # (training marks the document modified too)
    window.close()
    window.deleteLater()
