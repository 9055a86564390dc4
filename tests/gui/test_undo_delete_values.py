"""Ctrl+Z after deleting a node shows the values the learner saw before the delete: the node and everything downstream
run again (they showed values before), as after any other edit; nothing is left empty on the canvas."""

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click_node, click_toolbar, shown


def test_undoing_a_delete_by_keys_shows_the_values_again(qtbot, window):
    w = shown(qtbot, window)
    click_toolbar(w, "forward")
    qtbot.waitUntil(lambda: not w.stepper.active and w.bridge.session.forward_complete)
    items = w.scene.node_items
    shown_before = {nid: item.display.value for nid, item in items.items()}
    assert all(shown_before.values())
    click_node(qtbot, w, "n4")  # the product: two inputs, two consumers
    QTest.keyClick(w.view.viewport(), Qt.Key_Delete)
    qtbot.waitUntil(lambda: "n4" not in w.scene.node_items)
    QTest.keyClick(w.view.viewport(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: "n4" in w.scene.node_items)
    qtbot.waitUntil(lambda: {nid: item.display.value for nid, item in w.scene.node_items.items()} == shown_before)
    assert not w.bridge.session.errors
