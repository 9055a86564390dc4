"""Ctrl+Y redoes on the canvas as Ctrl+Shift+Z does (Edit > Redo): a user who deleted a node, undid and pressed
Ctrl+Y, as on Windows and in many apps, got nothing, while the Inspector's fields already answered Ctrl+Y."""

import pytest
from PySide6.QtCore import Qt

from tests.gui.real_input import shown
from tests.gui.scenarios.driver import click_node, press

pytest.importorskip("pytestqt")

W = "n2"  # the default graph's w


def _deleted_then_undone(qtbot, window):
    """The shown window after w was deleted by Delete and brought back by Ctrl+Z (so Redo has a step to redo)."""
    w = shown(qtbot, window)
    w.view.fit_all()
    click_node(qtbot, w, W)
    press(qtbot, w, Qt.Key_Delete)
    qtbot.waitUntil(lambda: W not in w.graph.nodes)
    press(qtbot, w, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: W in w.graph.nodes and W in w.scene.node_items)
    return w


@pytest.mark.parametrize("redo", [(Qt.Key_Y, Qt.ControlModifier), (Qt.Key_Z, Qt.ControlModifier | Qt.ShiftModifier)])
def test_ctrl_y_and_ctrl_shift_z_redo_a_deleted_node_on_the_canvas(qtbot, window, redo):
    w = _deleted_then_undone(qtbot, window)
    press(qtbot, w, *redo)
    qtbot.waitUntil(lambda: W not in w.graph.nodes and W not in w.scene.node_items)
    assert w.undo_stack.canUndo() and not w.undo_stack.canRedo()


def test_ctrl_y_in_a_field_with_unapplied_typing_leaves_the_document_alone(qtbot, window):
    """Typing not applied yet keeps Ctrl+Y a text key: the undone deletion stays undone."""
    from PySide6.QtTest import QTest

    from tests.gui.real_input import show_dock
    from tests.gui.scenarios.driver import type_into

    w = _deleted_then_undone(qtbot, window)
    click_node(qtbot, w, W)
    show_dock(qtbot, w, w.inspector_dock)
    qtbot.waitUntil(lambda: w.inspector.node_id == W and "tensor" in w.inspector.editors)
    field = w.inspector.editors["tensor"]
    type_into(qtbot, field, "[9.0, 9.0]", enter=False)
    QTest.keyClick(field, Qt.Key_Y, Qt.ControlModifier)
    assert W in w.graph.nodes and w.undo_stack.canRedo()
    assert field.text() == "[9.0, 9.0]"
