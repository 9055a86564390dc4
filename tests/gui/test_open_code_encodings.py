"""File ▸ Open Code (Ctrl+Shift+O) reads a script as the headless import does: a file saved by a Windows editor
with a byte order mark imports, and one that is not UTF-8 says where its first other byte is, losing nothing."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QFileDialog

from tests.gui.real_input import shown

SNIPPET = "import torch\nx = torch.tensor([2.0, 3.0], requires_grad=True)\ny = (x * x).sum()\n"


def _open_code(window, monkeypatch, path) -> None:
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda *a, **k: (str(path), "Python code (*.py)"))
    QTest.keyClick(window, Qt.Key_O, Qt.ControlModifier | Qt.ShiftModifier)


def test_a_script_with_a_byte_order_mark_opens_as_its_code(qtbot, window, monkeypatch, tmp_path, dialogs):
    path = tmp_path / "bom.py"
    path.write_bytes(b"\xef\xbb\xbf" + SNIPPET.encode())
    shown(qtbot, window)
    _open_code(window, monkeypatch, path)
    qtbot.waitUntil(lambda: window.graph.code is not None, timeout=30_000)
    assert window.code.pane.editor.toPlainText() == SNIPPET
    assert not [text for kind, text in dialogs if kind == "warning"]


def test_a_latin1_script_says_where_it_is_not_utf8_and_keeps_the_open_graph(qtbot, window, monkeypatch, tmp_path,
                                                                           dialogs):
    path = tmp_path / "latin.py"
    path.write_bytes(("# café\n" + SNIPPET).encode("latin-1"))
    shown(qtbot, window)
    before = set(window.graph.nodes)
    _open_code(window, monkeypatch, path)
    qtbot.waitUntil(lambda: any(kind == "warning" for kind, _ in dialogs))
    text = next(text for kind, text in dialogs if kind == "warning")
    assert text.startswith("Can't read") and "not UTF-8" in text and "line 1, column 6" in text
    assert set(window.graph.nodes) == before and window.graph.code is None
