"""The Inspector keeps a matrix's rows whole: a 4x6 value too wide for the dock at 1366x768 scrolls sideways instead
of wrapping a row onto the next line, while its prose (strides, flags, statistics) still wraps in the dock's width."""

import pytest

from tests.gui.real_input import click_toolbar, new_randn_shape_field, shown, type_text

pytest.importorskip("pytestqt")


def _visual_lines(view) -> list[list[str]]:
    """Each text block (a line of the text) as the pieces the view lays it out in."""
    out, block = [], view.document().begin()
    while block.isValid():
        layout = block.layout()
        text = block.text()
        out.append([text[layout.lineAt(i).textStart():][:layout.lineAt(i).textLength()]
                    for i in range(layout.lineCount())])
        block = block.next()
    return out


def test_a_4x6_values_rows_stay_whole_and_the_view_scrolls_sideways(empty_window, qtbot):
    w = shown(qtbot, empty_window)
    nid, field = new_randn_shape_field(qtbot, w)
    type_text(qtbot, field, "4, 6")
    qtbot.waitUntil(lambda: list(w.graph.nodes[nid].params["shape"]) == [4, 6])
    click_toolbar(w, "forward")
    view = w.inspector.value_view
    qtbot.waitUntil(lambda: "out = " in view.toPlainText() and view.document().begin().layout().lineCount() > 0)
    text = view.toPlainText()
    assert text.startswith("out = [[") and "\u00a0" not in text  # a copy gives PyTorch's text, plain spaces
    lines = _visual_lines(view)
    rows = lines[:4]
    assert all(len(pieces) == 1 for pieces in rows), rows  # each row on one line, none continued below
    assert rows[3][0].rstrip().endswith("]]")
    assert view.horizontalScrollBar().maximum() > 0  # wider than the dock: reached by scrolling
    assert any(len(pieces) > 1 for pieces in lines[4:])  # the prose under it still wraps
