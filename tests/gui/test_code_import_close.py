"""Closing the window while a code import runs kills its child: nothing polls the run any more, and a snippet that
never ends must not outlive the window (the import is polled from the event loop; no thread waits on it)."""

import threading

import pytest

from core.nodegraph.files.code_import import CodeImportError
from tests.gui.import_progress import open_endless_import


def test_closing_the_window_during_an_import_kills_the_snippet(qtbot, window, monkeypatch, tmp_path):
    threads = threading.active_count()
    open_endless_import(qtbot, window, monkeypatch, tmp_path)
    run = window.code.run
    assert run is not None and run.poll() is None  # the snippet runs
    assert threading.active_count() == threads  # polled by the event loop: no thread waits on it
    window.undo_stack.setClean()
    window.bridge.mark_saved()  # nothing to save: the close goes through
    assert window.close()
    with pytest.raises(CodeImportError, match="cancelled"):
        run.poll()
