"""File ▸ Export image suggests an image named after the document beside its file (``curve_fit.json`` ->
``curve_fit.png`` in the same folder), as desktop tools do; an example's image goes to the last-used folder (never
the lessons' own), a new document's is ``graph.png``. It suggested ``graph.png`` at home whatever was open."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui import file_ops
from tests.gui.real_input import click_menu_action, press, shown

pytest.importorskip("pytestqt")


@pytest.fixture
def offered(monkeypatch):
    """The path each save dialog suggested (the dialog answers Cancel)."""
    seen = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: seen.append(a[2]) or ("", ""))
    return seen


def _open_by_ctrl_o(qtbot, w, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Nodegrad graphs (*.json)"))
    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.path == str(path))


def test_export_image_suggests_the_documents_name_beside_its_file(qtbot, window, offered, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "work"
    folder.mkdir()
    mine = folder / "curve_fit.json"
    mine.write_text(json.dumps(json.load(open(EXAMPLES_DIR / "04-autograd-graph.json"))))
    w = shown(qtbot, window)
    _open_by_ctrl_o(qtbot, w, monkeypatch, mine)
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered == [str(folder / "curve_fit.png")]


def test_export_image_of_an_example_goes_to_the_last_used_folder(qtbot, window, offered, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    folder = tmp_path / "work"
    folder.mkdir()
    file_ops.remember_file(str(folder / "earlier.json"))
    w = shown(qtbot, window)
    _open_by_ctrl_o(qtbot, w, monkeypatch, EXAMPLES_DIR / "04-autograd-graph.json")
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered == [str(folder / "04-autograd-graph.png")]


def test_export_image_of_a_new_document_is_graph_png(qtbot, window, offered, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    file_ops.remember_file(str(tmp_path / "earlier.json"))
    w = shown(qtbot, window)
    press(w, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not w.graph.nodes)
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered == [str(tmp_path / "graph.png")]


@pytest.mark.parametrize("suffix", ["png", "svg"])
def test_export_image_where_it_cant_be_written_says_why(qtbot, window, dialogs, tmp_path, monkeypatch, suffix):
    blocker = tmp_path / "notes.txt"  # a file where the chosen path needs a folder
    blocker.write_text("x")
    target = blocker / f"mine.{suffix}"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), f"{suffix.upper()} (*.{suffix})"))
    w = shown(qtbot, window)
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: bool(dialogs))
    assert dialogs == [("warning", f"Can't export {target}: Not a directory")]  # the SVG's said "Exported"
    assert w.status_label.text() == dialogs[0][1]


def test_export_image_writes_the_file_and_says_so(qtbot, window, dialogs, tmp_path, monkeypatch):
    target = tmp_path / "mine.png"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "PNG (*.png)"))
    w = shown(qtbot, window)
    click_menu_action(qtbot, w, "export_image")
    qtbot.waitUntil(lambda: target.exists() and target.stat().st_size > 0)
    assert dialogs == [] and w.status_label.text() == f"Exported {target}"
