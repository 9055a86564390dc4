"""Autosave to a recovery file offered after a crash, and Open Recent (max 10, missing files removed)."""

import os

import pytest

from tests.gui.conftest import make_window


@pytest.fixture
def files():
    from core.nodegraph.files import io as files

    return files


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    """Recovery files go to a temporary folder, never the user's cache."""
    from gui import autosave

    folder = tmp_path / "recovery"
    monkeypatch.setattr(autosave, "recovery_dir", lambda: str(folder))
    return folder


def test_autosave_writes_a_recovery_file_only_when_modified(window, files):
    assert not window.autosaver.autosave()
    window.scene.add_node("math.exp", (0, 0))
    assert window.autosaver.autosave()
    assert os.path.exists(window.autosaver.path)
    assert not window.autosaver.autosave()  # nothing changed since the last write


def test_a_clean_save_removes_the_recovery_file(window, files, tmp_path):
    window.scene.add_node("math.exp", (0, 0))
    window.autosaver.autosave()
    window.save_to(str(tmp_path / "g.json"))
    assert not os.path.exists(window.autosaver.path)


def test_a_normal_close_removes_the_recovery_file(window, files):
    window.scene.add_node("math.exp", (0, 0))
    window.autosaver.autosave()
    window.close()  # the dialogs fixture answers Discard
    assert not os.path.exists(window.autosaver.path)


def test_after_a_crash_the_next_start_offers_the_recovered_document(window, files, qtbot, tmp_path, dialogs,
                                                                   monkeypatch):
    from gui import autosave

    path = str(tmp_path / "g.json")
    window.save_to(path)
    os.utime(path, (1, 1))  # the document is older than the recovery file
    window.scene.add_node("math.exp", (0, 0))
    window.autosaver.autosave()
    window.autosaver.lock.release()  # the first instance crashes: the OS drops its lock
    edited = window.graph.to_dict()
    dialogs.clear()

    from PySide6.QtWidgets import QMessageBox

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: dialogs.append(("question", a[2])) or QMessageBox.Yes)
    fresh = make_window(qtbot)
    assert autosave.offer(fresh)
    assert "did not close normally" in dialogs[-1][1]
    assert fresh.graph.to_dict() == edited and fresh.path == path
    assert fresh.is_modified() and fresh.windowTitle().startswith("g.json*")
    assert autosave.pending() == []
    fresh.undo_stack.setClean()


def test_declining_recovery_deletes_the_file(window, files, qtbot):
    from gui import autosave

    window.scene.add_node("math.exp", (0, 0))
    window.autosaver.autosave()
    window.autosaver.lock.release()  # crashed
    fresh = make_window(qtbot)
    assert not autosave.offer(fresh)  # the dialogs fixture answers Discard
    assert autosave.pending() == [] and not fresh.is_modified()


def test_open_recent_keeps_the_ten_latest_files_newest_first(tmp_path):
    from gui import file_ops

    for i in range(12):
        file_ops.remember_file(str(tmp_path / f"{i}.json"))
    assert file_ops.recent_files() == [str(tmp_path / f"{i}.json") for i in range(11, 1, -1)]


def test_the_recent_menu_lists_saved_files_and_opens_them(window, files, tmp_path, qtbot):
    path = str(tmp_path / "r.json")
    window.save_to(path)
    other = make_window(qtbot)
    other.recent_menu.aboutToShow.emit()
    entries = other.recent_menu.actions()
    assert [a.text() for a in entries] == ["&1 r.json"]  # Alt+F, R, 1 opens it
    entries[0].trigger()
    assert other.path == path and len(other.graph.nodes) == 6


def test_a_missing_recent_file_is_removed_with_a_message(empty_window, tmp_path, dialogs):
    from gui import file_ops, recent_files

    gone = str(tmp_path / "gone.json")
    file_ops.remember_file(gone)
    assert not recent_files.open_recent(empty_window, gone)
    assert gone not in file_ops.recent_files()
    assert dialogs[-1][0] == "warning" and "no longer exists" in dialogs[-1][1]
    assert "no longer exists" in empty_window.status_label.text()


def test_autosave_runs_every_minute(window):
    assert window.autosaver.timer.isActive() and window.autosaver.timer.interval() == 60_000


def _drop(window, path):
    """Drop ``path`` on the window; returns whether a drag of it would be accepted on entering."""
    from PySide6.QtCore import QMimeData, QPointF, Qt, QUrl
    from PySide6.QtGui import QDropEvent

    from gui.main_window import _dropped_graphs

    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(path)])
    window.dropEvent(QDropEvent(QPointF(10, 10), Qt.CopyAction, mime, Qt.LeftButton, Qt.NoModifier))
    return bool(_dropped_graphs(mime))


def test_dropping_a_json_file_on_the_window_opens_it(window, files, qtbot, tmp_path):
    path = str(tmp_path / "dropped.json")
    window.save_to(path)
    other = make_window(qtbot)
    assert _drop(other, path)
    assert other.path == path and other.graph.to_dict() == window.graph.to_dict()


def test_dropping_another_kind_of_file_is_refused(empty_window, tmp_path):
    other = tmp_path / "notes.txt"
    other.write_text("hello")
    assert not _drop(empty_window, str(other))
    assert empty_window.path is None


def test_a_document_opened_after_recovering_one_is_not_modified(window, files, qtbot, tmp_path, dialogs,
                                                               monkeypatch):
    """Recovered changes are unsaved (the title's '*'); the next document opened from File ▸ Examples is not: its
    title had the '*' too, Undo was greyed, and every later File ▸ New or Open asked to save it (Qt's clear() of an
    empty undo stack keeps the recovery's 'never clean' mark)."""
    from PySide6.QtWidgets import QMessageBox

    from gui import autosave
    from tests.gui.real_input import shown
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    window.scene.add_node("math.exp", (0, 0))
    window.autosaver.autosave()
    window.autosaver.lock.release()  # the first instance crashes: the OS drops its lock
    answers = {"Recover unsaved changes": QMessageBox.Yes, "Unsaved changes": QMessageBox.Discard}
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: dialogs.append(("question", a[1])) or answers[a[1]])
    fresh = shown(qtbot, make_window(qtbot))
    assert autosave.offer(fresh) and fresh.is_modified()
    open_example(qtbot, fresh, "01-tensors")
    assert dialogs[-1] == ("question", "Unsaved changes")  # the recovered graph's changes: asked, discarded
    qtbot.waitUntil(lambda: fresh.windowTitle() == "01-tensors.json — Nodegrad")
    assert not fresh.is_modified()
    asked = len(dialogs)
    open_example(qtbot, fresh, "04-autograd-graph")
    assert len(dialogs) == asked, "an example just opened has nothing to save"
