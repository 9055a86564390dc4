"""File ▸ New (Ctrl+N) after a snippet opened as code: the Code tab goes and the left column shows the Nodes
library, where an empty graph begins (it showed whichever tab Qt raised next: an empty Diagnostics table), while
the canvas's hint points at that tab."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.test_imported_layout import TANH, opened


def in_front(dock) -> bool:
    return dock.isVisible() and not dock.visibleRegion().isEmpty()


def test_new_after_code_shows_the_node_library_beside_the_empty_canvas(qtbot, window, monkeypatch, tmp_path):
    opened(qtbot, window, monkeypatch, tmp_path, TANH)
    code = window.code.dock
    qtbot.waitUntil(lambda: in_front(code))
    QTest.keyClick(window, Qt.Key_N, Qt.ControlModifier)
    qtbot.waitUntil(lambda: not window.graph.nodes and not code.isVisible())
    qtbot.waitUntil(lambda: in_front(window.library_dock))
    assert not in_front(window.training.docks["diagnostics"])
    hint = window.view.empty_hint
    qtbot.waitUntil(hint.isVisible)
    assert "Nodes tab" in hint.text()
