"""File ▸ Export Python script suggests a script named after the document beside its file (``curve_fit.json`` ->
``curve_fit.py``), as Export image does; a graph imported from code gets ``<code>_export.py``, not its source's
name. It suggested ``graph.py`` whatever was open (session 26's walk: ``playground-classifier`` exported as
``graph.py``)."""

import json

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui import file_ops
from tests.gui.real_input import click_menu_action, press, shown
from tests.gui.test_code_pane import SNIPPET, open_code


@pytest.fixture
def offered(monkeypatch):
    """The path each save dialog suggested (the dialog answers Cancel)."""
    seen = []
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: seen.append(a[2]) or ("", ""))
    return seen


def test_export_python_script_suggests_the_documents_name_beside_its_file(qtbot, window, offered, tmp_path,
                                                                          monkeypatch):
    mine = tmp_path / "curve_fit.json"
    mine.write_text(json.dumps(json.load(open(EXAMPLES_DIR / "04-autograd-graph.json"))))
    w = shown(qtbot, window)
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(mine), "Nodegrad graphs (*.json)"))
    press(w, Qt.Key_O, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.path == str(mine))
    click_menu_action(qtbot, w, "export_python")
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered == [str(tmp_path / "curve_fit.py")]


def test_export_python_script_of_imported_code_never_suggests_the_codes_own_file(qtbot, window, offered, tmp_path,
                                                                                 monkeypatch):
    source = tmp_path / "z.py"
    source.write_text(SNIPPET)
    file_ops.remember_file(str(tmp_path / "earlier.json"))
    w = shown(qtbot, window)
    open_code(qtbot, w, monkeypatch, source)
    qtbot.waitUntil(lambda: bool(w.graph.code), timeout=60_000)
    click_menu_action(qtbot, w, "export_python")
    qtbot.waitUntil(lambda: len(offered) == 1)
    assert offered == [str(tmp_path / "z_export.py")]
