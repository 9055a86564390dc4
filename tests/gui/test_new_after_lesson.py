"""File ▸ New (Ctrl+N) after a lesson: the left column shows the Nodes library, where an empty graph begins and
where the empty canvas's hint points; it showed the Lesson tab in front with its no-lesson hint. A lesson opened
next still comes with its Lesson tab in front."""

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import open_lesson_by_mouse, press, shown
from tests.gui.test_new_after_code import in_front


def _lesson_opened(qtbot, w, title_start: str, stem: str) -> None:
    open_lesson_by_mouse(qtbot, w, title_start)
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith(stem), timeout=60_000)
    w.activateWindow()  # as the window manager gives the keys back once the Lessons box is gone
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w, timeout=60_000)
    qtbot.waitUntil(lambda: in_front(w.lessons.dock), timeout=60_000)


def test_new_after_a_lesson_shows_the_node_library_and_the_next_lesson_its_text(qtbot, window):
    w = shown(qtbot, window)
    _lesson_opened(qtbot, w, "6.", "06-training-step.json")
    assert not in_front(w.library_dock)
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes and w.path is None, timeout=60_000)
    qtbot.waitUntil(lambda: in_front(w.library_dock), timeout=60_000)
    assert not in_front(w.lessons.dock)
    hint = w.view.empty_hint
    qtbot.waitUntil(hint.isVisible)
    assert "Nodes tab" in hint.text()

    _lesson_opened(qtbot, w, "7.", "07-gradcheck.json")  # a lesson still opens beside its text
    assert not in_front(w.library_dock)
    _lesson_opened(qtbot, w, "8.", "08-gradient-flow.json")  # and one lesson after another keeps it in front
    assert "Controlling gradient flow" in w.lessons.panel.browser.toPlainText()
