"""The first hour, by hand, a thirteenth time: three things a newcomer met under a real virtual screen
(1366x768), each driven here through the real window's mouse and keys."""

from PySide6.QtCore import QEvent, QKeyCombination, QObject, QSettings, Qt, QTimer
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QInputDialog, QLineEdit

from tests.gui.real_input import click, open_lesson_by_mouse, press, shown


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


class _ClaimsCtrlE(QObject):
    """X11's key bindings in a line edit: Ctrl+E is "end of line", claimed before any window shortcut (the
    offscreen platform's bindings leave it unclaimed, so the test gives the field X11's)."""

    def eventFilter(self, obj, event):
        if event.type() == QEvent.ShortcutOverride and event.keyCombination() == QKeyCombination(
                Qt.ControlModifier, Qt.Key_E):
            event.accept()
            return True
        return False


def test_ctrl_e_in_the_learning_rate_field_opens_insert_expression_and_typing_goes_there(qtbot, window):
    """Ctrl+E did nothing with a field focused (the field took it as "end of line"), and the formula typed next
    went into the Learning rate."""
    w = shown(qtbot, window)
    press(w, Qt.Key_3, Qt.ControlModifier)  # View ▸ Focus Train
    lr = w.training.panel.lr
    qtbot.waitUntil(lr.isVisible)
    claims = _ClaimsCtrlE(lr)
    for field in (lr, lr.lineEdit()):
        field.installEventFilter(claims)
    click(lr.lineEdit())
    qtbot.waitUntil(lambda: QApplication.focusWidget() in (lr, lr.lineEdit()))
    before, nodes = lr.text(), set(w.graph.nodes)
    typed = {}

    def type_formula():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(10, type_formula)
            return
        edit = dialog.findChild(QLineEdit)
        typed["title"] = dialog.windowTitle()
        QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(edit, "u * v")
        QTest.keyClick(edit, Qt.Key_Return)

    QTimer.singleShot(0, type_formula)
    QTest.keyClick(QApplication.focusWidget(), Qt.Key_E, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == len(nodes) + 3)
    assert typed["title"] == "Insert expression"
    assert lr.text() == before
    assert {w.graph.node(n).title for n in set(w.graph.nodes) - nodes} >= {"u", "v"}
