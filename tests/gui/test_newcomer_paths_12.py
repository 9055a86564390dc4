"""The first hour, by hand, a twelfth time: what a newcomer met under a real virtual screen (1366x768 and
1920x1080) opening files by File ▸ Open, each driven here through the real window's keys."""

import json

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.io import dumps
from tests.gui.real_input import shown


def _open_by_keyboard(qtbot, w, monkeypatch, path) -> None:
    """File ▸ Open… with Ctrl+O, the file dialog answering ``path``."""
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)


def test_a_file_with_a_node_of_a_newer_type_says_so_when_it_opens(window, qtbot, monkeypatch, tmp_path):
    """A file from a newer Nodegrad whose node x has a type this one lacks opened with just 'Opened
    newer.json' in the status bar and x drawn as any node; only a step said, later, that it could not run."""
    w = shown(qtbot, window)
    data = json.loads(dumps(default_graph()))
    node = next(n for n in data["nodes"] if n["title"] == "x")
    node["type"] = "source.quantum"
    path = tmp_path / "newer.json"
    path.write_text(json.dumps(data))
    _open_by_keyboard(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: w.path == str(path))
    text = w.status_label.text()
    assert text.startswith("Opened newer.json: node x has a type this version of Nodegrad doesn't know")
    assert "(source.quantum)" in text and "placeholder" in text
    assert w.graph.node(node["id"]).type == "source.quantum"  # kept, with its data, to be saved back


def test_a_file_of_known_types_just_says_it_opened(window, qtbot, monkeypatch, tmp_path):
    w = shown(qtbot, window)
    path = tmp_path / "mine.json"
    path.write_text(dumps(default_graph()))
    _open_by_keyboard(qtbot, w, monkeypatch, path)
    qtbot.waitUntil(lambda: w.path == str(path))
    assert w.status_label.text() == "Opened mine.json"
