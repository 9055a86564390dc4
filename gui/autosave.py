"""Autosave: every minute a modified document is written to a recovery file, offered after a crash.

Recovery files live in the user's cache folder (``GenericCacheLocation``/nodegrad/recovery). Each belongs to
one instance (a window of one running app): it is named ``<pid>-<start token>.json``, beside a ``.meta`` JSON
naming the document it came from (and that document's modification time then), and the instance holds an
OS lock on ``<pid>-<start token>.lock`` while it lives. The OS drops the lock when the process dies, so a
recovery file whose lock can be taken is an orphan left by a crash; a live instance's file is never offered,
nor deleted, by another.

A recovery file is deleted only by its owner once it is not needed (the document saved, reverted, replaced,
or the window closed normally), or after the user recovered it (once it is safe in the recovering window's
own recovery file) or answered Discard to it. A document changed on disk since the recovery was written is
still offered, with a note saying so. A failed autosave says so in the status bar, and once per run of
failures in a warning (no dialog at every tick).
"""

from __future__ import annotations

import json
import os
import sys
import uuid
from typing import IO, TYPE_CHECKING

from PySide6.QtCore import QObject, QStandardPaths, QTimer
from PySide6.QtWidgets import QMessageBox

from core.nodegraph.files import io as files
from core.serialization import atomic_write
from gui import file_ops
from gui.format import sentence

if sys.platform == "win32":
    import msvcrt
else:  # POSIX
    import fcntl

if TYPE_CHECKING:
    from gui.main_window import MainWindow

INTERVAL_MS = 60_000


def recovery_dir() -> str:
    cache = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.GenericCacheLocation)
    base = cache or os.path.expanduser("~/.cache")
    return os.path.join(base, "nodegrad", "recovery")


def new_instance_id() -> str:
    """``<pid>-<start token>``: unique among running instances, and never reused after a crash."""
    return f"{os.getpid()}-{uuid.uuid4().hex[:12]}"


class InstanceLock:
    """An exclusive OS lock on a small file, released by the OS when its process ends (also by a crash).

    Two ``InstanceLock`` objects on the same path exclude each other even inside one process (the lock
    belongs to the open file, not to the process).
    """

    def __init__(self, path: str) -> None:
        self.path = path
        self._file: IO[bytes] | None = None

    @property
    def held(self) -> bool:
        return self._file is not None

    def acquire(self) -> bool:
        """Take the lock without waiting; False when someone else holds it."""
        if self._file is not None:
            return True
        f = open(self.path, "a+b")  # kept open while the lock is held
        try:
            if sys.platform == "win32":
                msvcrt.locking(f.fileno(), msvcrt.LK_NBLCK, 1)
            else:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            f.close()
            return False
        self._file = f
        return True

    def release(self, remove: bool = False) -> None:
        """Let go of the lock; ``remove`` deletes the lock file first (its recovery file is gone)."""
        if self._file is None:
            return
        if remove:
            _unlink(self.path)
        self._file.close()
        self._file = None


class Autosaver(QObject):
    """Writes ``window.graph`` to this instance's recovery file when it changed since the last write."""

    def __init__(self, window: MainWindow, interval_ms: int = INTERVAL_MS, instance: str | None = None) -> None:
        super().__init__(window)
        self.setObjectName("autosaver")
        self.window = window
        self.instance = instance or new_instance_id()
        self.path = os.path.join(recovery_dir(), f"{self.instance}.json")
        self.lock = InstanceLock(os.path.join(recovery_dir(), f"{self.instance}.lock"))
        self.failure: str | None = None  # the last autosave's error, None after a success
        self._warned = False  # the warning of the current run of failures was shown
        self._adopted: tuple[str, InstanceLock] | None = None  # (recovery file, lock) recovered here, kept until safe
        # (id of the graph, undo index, the session's trained revision) last written
        self._written_index: tuple[int, int, int] | None = None
        self.timer = QTimer(self)
        self.timer.setObjectName("autosaveTimer")
        self.timer.timeout.connect(self.autosave)
        self.timer.start(interval_ms)
        window.undo_stack.cleanChanged.connect(self._clean_changed)

    def _clean_changed(self, clean: bool) -> None:
        if clean:
            self.discard()

    def autosave(self) -> bool:
        """Write the recovery file if the document is modified and changed since the last write."""
        w = self.window
        if not w.is_modified():
            if self._written_index is not None:  # saved, discarded or reset since: the recovery file is stale
                self.discard()
            return False
        written = (id(w.graph), w.undo_stack.index(), w.bridge.trained_revision)  # an edit or a training step
        if self._written_index == written and os.path.exists(self.path):
            return False
        if w.stepper.worker.in_flight:  # a step computes on the worker: the session is not to be read now (next time)
            return False
        error = self._write()
        if error is not None:
            self._failed(error)
            return False
        self._written_index = written
        if self.failure is not None:
            w.show_message("Autosave works again")
        self.failure, self._warned = None, False
        if self._adopted is not None:  # the recovered changes are safe in this instance's own file now
            _remove_recovery(*self._adopted)
            self._adopted = None
        return True

    def _write(self) -> str | None:
        """Lock, write the recovery file and its meta; an error message or None."""
        w = self.window
        try:
            os.makedirs(os.path.dirname(self.path), exist_ok=True)
            if not self.lock.acquire():
                return f"another instance holds {self.lock.path}"
        except OSError as exc:
            return f"can't write to {os.path.dirname(self.path)}: {exc.strerror or exc}"
        error = file_ops.save_graph(w.graph, self.path, w.bridge.trained_values())  # a recovered graph stays trained
        if error is not None:
            return error
        document = os.path.abspath(w.path) if w.path else None
        meta = {"document": document, "document_mtime": _mtime(document), "instance": self.instance}
        try:
            atomic_write(self.path + ".meta", lambda f: f.write(json.dumps(meta).encode("utf-8")))
        except OSError as exc:
            return f"can't write {self.path}.meta: {exc.strerror or exc}"
        return None

    def _failed(self, error: str) -> None:
        self.failure = error
        self.window.show_message(f"Autosave failed: {error}")
        if not self._warned:  # once per run of failures; set first, as the dialog lets the timer fire again
            self._warned = True
            QMessageBox.warning(self.window, "Autosave failed",
                                f"Nodegrad could not write its recovery copy of this graph:\n\n{sentence(error)}\n\n"
                                "Save your work. Autosave keeps trying every minute; the status bar says when "
                                "it works again.")

    def adopt(self, recovery: str, lock: InstanceLock) -> None:
        """Keep ``recovery`` (recovered into this window) until the changes are in this instance's own file."""
        self._adopted = (recovery, lock)

    def discard(self) -> None:
        """Remove this instance's recovery file (after a clean save, a revert, or a normal close)."""
        _remove_recovery(self.path, self.lock)
        if self._adopted is not None:
            _remove_recovery(*self._adopted)
            self._adopted = None
        self._written_index = None


def _unlink(path: str) -> None:
    try:
        os.remove(path)
    except FileNotFoundError:
        pass


def _remove_recovery(path: str, lock: InstanceLock) -> None:
    """Delete a recovery file, its meta and its tensor sidecars, then its lock (held by the caller)."""
    for p in [path, path + ".meta", *files.sidecar_paths(path)]:
        _unlink(p)
    lock.release(remove=True)


def _mtime(path: str | None) -> int | None:
    try:
        return os.stat(path).st_mtime_ns if path else None
    except OSError:
        return None


def _meta_of(recovery: str) -> dict[str, object]:
    try:
        with open(recovery + ".meta", encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def _lock_of(recovery: str) -> InstanceLock:
    return InstanceLock(recovery[: -len(".json")] + ".lock")


def pending() -> list[tuple[str, str | None]]:
    """``[(recovery file, document path or None)]`` left by instances that are no longer running, newest first.

    Files of running instances (their lock is held) are not listed; nothing is deleted here.
    """
    folder = recovery_dir()
    if not os.path.isdir(folder):
        return []
    found: list[tuple[str, str | None]] = []
    for name in os.listdir(folder):
        rec = os.path.join(folder, name)
        if not name.endswith(".json") or not os.path.isfile(rec):
            continue
        lock = _lock_of(rec)
        if not lock.acquire():
            continue  # its instance is running
        lock.release()
        document = _meta_of(rec).get("document")
        found.append((rec, document if isinstance(document, str) else None))
    return sorted(found, key=lambda rd: _mtime(rd[0]) or 0, reverse=True)


def _question(rec: str, doc: str | None) -> str:
    name = os.path.basename(doc) if doc else "an untitled graph"
    text = f"Nodegrad did not close normally. Recover the unsaved changes to {name}?"
    recorded = _meta_of(rec).get("document_mtime")
    if doc and recorded is not None and _mtime(doc) != recorded:
        text += (f"\n\n{name} has changed on disk since these changes were autosaved "
                 + ("(it is gone now)." if _mtime(doc) is None else "(it was saved again or replaced).")
                 + " Recovering opens the unsaved changes; saving them would replace the file on disk.")
    return text + "\n\nYes opens them, Discard deletes them, Cancel keeps them to ask again at the next start."


def offer(window: MainWindow) -> bool:
    """Ask about the newest recovery file of an instance that ended without closing; True when it was
    opened in ``window``. Recover opens it; Discard deletes it; Cancel keeps it for the next start."""
    for rec, doc in pending():
        lock = _lock_of(rec)
        if not lock.acquire() or not os.path.exists(rec):  # another starting instance took it first
            lock.release()
            continue
        return _ask(window, rec, doc, lock)
    return False


def _ask(window: MainWindow, rec: str, doc: str | None, lock: InstanceLock) -> bool:
    name = os.path.basename(doc) if doc else "an untitled graph"
    answer = QMessageBox.question(window, "Recover unsaved changes", _question(rec, doc),
                                  QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.Discard
                                  | QMessageBox.StandardButton.Cancel)
    if answer == QMessageBox.StandardButton.Discard:
        _remove_recovery(rec, lock)
        return False
    if answer != QMessageBox.StandardButton.Yes:
        lock.release()
        return False
    graph, error = file_ops.load_graph(rec)
    if graph is None:  # error says why
        lock.release()
        QMessageBox.warning(window, "Can't recover", f"{sentence(str(error))}\n\nThe recovery file is kept: {rec}")
        return False
    window.set_document(graph, doc)
    if doc is not None or graph.lesson is not None:  # a lesson's document comes back with its lesson in front
        window.lessons.document_opened(doc or name)
    window.undo_stack.resetClean()  # recovered changes are unsaved: the title shows '*', closing asks
    window.autosaver.adopt(rec, lock)
    window.autosaver.autosave()  # into this instance's own recovery file; the old one goes once that worked
    window.show_message(f"Recovered unsaved changes to {name}")
    return True

