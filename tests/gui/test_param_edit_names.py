"""Editing a parameter in the Inspector, the status bar said "Set w.dtype", which reads like code; it now says what
was set, for a learner ("w: dtype set to float64"), and Undo, Redo and Edit ▸ History name the edit the same way."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QCheckBox, QComboBox, QLineEdit

from tests.gui.real_input import choose_in_combo, click_node, click_toolbar, shown, type_text


def _field(qtbot, window, cls, name):
    def found():
        return next((f for f in window.inspector.findChildren(cls, name) if f.isVisible()), None)
    qtbot.waitUntil(lambda: found() is not None)
    return found()


def test_a_dtype_chosen_in_the_inspector_is_named_for_a_learner_in_the_status_bar_undo_and_redo(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n2")  # w
    choose_in_combo(qtbot, _field(qtbot, w, QComboBox, "param_dtype"), "float64")
    said = "w: dtype set to float64"
    qtbot.waitUntil(lambda: w.status_label.text() == said)
    assert w.graph.node("n2").params["dtype"] == "float64"
    assert w.undo_stack.undoText() == said  # Edit ▸ History's line
    click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Undone: {said}")
    assert w.graph.node("n2").params["dtype"] == "default"
    click_toolbar(w, "redo")
    qtbot.waitUntil(lambda: w.status_label.text() == f"Redone: {said}")


def test_a_typed_tensor_and_a_ticked_box_are_named_the_same_way(window, qtbot):
    w = shown(qtbot, window)
    click_node(qtbot, w, "n1")  # x
    type_text(qtbot, _field(qtbot, w, QLineEdit, "param_tensor"), "[4., 5.]")
    qtbot.waitUntil(lambda: w.status_label.text() == "x: tensor set to [4.0, 5.0]")
    box = _field(qtbot, w, QCheckBox, "param_requires_grad")
    from tests.gui.real_input import click_checkbox

    click_checkbox(box)
    qtbot.waitUntil(lambda: w.status_label.text() == "x: requires_grad set to False")
    QTest.keyClick(w.view.viewport(), Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.status_label.text() == "Undone: x: requires_grad set to False")


def test_a_training_setting_typed_in_the_train_dock_is_named_the_same_way(window, qtbot):
    from tests.gui.real_input import show_dock

    w = shown(qtbot, window)
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, w.training.panel.steps, "300")
    qtbot.waitUntil(lambda: w.status_label.text() == "Training: steps set to 300")
    click_toolbar(w, "undo")
    qtbot.waitUntil(lambda: w.status_label.text() == "Undone: Training: steps set to 300")


def test_an_edit_of_a_node_whose_title_is_a_word_keeps_the_title_as_drawn(window, qtbot):
    """The status bar writes a message as a sentence ("can't open…" -> "Can't open…"); an edit's name starts with the
    node's title, which stays as the canvas draws it: "xw: …", never "Xw: …"."""
    w = shown(qtbot, window)
    click_node(qtbot, w, "n5")  # s, a sum: its title renamed to a word
    type_text(qtbot, w.inspector.name_edit, "total")
    qtbot.waitUntil(lambda: w.graph.node("n5").title == "total")
    box = _field(qtbot, w, QCheckBox, "param_keepdim")
    from tests.gui.real_input import click_checkbox

    click_checkbox(box)
    qtbot.waitUntil(lambda: w.status_label.text() == "total: keepdim set to True")
