"""Autosave: every minute a modified document is written to a recovery file, offered after a crash.

The recovery file lives in the user's cache folder (``GenericCacheLocation``/nodegrad/recovery), one per
window, beside a small ``.meta`` JSON naming the document it came from. It is removed when the document
becomes clean (saved, reverted, replaced) and when the window closes normally, so a file found there at the
next start means the app did not close normally. ``pending()`` lists such files that are newer than their
document; ``offer(window)`` asks about the newest one and opens it, marked modified, under the original path.
"""

from __future__ import annotations

import json
import os
import uuid

from PySide6.QtCore import QObject, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

from gui import file_ops

INTERVAL_MS = 60_000


def recovery_dir() -> str:
    base = QStandardPaths.writableLocation(QStandardPaths.GenericCacheLocation) or os.path.expanduser("~/.cache")
    return os.path.join(base, "nodegrad", "recovery")


class Autosaver(QObject):
    """Writes ``window.graph`` to this window's recovery file when it changed since the last write."""

    def __init__(self, window, interval_ms: int = INTERVAL_MS):
        super().__init__(window)
        self.setObjectName("autosaver")
        self.window = window
        self.path = os.path.join(recovery_dir(), f"{uuid.uuid4().hex}.json")
        self._written_index = None
        self.timer = QTimer(self)
        self.timer.setObjectName("autosaveTimer")
        self.timer.timeout.connect(self.autosave)
        self.timer.start(interval_ms)
        window.undo_stack.cleanChanged.connect(lambda clean: clean and self.discard())

    def autosave(self) -> bool:
        """Write the recovery file if the document is modified and changed since the last write."""
        w = self.window
        if not w.is_modified() or not file_ops.files_available():
            return False
        if self._written_index == (id(w.graph), w.undo_stack.index()) and os.path.exists(self.path):
            return False
        os.makedirs(os.path.dirname(self.path), exist_ok=True)
        if file_ops.save_graph(w.graph, self.path) is not None:
            return False
        with open(self.path + ".meta", "w", encoding="utf-8") as f:
            json.dump({"document": os.path.abspath(w.path) if w.path else None}, f)
        self._written_index = (id(w.graph), w.undo_stack.index())
        return True

    def discard(self) -> None:
        """Remove this window's recovery file (after a clean save, a revert, or a normal close)."""
        _remove(self.path)
        self._written_index = None


def _remove(path: str) -> None:
    for p in (path, path + ".meta"):
        if os.path.exists(p):
            os.remove(p)


def _document_of(recovery: str) -> str | None:
    try:
        with open(recovery + ".meta", encoding="utf-8") as f:
            return json.load(f).get("document")
    except (OSError, ValueError, AttributeError):
        return None


def pending() -> list:
    """``[(recovery file, document path or None)]``, newest first; stale files (older than their saved
    document) are deleted on the way."""
    folder = recovery_dir()
    if not os.path.isdir(folder):
        return []
    found = []
    for name in os.listdir(folder):
        rec = os.path.join(folder, name)
        if not name.endswith(".json") or not os.path.isfile(rec):
            continue
        doc = _document_of(rec)
        if doc and os.path.exists(doc) and os.path.getmtime(doc) >= os.path.getmtime(rec):
            _remove(rec)
            continue
        found.append((rec, doc))
    return sorted(found, key=lambda rd: os.path.getmtime(rd[0]), reverse=True)


def offer(window) -> bool:
    """Ask whether to recover the newest pending recovery file; True when it was opened in ``window``."""
    files = pending()
    if not files:
        return False
    rec, doc = files[0]
    name = os.path.basename(doc) if doc else "an untitled graph"
    answer = QMessageBox.question(window, "Recover unsaved changes",
                                  f"Nodegrad did not close normally. Recover the unsaved changes to {name}?",
                                  QMessageBox.Yes | QMessageBox.Discard)
    if answer != QMessageBox.Yes:
        _remove(rec)
        return False
    graph, error = file_ops.load_graph(rec)
    if error is not None:
        QMessageBox.warning(window, "Can't recover", error)
        return False
    window.set_document(graph, doc)
    window.undo_stack.resetClean()  # recovered changes are unsaved: the title shows '*', closing asks
    _remove(rec)
    window.show_message(f"Recovered unsaved changes to {name}")
    return True


def install(window) -> Autosaver:
    window.autosaver = Autosaver(window)
    return window.autosaver
