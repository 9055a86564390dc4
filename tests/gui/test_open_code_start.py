"""File ▸ Open code…'s dialog starts where a user keeps scripts: after a lesson it opened in the app's examples folder,
whose only script is build_examples.py (the tool that rewrites the lessons' files). It now starts in the folder the
last script came from, else where File ▸ Open would start but never in the examples folder; Cancel changes nothing."""

import pytest
from PySide6.QtCore import QDir, Qt
from PySide6.QtWidgets import QApplication, QDialogButtonBox, QFileDialog

from core.nodegraph.lessons import EXAMPLES_DIR
from tests.gui.real_input import click, press, shown
from tests.gui.scenarios.driver import answer_dialog, type_in_dialog

pytest.importorskip("pytestqt")


def _open_code(qtbot, w, fill) -> None:
    """Ctrl+Shift+O, ``fill(dialog)`` once the dialog is up, and wait until it has closed."""
    w.activateWindow()  # back from the last dialog (the offscreen platform has no window manager to do it)
    qtbot.waitUntil(lambda: QApplication.activeWindow() is w)
    answered = answer_dialog(qtbot, QFileDialog, fill)
    press(w, Qt.Key_O, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(answered) and QApplication.activeModalWidget() is None, timeout=20_000)


def _cancel(seen: list):
    """A ``fill``: note the folder the dialog shows, then click its Cancel button."""
    def fill(dialog) -> None:
        seen.append(QDir(dialog.directory().absolutePath()).canonicalPath())
        click(dialog.findChild(QDialogButtonBox).button(QDialogButtonBox.StandardButton.Cancel))
    return fill


def test_after_a_lesson_open_code_starts_at_home_and_cancel_changes_nothing(qtbot, window, dialogs, tmp_path,
                                                                            monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "03-views.json"))  # a lesson: the most recent file is an example
    graph, path, status, title = w.graph, w.path, w.status_label.text(), w.windowTitle()
    seen: list[str] = []
    _open_code(qtbot, w, _cancel(seen))
    assert seen == [QDir(str(home)).canonicalPath()]
    assert (w.graph, w.path, w.status_label.text(), w.windowTitle()) == (graph, path, status, title)
    assert w.undo_stack.isClean() and dialogs == []  # nothing asked or said


def test_open_code_starts_where_the_last_script_came_from(qtbot, window, dialogs, tmp_path):
    scripts = tmp_path / "scripts"
    scripts.mkdir()
    script = scripts / "latin1.py"
    script.write_bytes(b"x = 1\n# caf\xe9\n")  # refused before any run (not UTF-8): no import needed
    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "03-views.json"))
    _open_code(qtbot, w, type_in_dialog(str(script), "fileNameEdit"))
    qtbot.waitUntil(lambda: any(kind == "warning" and "UTF-8" in text for kind, text in dialogs))
    seen: list[str] = []
    _open_code(qtbot, w, _cancel(seen))
    assert seen == [QDir(str(scripts)).canonicalPath()]
