"""File ▸ Examples sits with Open and Open Recent, Quit is last; file dialogs start in the document's
folder (the examples folder for an example), else the last file's folder or home, never the working directory."""

import os

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui import file_ops
from tests.gui.real_input import press, shown


def _file_menu_texts(window) -> list:
    return [a.text().replace("&", "") for a in window.menus["File"].actions() if not a.isSeparator()]


def test_examples_come_before_quit_and_quit_is_last(window):
    texts = _file_menu_texts(window)
    assert texts[-1] == "Quit"
    assert texts.index("Open…") < texts.index("Examples") < texts.index("Save")


@pytest.fixture
def asked(monkeypatch):
    """The folder or path each file dialog was opened with (the dialog answers Cancel)."""
    seen = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: seen.append(a[2]) or ("", ""))
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: seen.append(a[2]) or ("", ""))
    return seen


def test_open_starts_in_the_folder_of_the_open_example(window, qtbot, asked, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = shown(qtbot, window)
    assert w.open_path(str(EXAMPLES_DIR / "04-autograd-graph.json"))
    press(w, Qt.Key_O, Qt.ControlModifier)  # File > Open
    qtbot.waitUntil(lambda: len(asked) == 1)
    assert os.path.samefile(asked[0], EXAMPLES_DIR)


def test_save_as_of_a_new_document_starts_in_the_last_files_folder(window, qtbot, asked, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "work"
    folder.mkdir()
    file_ops.remember_file(str(folder / "earlier.json"))
    w = shown(qtbot, window)
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)  # File > Save As
    qtbot.waitUntil(lambda: len(asked) == 1)
    assert asked[0] == str(folder / "graph.json")


def test_without_a_document_or_recent_file_dialogs_start_at_home(window, qtbot, asked, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    w = shown(qtbot, window)
    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: len(asked) == 1)
    assert asked[0] == os.path.expanduser("~")
