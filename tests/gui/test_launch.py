"""``python app.py FILE`` with a file it can't open: the window is on screen, with the default graph, when the
message saying why appears over it (the message used to come first, alone on an empty screen)."""

import argparse

import pytest
from PySide6.QtWidgets import QApplication, QMessageBox

pytest.importorskip("pytestqt")


def test_a_bad_file_on_the_command_line_is_refused_over_the_shown_window(qtbot, tmp_path, monkeypatch, node_types):
    from gui import launch
    from gui.main_window import MainWindow

    bad = tmp_path / "bad.json"
    bad.write_text("not json")
    seen = []
    monkeypatch.setattr(QMessageBox, "warning",
                        lambda parent, title, text, *a: seen.append((parent.isVisible(), text)) or QMessageBox.Ok)
    monkeypatch.setattr(QApplication, "exec", lambda *a: 0)  # the event loop a user would be in
    assert launch.run(argparse.Namespace(file=str(bad), screenshot=None)) == 0
    (window,) = [w for w in QApplication.topLevelWidgets() if isinstance(w, MainWindow) and w.isVisible()]
    try:
        assert len(seen) == 1 and seen[0][0], "the window was not shown when the message came"
        assert "bad.json" in seen[0][1]
        assert window.path is None and len(window.graph.nodes) == 6  # the chapter's graph stays
    finally:
        window.undo_stack.setClean()
        window.close()
