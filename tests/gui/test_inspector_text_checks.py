"""A parameter field refuses what it can't read with a message under the form, and the slot survives: pasting a
line of '[' (deeper than Python's recursion limit) or typing 1e999 into a tensor field leaves the node as it was."""

import pytest
from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication

from tests.gui.real_input import click, shown


@pytest.fixture
def tensor_field(window, qtbot):
    w = shown(qtbot, window)
    w.inspector.show_node("n1")
    field = w.inspector.editors["tensor"]
    qtbot.waitUntil(field.isVisible)
    return w, field


def _enter(qtbot, field, paste: str | None = None, typed: str = ""):
    click(field)
    qtbot.waitUntil(field.hasFocus)
    QTest.keyClick(field, Qt.Key_A, Qt.ControlModifier)
    if paste is not None:
        QApplication.clipboard().setText(paste)
        QTest.keyClick(field, Qt.Key_V, Qt.ControlModifier)
    QTest.keyClicks(field, typed)
    QTest.keyClick(field, Qt.Key_Return)


def test_pasting_a_line_of_brackets_into_a_field_is_refused_with_a_message(tensor_field, qtbot):
    w, field = tensor_field
    _enter(qtbot, field, paste="[" * 100_000)
    assert len(field.text()) > 2000  # deeper than Python's recursion limit even if the field cut it
    qtbot.waitUntil(lambda: "nested deeper than" in w.inspector.refusal_notes["tensor"].text())
    assert w.graph.nodes["n1"].params["tensor"] == [2.0, 3.0]


def test_typing_1e999_into_a_tensor_field_is_refused_instead_of_becoming_infinity(tensor_field, qtbot):
    w, field = tensor_field
    _enter(qtbot, field, typed="1e999")
    qtbot.waitUntil(lambda: "too large" in w.inspector.refusal_notes["tensor"].text())
    assert w.graph.nodes["n1"].params["tensor"] == [2.0, 3.0]
