"""The import's progress dialog, up: File ▸ Open code (Ctrl+Shift+O) on a snippet that never ends, for the tests of
that dialog (its size, its title, Escape and Cancel). The window's own Open code path is taken, its file dialog
answered with the snippet's path."""

from __future__ import annotations

from PySide6.QtWidgets import QProgressDialog

from tests.gui.real_input import shown
from tests.gui.test_code_pane import open_code

ENDLESS_SNIPPET = "import time\nwhile True:\n    time.sleep(0.01)\n"
TITLE = "Importing code"


def open_endless_import(qtbot, window, monkeypatch, tmp_path) -> QProgressDialog:
    """Show ``window``, open a snippet that runs until cancelled and return the progress dialog once it shows."""
    path = tmp_path / "slow.py"
    path.write_text(ENDLESS_SNIPPET)
    shown(qtbot, window)
    open_code(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: isinstance(window.code.progress, QProgressDialog) and window.code.progress.isVisible(),
                    timeout=10_000)
    return window.code.progress


def title_room(progress: QProgressDialog) -> int:
    """The width the dialog needs for its title beside the window manager's buttons."""
    return progress.fontMetrics().horizontalAdvance(TITLE) + 150
