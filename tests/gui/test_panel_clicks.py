"""The panels beside the canvas survive their own widgets' signals when driven by real clicks and keys:
the Train dock's editors (whose edits re-sync the dock), the Watch dock's remove buttons (whose click
rebuilds the table), the node palette and the node library."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from core.nodegraph.files.toy import classifier_graph
from tests.gui.real_input import (
    choose_in_combo,
    click,
    click_checkbox,
    click_node,
    double_click,
    double_click_library,
    show_dock,
    shown,
    type_text,
)


@pytest.fixture
def classifier(qtbot, node_types):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=5))
    qtbot.addWidget(w)
    shown(qtbot, w)
    yield w
    w.training.trainer.pause()
    w.undo_stack.setClean()


def test_train_dock_editors_change_the_documents_settings_by_click_and_key(classifier, qtbot):
    w, panel = classifier, classifier.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    choose_in_combo(qtbot, panel.optimizer, "Adam")
    qtbot.waitUntil(lambda: w.graph.training["optimizer"] == "Adam")
    choose_in_combo(qtbot, panel.optimizer, "SGD")
    type_text(qtbot, panel.momentum, "0.9")
    qtbot.waitUntil(lambda: (w.graph.training.get("optimizer_params") or {}).get("momentum") == 0.9)
    click_checkbox(panel.nesterov)
    qtbot.waitUntil(lambda: w.graph.training["optimizer_params"].get("nesterov") is True)
    click_checkbox(panel.stop_nan)
    qtbot.waitUntil(lambda: (w.graph.training.get("stop") or {}).get("stop_on_nan") is False)
    loss = panel.loss.itemText(panel.loss.count() - 1)
    choose_in_combo(qtbot, panel.loss, loss)
    qtbot.waitUntil(lambda: w.graph.training.get("loss") == panel.loss.itemData(panel.loss.count() - 1))
    assert panel.loss.currentText() == loss  # the combo re-filled by its own edit still shows the choice


def test_the_watch_docks_remove_button_unpins_by_click(classifier, qtbot):
    w = classifier
    nid = next(n for n, node in w.graph.nodes.items() if node.type == "source.tensor" or node.type.startswith("layer"))
    click_node(qtbot, w, nid)
    show_dock(qtbot, w, w.inspector_dock)
    watch = w.inspector.watch_buttons
    qtbot.waitUntil(lambda: "out" in watch.buttons and watch.buttons["out"].isVisible())
    click(watch.buttons["out"])
    panel = w.training.watch
    qtbot.waitUntil(lambda: panel.watch.keys == [f"{nid}.out"])
    show_dock(qtbot, w, w.training.docks["watch"])
    button = panel.remove_button(f"{nid}.out")
    qtbot.waitUntil(button.isVisible)
    click(button)
    qtbot.waitUntil(lambda: panel.watch.keys == [] and panel.table.rowCount() == 0)


def test_the_palette_adds_the_node_typed_or_double_clicked(empty_window, qtbot):
    w = shown(qtbot, empty_window)
    double_click(w.view.viewport(), QPoint(200, 200))
    qtbot.waitUntil(lambda: w.node_palette is not None and w.node_palette.isVisible())
    QTest.keyClicks(w.node_palette.search_edit, "tensor")
    QTest.keyClick(w.node_palette.search_edit, Qt.Key_Return)
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 1)
    double_click(w.view.viewport(), QPoint(500, 200))
    qtbot.waitUntil(w.node_palette.isVisible)
    QTest.keyClicks(w.node_palette.search_edit, "math.mul")
    results = w.node_palette.results
    double_click(results.viewport(), results.visualItemRect(results.item(0)).center())
    qtbot.waitUntil(lambda: len(w.graph.nodes) == 2)
    assert {n.type for n in w.graph.nodes.values()} == {"source.tensor", "math.mul"}


def test_two_nodes_added_from_the_library_are_both_inspectable(empty_window, qtbot):
    w = shown(qtbot, empty_window)
    first = double_click_library(qtbot, w, "source.tensor")
    second = double_click_library(qtbot, w, "layer.linear")
    for nid in (first, second, first):
        click_node(qtbot, w, nid)
        qtbot.waitUntil(lambda nid=nid: w.inspector.node_id == nid)
    assert "requires_grad" in w.inspector.editors
