"""Help ▸ Lessons opens a titled dialog (it was an untitled popup menu in the middle of the window): the lessons
with a few words on the selected one, Return opens it, Escape closes, and it fits a 1366x768 screen."""

import pytest
from PySide6.QtCore import QRect, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui.lessons_dialog import LessonsDialog
from tests.gui.real_input import click, shown

pytest.importorskip("pytestqt")


def _open_from_help_menu(qtbot, w) -> LessonsDialog:
    bar = w.menuBar()
    help_menu = next(a for a in bar.actions() if a.text().replace("&", "") == "Help")
    click(bar, bar.actionGeometry(help_menu).center())
    menu = help_menu.menu()
    qtbot.waitUntil(menu.isVisible)
    entry = next(a for a in menu.actions() if a.objectName() == "action_lessons")
    click(menu, menu.actionGeometry(entry).center())
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), LessonsDialog))
    dialog = QApplication.activeModalWidget()
    qtbot.waitUntil(dialog.list.hasFocus)
    return dialog


def test_help_lessons_is_a_titled_dialog_that_escape_closes(qtbot, window):
    w = shown(qtbot, window)
    help_menu = next(a.menu() for a in w.menuBar().actions() if a.text().replace("&", "") == "Help")
    assert [a.objectName() for a in help_menu.actions()] == ["action_lessons", "action_shortcuts", "action_about"]
    dialog = _open_from_help_menu(qtbot, w)
    assert dialog.windowTitle() == "Lessons"
    assert QRect(0, 0, 1366, 768).contains(QRect(0, 0, dialog.width(), dialog.height()).adjusted(0, 0, 40, 60))
    titles = [dialog.list.item(i).text() for i in range(dialog.list.count())]
    assert titles[0].startswith("1. ") and any(t.startswith("Playground") for t in titles)
    assert dialog.about.text().startswith("A tensor is a multidimensional array")  # the selected one's words
    QTest.keyClick(dialog.list, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not dialog.isVisible())
    assert w.path is None  # nothing was opened


def test_return_opens_the_selected_lesson_beside_its_graph(qtbot, window):
    w = shown(qtbot, window)
    dialog = _open_from_help_menu(qtbot, w)
    for _ in range(5):
        QTest.keyClick(dialog.list, Qt.Key_Down)
    qtbot.waitUntil(lambda: dialog.list.currentItem().text().startswith("6. "))
    assert dialog.about.text().startswith("The canonical iteration")
    QTest.keyClick(dialog.list, Qt.Key_Return)
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("06-training-step.json"))
    qtbot.waitUntil(lambda: w.lessons.panel.lesson is not None and w.lessons.panel.lesson.key == "06-training-step")
    assert not dialog.isVisible()

    again = _open_from_help_menu(qtbot, w)  # the open lesson is the one selected
    assert again.list.currentItem().text().startswith("6. ")
    click(again.list.viewport(), again.list.visualItemRect(again.list.item(0)).center())
    qtbot.waitUntil(lambda: again.list.currentRow() == 0)
    QTest.mouseDClick(again.list.viewport(), Qt.LeftButton, Qt.NoModifier,
                      again.list.visualItemRect(again.list.item(0)).center())
    qtbot.waitUntil(lambda: w.path is not None and w.path.endswith("01-tensors.json"))
