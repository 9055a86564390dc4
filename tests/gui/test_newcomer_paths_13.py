"""The first hour, by hand, a thirteenth time: three things a newcomer met under a real virtual screen
(1366x768), each driven here through the real window's mouse and keys."""

from PySide6.QtCore import QSettings

from tests.gui.real_input import open_lesson_by_mouse, shown


def test_the_first_start_names_lesson_fours_document_in_the_title_as_help_lessons_does(qtbot, window, tmp_path):
    """The first start showed lesson 4 and its graph under the title "untitled — Nodegrad"."""
    assert window.lessons.first_start(QSettings(str(tmp_path / "first.ini"), QSettings.IniFormat))
    w = shown(qtbot, window)
    first = w.windowTitle()
    assert first == "04-autograd-graph.json — Nodegrad"
    assert w.lessons.panel.lesson.key == "04-autograd-graph" and not w.is_modified()
    open_lesson_by_mouse(qtbot, w, "5. ")  # another lesson, then lesson 4 again by Help ▸ Lessons
    qtbot.waitUntil(lambda: w.windowTitle().startswith("05-"))
    open_lesson_by_mouse(qtbot, w, "4. ")
    qtbot.waitUntil(lambda: w.windowTitle() == first)
