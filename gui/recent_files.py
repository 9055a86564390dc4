"""Open recent's behaviour: a chosen entry asks about unsaved changes first, and a file that no longer
exists is dropped from the list with a message instead of a loader error."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from PySide6.QtWidgets import QMessageBox

from gui import file_ops

if TYPE_CHECKING:
    from gui.main_window import MainWindow


def open_recent(window: MainWindow, path: str) -> bool:
    """Open ``path`` from the Open recent menu; True when it was opened."""
    if not os.path.exists(path):
        file_ops.forget_file(path)
        message = f"{path} no longer exists; removed from Open recent"
        window.show_message(message)
        QMessageBox.warning(window, "File not found", message)
        return False
    return window.open_asking(path)  # a damaged file is refused before any question about saving
