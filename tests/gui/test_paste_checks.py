"""Edit > Paste checks the clipboard as the loader checks a file (files.loads_fragment): text that a file could not
hold (a NaN position, a 50 MB title, a 30000x30000 shape, nesting deeper than Python's recursion limit) is refused
with the loader's message in the status bar, and the document is left as it was. Keys go to the canvas."""

import json

import pytest
from PySide6.QtCore import QMimeData, Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from gui.edit_commands import FRAGMENT_MIME
from tests.gui.real_input import shown


def _node(**fields) -> dict:
    return {"id": "n1", "type": "source.tensor", "params": {}, "position": [0.0, 0.0], **fields}


BAD = [
    ('{"nodes": [{"id": "n1", "type": "source.tensor", "params": {}, "position": [NaN, Infinity]}], "edges": []}',
     "nodes[0].position[0]: must be a finite number"),
    (json.dumps({"nodes": [_node(title="t" * 50_000_000)], "edges": []}), "nodes[0].title: longer than"),
    (json.dumps({"nodes": [_node(type="graph.subgraph", graph={"nodes": [
        {"id": "i1", "type": "source.zeros", "params": {"shape": [30000, 30000]}}], "edges": []})], "edges": []}),
     "nodes[0].graph.nodes[0].params: parameter 'shape' is too large"),
    ('{"nodes": ' + "[" * 100_000, "JSON nested too deeply"),
]


def _press_paste(qtbot, window, text: str, as_fragment: bool = False):
    data = QMimeData()
    if as_fragment:
        data.setData(FRAGMENT_MIME, text.encode())
    data.setText(text)
    QApplication.clipboard().setMimeData(data)
    w = shown(qtbot, window)
    w.view.setFocus()
    qtbot.waitUntil(w.view.hasFocus)
    QTest.keyClick(w.view, Qt.Key_V, Qt.ControlModifier)
    return w


@pytest.mark.parametrize("text, message", BAD, ids=["nan-position", "50mb-title", "huge-subgraph-shape", "deep"])
def test_pressing_ctrl_v_with_what_a_file_could_not_hold_is_refused_with_the_loaders_message(
        window, qtbot, text, message):
    before = window.graph.to_dict()
    w = _press_paste(qtbot, window, text, as_fragment=True)
    status = w.status_label.text()
    assert status.startswith("Nothing pasted: ") and message in status and len(status) < 400
    assert w.graph.to_dict() == before and w.undo_stack.count() == 0


def test_pressing_ctrl_v_with_plain_text_says_there_are_no_nodes(window, qtbot):
    w = _press_paste(qtbot, window, "[" * 100_000)
    assert w.status_label.text() == "The clipboard holds no Nodegrad nodes" and w.undo_stack.count() == 0


def test_pressing_ctrl_v_with_a_valid_fragment_pastes_its_nodes(window, qtbot):
    text = json.dumps({"nodes": [_node(params={"tensor": [1.0, 2.0]}, title="v")], "edges": []})
    w = _press_paste(qtbot, window, text)
    (new,) = set(w.graph.nodes) - {"n1", "n2", "n3", "n4", "n5", "n6"}
    assert w.graph.nodes[new].params["tensor"] == [1.0, 2.0] and w.graph.nodes[new].title == "v"
