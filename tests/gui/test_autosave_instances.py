"""Recovery files belong to their instance: others never offer or delete a live one, a changed document
still gets its recovery offered, and a failing autosave says so."""

import os
import subprocess
import sys

import pytest
from PySide6.QtWidgets import QMessageBox

from tests.gui.conftest import make_window


@pytest.fixture(autouse=True)
def cache_dir(tmp_path, monkeypatch):
    from gui import autosave

    folder = tmp_path / "recovery"
    monkeypatch.setattr(autosave, "recovery_dir", lambda: str(folder))
    return folder


@pytest.fixture
def instances(monkeypatch):
    """Each new window is the instance named next in ``ids`` (two windows stand for two running apps)."""
    from gui import autosave

    ids = []
    monkeypatch.setattr(autosave, "new_instance_id", lambda: ids.pop(0))
    return ids


@pytest.fixture
def answer(monkeypatch, dialogs):
    """Set ``answer.button`` to what the recovery question answers; ``dialogs`` records it."""
    class Answer:
        button = QMessageBox.Yes

    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: dialogs.append(("question", a[2])) or Answer.button)
    return Answer


def edited_window(qtbot, node_types, path=None):
    from core.nodegraph.files.examples import default_graph

    w = make_window(qtbot, default_graph())
    if path:
        w.save_to(path)
    w.scene.add_node("math.exp", (0, 0))
    assert w.autosaver.autosave()
    return w


def test_a_second_instance_answering_discard_keeps_the_running_instances_recovery_file(qtbot, node_types,
                                                                                      instances, dialogs):
    from gui import autosave

    instances.extend(["100-first", "200-second"])
    first = edited_window(qtbot, node_types)
    second = make_window(qtbot)
    assert os.path.basename(first.autosaver.path) == "100-first.json"
    assert not autosave.offer(second)  # the dialogs fixture would answer Discard
    assert dialogs == [] and autosave.pending() == []
    assert os.path.exists(first.autosaver.path)
    first.undo_stack.setClean()


def test_a_crashed_instances_recovery_file_is_offered_to_the_next_one(qtbot, node_types, instances, answer):
    from gui import autosave

    instances.extend(["100-first", "200-second"])
    first = edited_window(qtbot, node_types)
    first.autosaver.lock.release()  # the process died: the OS dropped its lock
    assert autosave.pending() == [(first.autosaver.path, None)]
    fresh = make_window(qtbot)
    assert autosave.offer(fresh)
    assert fresh.graph.to_dict() == first.graph.to_dict()
    assert not os.path.exists(first.autosaver.path)  # safe in the new instance's own file
    assert os.path.exists(fresh.autosaver.path) and autosave.pending() == []
    fresh.undo_stack.setClean()


def test_a_document_changed_on_disk_after_a_crash_keeps_its_recovery_and_says_so(qtbot, node_types, tmp_path,
                                                                                  answer, dialogs):
    from gui import autosave

    path = str(tmp_path / "g.json")
    crashed = edited_window(qtbot, node_types, path)
    edited = crashed.graph.to_dict()
    crashed.autosaver.lock.release()
    stat = os.stat(path)
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10 ** 9))  # saved again by someone else
    assert autosave.pending() == [(crashed.autosaver.path, path)]
    fresh = make_window(qtbot)
    answer.button = QMessageBox.Cancel  # not now: kept for the next start
    assert not autosave.offer(fresh)
    assert "g.json has changed on disk" in dialogs[-1][1]
    assert os.path.exists(crashed.autosaver.path)
    answer.button = QMessageBox.Yes
    assert autosave.offer(fresh)
    assert fresh.graph.to_dict() == edited and fresh.path == path and fresh.is_modified()
    fresh.undo_stack.setClean()


def test_discarding_a_crashed_instances_recovery_deletes_only_that_file(qtbot, node_types, instances, answer):
    from gui import autosave

    instances.extend(["1-live", "2-crashed", "3-fresh"])
    live = edited_window(qtbot, node_types)
    crashed = edited_window(qtbot, node_types)
    crashed.autosaver.lock.release()
    answer.button = QMessageBox.Discard
    assert not autosave.offer(make_window(qtbot))
    assert not os.path.exists(crashed.autosaver.path) and not os.path.exists(crashed.autosaver.path + ".meta")
    assert os.path.exists(live.autosaver.path)
    live.undo_stack.setClean()


def test_a_failing_autosave_says_so_in_the_status_bar_and_warns_once_per_run_of_failures(qtbot, node_types,
                                                                                          monkeypatch, dialogs):
    from core.nodegraph.files import io as files

    window = edited_window(qtbot, node_types)
    real_save = files.save

    def full_disk(graph, path, trained=None):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(files, "save", full_disk)
    for x in (10, 20):
        window.scene.add_node("math.exp", (x, x))
        assert not window.autosaver.autosave()
        assert "Autosave failed" in window.status_label.text() and "No space left" in window.status_label.text()
    assert [kind for kind, _ in dialogs] == ["warning"]
    assert "No space left on device" in dialogs[0][1]
    monkeypatch.setattr(files, "save", real_save)
    window.scene.add_node("math.exp", (30, 30))
    assert window.autosaver.autosave()
    assert window.status_label.text() == "Autosave works again"
    monkeypatch.setattr(files, "save", full_disk)
    window.scene.add_node("math.exp", (40, 40))
    assert not window.autosaver.autosave()
    assert [kind for kind, _ in dialogs] == ["warning", "warning"]
    window.undo_stack.setClean()


HOLDER = """
import sys
from gui.autosave import InstanceLock
lock = InstanceLock(sys.argv[1])
assert lock.acquire()
print('locked', flush=True)
sys.stdin.read()
"""


def test_a_recovery_file_is_offered_only_once_its_process_has_died(tmp_path, cache_dir):
    from gui import autosave

    cache_dir.mkdir()
    rec = cache_dir / "4242-abc.json"
    rec.write_text("{}")
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(cache_dir / "4242-abc.lock")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "locked"
        assert autosave.pending() == []
    finally:
        holder.kill()  # a crash: no clean-up runs
        holder.wait()
    assert autosave.pending() == [(str(rec), None)]
