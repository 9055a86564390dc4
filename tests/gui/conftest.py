"""Fixtures for GUI tests: a main window on the default graph, settings and recovery files kept out of the user's
home."""

import pytest

pytest.importorskip("PySide6", reason="the GUI tests need PySide6")


@pytest.fixture(autouse=True)
def isolated_settings(tmp_path):
    from PySide6.QtCore import QSettings

    QSettings.setDefaultFormat(QSettings.IniFormat)
    QSettings.setPath(QSettings.IniFormat, QSettings.UserScope, str(tmp_path / "settings"))
    QSettings.setPath(QSettings.NativeFormat, QSettings.UserScope, str(tmp_path / "settings"))  # QSettings(org, app)
    yield


@pytest.fixture(autouse=True)
def isolated_recovery(tmp_path, monkeypatch):
    """Every window's autosave writes to a temporary folder, never the user's cache (a test that left a recovery
    file there would have the next app start, or the next test's window, ask to recover it)."""
    from gui import autosave

    monkeypatch.setattr(autosave, "recovery_dir", lambda: str(tmp_path / "recovery"))


@pytest.fixture(autouse=True)
def dialogs(monkeypatch):
    """Message boxes answer at once (Discard) and are recorded: ``dialogs`` lists (kind, text)."""
    from PySide6.QtWidgets import QMessageBox

    shown = []
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: shown.append(("question", a[2])) or QMessageBox.Discard)
    monkeypatch.setattr(QMessageBox, "warning", lambda *a, **k: shown.append(("warning", a[2])) or QMessageBox.Ok)
    return shown


@pytest.fixture
def node_types():
    """The built-in node types, registered (a window's document evaluates them)."""
    import core.nodegraph.model.nodes

    return core.nodegraph.model.nodes


def make_window(qtbot, graph=None):
    from core.nodegraph.model.document import Graph
    from gui.main_window import MainWindow

    window = MainWindow(graph if graph is not None else Graph())
    qtbot.addWidget(window)
    window.undo_stack.cleanChanged.connect(lambda _c: None)
    return window


@pytest.fixture
def window(qtbot, node_types):
    """A window on the chapter's default graph."""
    from core.nodegraph.files.examples import default_graph

    w = make_window(qtbot, default_graph())
    yield w
    w.undo_stack.setClean()
    w.bridge.mark_saved()  # (training marks the document modified too)


@pytest.fixture
def empty_window(qtbot, node_types):
    w = make_window(qtbot)
    yield w
    w.undo_stack.setClean()
    w.bridge.mark_saved()


@pytest.fixture(autouse=True)
def empty_clipboard(qtbot):
    """Leave the clipboard empty: Qt crashes at exit when the offscreen clipboard still owns mime data."""
    yield
    from PySide6.QtWidgets import QApplication

    QApplication.clipboard().clear()
