"""Save as to a place that can't be written (a read-only folder, a path through a file) says so in words, naming the
file the user chose: the message named the temporary file written beside it (``[Errno 20] Not a directory:
'.../.mine.json.x1y2.tmp'``). The document stays open, modified and untitled, nothing lost."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from tests.gui.real_input import click_node, press, shown

pytest.importorskip("pytestqt")


def test_save_as_where_the_file_cant_be_written_names_it_and_keeps_the_document(qtbot, window, dialogs, tmp_path,
                                                                               monkeypatch):
    blocker = tmp_path / "notes.txt"  # a file where the chosen path needs a folder
    blocker.write_text("x")
    target = blocker / "mine.json"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), "Nodegrad graphs (*.json)"))
    w = shown(qtbot, window)
    click_node(qtbot, w, next(iter(w.graph.nodes)))
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)  # a real edit, then Save
    qtbot.waitUntil(w.is_modified)
    graph, count = w.graph, len(w.graph.nodes)
    press(w, Qt.Key_S, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: bool(dialogs))
    assert dialogs == [("warning", f"Can't save {target}: Not a directory")]
    assert ".tmp" not in dialogs[0][1]
    assert w.graph is graph and len(w.graph.nodes) == count and w.is_modified() and w.path is None
    assert w.windowTitle().startswith("untitled*")
