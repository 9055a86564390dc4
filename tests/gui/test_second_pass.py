"""The second pass over a newcomer's dead ends: messages read as sentences, the palette's descriptions whole at
1366x768, the window where it was left on a second start."""

from __future__ import annotations

import time

import pytest

pytest.importorskip("PySide6")
pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt, QTimer
from PySide6.QtTest import QTest

from gui.format import sentence
from tests.gui.real_input import press, shown


@pytest.mark.parametrize(("message", "shown_as"), [
    ("can't open a.json: not valid JSON", "Can't open a.json: not valid JSON"),
    ("syntax error: invalid syntax (at column 3)", "Syntax error: invalid syntax (at column 3)"),
    ("a formula must compute a tensor or a number", "A formula must compute a tensor or a number"),
    ("empty: type a number", "Empty: type a number"),
    ("x = [2., 3.]", "x = [2., 3.]"),  # a name stays as written
    ("model.weight is None", "model.weight is None"),
    ("edges[0]: can't read edge", "edges[0]: can't read edge"),
    ("Forward: x = [2., 3.]", "Forward: x = [2., 3.]"),
    ("", ""),
])
def test_a_message_reads_as_a_sentence_but_a_leading_name_is_kept(message, shown_as):
    assert sentence(message) == shown_as


def test_opening_a_damaged_file_says_so_in_a_sentence_in_the_dialog_and_the_status_bar(
        qtbot, window, monkeypatch, tmp_path, dialogs):
    from PySide6.QtWidgets import QFileDialog

    w = shown(qtbot, window)
    bad = tmp_path / "damaged.json"
    bad.write_text('{"format": "nodegrad-graph", "version": 1, "nodes": [')
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(bad), "Nodegrad graphs (*.json)"))
    QTest.keyClick(w, Qt.Key_O, Qt.ControlModifier)  # File ▸ Open…
    qtbot.waitUntil(lambda: any(kind == "warning" for kind, _ in dialogs))
    message = next(m for kind, m in dialogs if kind == "warning")
    assert message.startswith("Can't open damaged.json: ")
    assert w.status_label.text() == message


def test_a_formula_insert_expression_refuses_shows_its_reason_as_a_sentence(qtbot, empty_window):
    """Core's ExpressionError is lowercase, as Python's errors are; the status bar and the box that asks again
    start it with a capital."""
    from PySide6.QtWidgets import QApplication, QInputDialog, QLabel, QLineEdit

    w = shown(qtbot, empty_window)
    said: list[str] = []

    def fill():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog) or not dialog.isVisible():
            QTimer.singleShot(10, fill)
            return
        edit = dialog.findChild(QLineEdit)
        if said:  # asked again: it says why, then the user gives up
            said.append(" ".join(label.text() for label in dialog.findChildren(QLabel) if label.isVisible()))
            QTest.keyClick(edit, Qt.Key_Escape)
            return
        said.append("typed")
        QTest.keyClick(edit, Qt.Key_A, Qt.ControlModifier)
        QTest.keyClicks(edit, "(x * ")
        QTest.keyClick(edit, Qt.Key_Return)
        QTimer.singleShot(10, fill)

    QTimer.singleShot(0, fill)
    press(w, Qt.Key_E, Qt.ControlModifier)  # Edit ▸ Insert expression…
    qtbot.waitUntil(lambda: len(said) == 2, timeout=10000)
    assert said[1].startswith("Syntax error") and w.status_label.text().startswith("Syntax error")
    assert not w.graph.nodes


def _row_fits(results, row: int) -> bool:
    """The row's whole text fits its drawn rectangle when wrapped at the list's width (nothing cut with '…')."""
    from PySide6.QtCore import QRect

    item = results.item(row)
    rect = results.visualItemRect(item)
    needed = results.fontMetrics().boundingRect(QRect(0, 0, rect.width() - 8, 10_000),
                                                int(Qt.TextFlag.TextWordWrap), item.text())
    return needed.height() <= rect.height()


def test_the_palettes_descriptions_are_whole_at_1366x768_and_keep_their_tooltip(qtbot, empty_window):
    """Double-click on the empty canvas, type 'conv': each match's description wraps in its row instead of ending
    in '…', and the row's tooltip still says it all."""
    from tests.gui.real_input import double_click

    w = shown(qtbot, empty_window)
    double_click(w.view.viewport(), w.view.viewport().rect().center())
    palette = w.node_palette
    qtbot.waitUntil(lambda: palette is not None and palette.isVisible() and palette.search_edit.hasFocus())
    palette = w.node_palette
    QTest.keyClicks(palette.search_edit, "conv")
    results = palette.results
    qtbot.waitUntil(lambda: results.count() > 0)
    long_rows = [r for r in range(results.count())
                 if results.fontMetrics().horizontalAdvance(results.item(r).text()) > results.viewport().width()]
    assert long_rows, "some description is longer than the palette is wide"
    for row in range(min(results.count(), 6)):
        assert _row_fits(results, row), results.item(row).text()
        spec_tip = results.item(row).toolTip()
        assert results.item(row).text().split(" — ", 1)[1] in spec_tip
    QTest.keyClick(palette.search_edit, Qt.Key_Escape)
    qtbot.waitUntil(lambda: not palette.isVisible())


def _x_server_with_window_manager():
    """An Xvfb display at 1366x768 (a free display number, as Xvfb picks it) with openbox managing it, or a skip
    where the machine has neither."""
    import os
    import shutil
    import subprocess

    if not (shutil.which("Xvfb") and shutil.which("openbox") and shutil.which("xprop")):
        pytest.skip("needs Xvfb, openbox and xprop: the drift comes from a window manager's frame")
    read, write = os.pipe()
    xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1366x768x24"], pass_fds=(write,),
                            stderr=subprocess.DEVNULL)
    os.close(write)
    with os.fdopen(read) as numbers:
        display = ":" + numbers.readline().strip()
    env = {**os.environ, "DISPLAY": display}
    wm = subprocess.Popen(["openbox"], env=env, stderr=subprocess.DEVNULL)
    end = time.monotonic() + 20
    while time.monotonic() < end and "window id" not in subprocess.run(
            ["xprop", "-root", "_NET_SUPPORTING_WM_CHECK"], env=env, capture_output=True, text=True).stdout:
        time.sleep(0.05)  # openbox is not managing windows yet
    return display, [wm, xvfb]


def test_the_window_opens_where_it_was_on_a_second_start_under_a_window_manager(tmp_path):
    """A screen-high window restored on the next start sat 5 px lower (restoreGeometry before the title bar came),
    and lower again on every start; it now opens where its frame was, and so does a window the user moved."""
    import os
    import subprocess
    import sys

    display, processes = _x_server_with_window_manager()
    env = {**os.environ, "DISPLAY": display, "QT_QPA_PLATFORM": "xcb", "XDG_CONFIG_HOME": str(tmp_path),
           "HOME": str(tmp_path)}

    def start(*args: str) -> tuple[int, ...]:
        out = subprocess.run([sys.executable, "-m", "tests.gui.window_start", *args], env=env, capture_output=True,
                             text=True, timeout=120, check=True).stdout
        return tuple(int(v) for v in out.split()[-4:])

    try:
        first = start()
        assert start() == first and start() == first  # the first start's whole-screen window, twice more
        moved = start("--move", "100", "60", "1000", "600")
        assert moved[:2] == (100, 60)
        assert start() == moved
    finally:
        for p in processes:
            p.terminate()
            p.wait(timeout=10)
