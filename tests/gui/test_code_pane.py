"""Code beside its graph: File ▸ Open Code imports a snippet; canvas and code pane select each other; steps move
the pane's marker. Driven by real keys and clicks (the OS file dialog is the one thing answered by the test)."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog, QProgressDialog

from tests.gui.real_input import click, click_node, shown

SNIPPET = """import torch
x = torch.tensor([2.0, 3.0], requires_grad=True)
w = torch.tensor([1.5, -0.5], requires_grad=True)
b = torch.tensor(0.1, requires_grad=True)

z = (x * w).sum() + b
z.backward()
"""


def open_code(qtbot, window, monkeypatch, path):
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Python code (*.py)"))
    QTest.keyClick(window, Qt.Key_O, Qt.ControlModifier | Qt.ShiftModifier)


def node_titled(window, title: str) -> str:
    return next(nid for nid, n in window.graph.nodes.items() if n.title == title)


def line_point(editor, line: int):
    block = editor.document().findBlockByNumber(line - 1)
    rect = editor.blockBoundingGeometry(block).translated(editor.contentOffset())
    return rect.center().toPoint()


def test_open_code_shows_the_snippet_beside_its_graph_linked_line_by_line(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "z.py"
    path.write_text(SNIPPET)
    shown(qtbot, window)
    pane, dock = window.code.pane, window.code.dock
    assert not dock.isVisible()  # no code yet: the canvas keeps its room
    open_code(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: window.graph.code is not None and dock.isVisible(), timeout=30_000)
    assert pane.editor.toPlainText() == SNIPPET
    assert pane.editor.isReadOnly()

    click_node(qtbot, window, node_titled(window, "w"))  # canvas -> code
    qtbot.waitUntil(lambda: pane.editor.selected_lines == {3})

    z = node_titled(window, "z")
    click(pane.editor.viewport(), line_point(pane.editor, 6))  # code -> canvas: line 6 made mul, sum and z
    qtbot.waitUntil(lambda: z in window.scene.selected_node_ids())
    assert {window.graph.nodes[n].type for n in window.scene.selected_node_ids()} == {"math.mul", "reduce.sum",
                                                                                      "math.add"}
    window.activateWindow()
    QTest.keyClick(window, Qt.Key_F10)  # Forward step: the first node, x on line 2
    qtbot.waitUntil(lambda: pane.editor.marker == 2)
    QTest.keyClick(window, Qt.Key_F10)
    qtbot.waitUntil(lambda: pane.editor.marker == 3)


def test_a_failing_snippet_shows_its_line_in_a_message_and_keeps_the_open_document(qtbot, window, monkeypatch,
                                                                                   tmp_path):
    from PySide6.QtWidgets import QApplication, QMessageBox

    path = tmp_path / "bad.py"
    path.write_text("import torch\nx = torch.ones(2)\ny = x * q\n")
    shown(qtbot, window)
    before = window.graph
    open_code(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: isinstance(QApplication.activeModalWidget(), QMessageBox), timeout=30_000)
    message = QApplication.activeModalWidget()
    assert message.text() == "bad.py: line 3: NameError: name 'q' is not defined"
    click(message.button(QMessageBox.Close))
    qtbot.waitUntil(lambda: QApplication.activeModalWidget() is None)
    assert window.graph is before and not window.code.dock.isVisible()


def test_escape_cancels_a_running_import_and_the_window_stays_as_it_was(qtbot, window, monkeypatch, tmp_path):
    path = tmp_path / "slow.py"
    path.write_text("import time\nwhile True:\n    time.sleep(0.01)\n")
    shown(qtbot, window)
    before = window.graph
    open_code(qtbot, window, monkeypatch, path)
    # this window's own progress dialog, once shown (another test's dialog may still be on screen)
    qtbot.waitUntil(lambda: isinstance(window.code.progress, QProgressDialog) and window.code.progress.isVisible(),
                    timeout=10_000)
    progress = window.code.progress
    QTest.keyClick(progress, Qt.Key_Escape)
    qtbot.waitUntil(lambda: window.code.progress is None, timeout=10_000)
    assert "cancelled" in window.status_label.text()
    assert window.graph is before


def watch_imports(monkeypatch) -> list:
    """Records each code import that runs (the names imported), still running them."""
    from core.nodegraph.files import code_import

    ran, real = [], code_import.ImportRun
    monkeypatch.setattr(code_import, "ImportRun", lambda text, **k: ran.append(k.get("name")) or real(text, **k))
    return ran


def test_open_code_on_a_modified_graph_asks_first_and_cancel_runs_nothing(qtbot, window, monkeypatch, tmp_path):
    from PySide6.QtWidgets import QMessageBox

    ran = watch_imports(monkeypatch)
    path = tmp_path / "z.py"
    path.write_text(SNIPPET)
    shown(qtbot, window)
    click_node(qtbot, window, next(iter(window.graph.nodes)))
    QTest.keyClick(window.view.viewport(), Qt.Key_Delete)  # a real edit: the graph is modified
    qtbot.waitUntil(window.is_modified)
    before, count = window.graph, len(window.graph.nodes)
    asked = []  # (question's title, whether an import was already running when it came)
    monkeypatch.setattr(QMessageBox, "question",
                        lambda *a, **k: asked.append((a[1], len(ran))) or QMessageBox.Cancel)
    open_code(qtbot, window, monkeypatch, path)
    qtbot.waitUntil(lambda: bool(asked))
    assert asked == [("Unsaved changes", 0)]  # asked before any code ran
    assert not ran and window.code.progress is None  # Cancel: no import started
    assert window.graph is before and len(window.graph.nodes) == count and window.is_modified()
    assert not window.code.dock.isVisible()


def test_insert_code_on_a_modified_graph_asks_before_running_the_snippet(qtbot, window, monkeypatch):
    from PySide6.QtWidgets import QMessageBox

    ran = watch_imports(monkeypatch)
    shown(qtbot, window)
    click_node(qtbot, window, next(iter(window.graph.nodes)))
    QTest.keyClick(window.view.viewport(), Qt.Key_Delete)
    qtbot.waitUntil(window.is_modified)
    before = window.graph
    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(len(ran)) or QMessageBox.Cancel)
    dialog = window.code.insert_dialog()
    qtbot.waitUntil(dialog.isVisible)
    QTest.keyClick(dialog.edit, Qt.Key_Return, Qt.ControlModifier)  # Ctrl+Return imports
    qtbot.waitUntil(lambda: bool(asked))
    assert asked == [0] and not ran and window.code.progress is None
    assert window.graph is before and window.is_modified()


def test_a_typed_snippet_with_a_complex_number_comes_back_with_the_refusal_naming_its_line(qtbot, window):
    """File ▸ New graph from code… (Ctrl+Shift+I), typed, Ctrl+Return: a complex constant can't be a node's value,
    so the snippet comes back with why above it, naming the number and its line (no 'stopped without a result')."""
    from gui.code_import_dialog import CodeInputDialog

    def boxes():
        return [d for d in window.findChildren(CodeInputDialog) if d.isVisible()]

    shown(qtbot, window)
    QTest.keyClick(window, Qt.Key_I, Qt.ControlModifier | Qt.ShiftModifier)
    qtbot.waitUntil(lambda: len(boxes()) == 1)
    dialog = boxes()[0]
    dialog.edit.selectAll()
    QTest.keyClick(dialog.edit, Qt.Key_Delete)
    for line in ("import torch", "x = torch.tensor([1.0, 2.0])", "y = (x * (1+2j)).real.sum()"):
        QTest.keyClicks(dialog.edit, line)
        QTest.keyClick(dialog.edit, Qt.Key_Return)
    QTest.keyClick(dialog.edit, Qt.Key_Return, Qt.ControlModifier)
    qtbot.waitUntil(lambda: any(d is not dialog and d.error_label.isVisible() for d in boxes()), timeout=60_000)
    again = next(d for d in boxes() if d is not dialog)
    error = again.error_label.text()
    assert "line 3: the complex number (1+2j)" in error and "without a result" not in error
    assert again.edit.textCursor().blockNumber() == 2  # the cursor on the line named
    assert "(1+2j)" in again.edit.toPlainText()  # what was typed is kept
