"""The Train dock's "Batch size" is the dataset node's batch_size: a size typed there is the node's (its summary on
the canvas says it), the rows each training step draws, and one undo step named as the node's own edit; a graph
without a dataset node shows the field disabled, with the reason as its tooltip."""

import pytest
from PySide6.QtCore import Qt

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Graph
from gui.main_window import MainWindow
from tests.gui.real_input import click, press, show_dock, shown, type_text


@pytest.fixture
def window(qtbot):
    w = MainWindow(classifier_graph("moons", batch_size=32, steps=3))
    qtbot.addWidget(w)
    yield w
    w.training.trainer.pause()
    w.bridge.mark_saved()
    w.undo_stack.clear()
    w.close()


def _batch_field(qtbot, w):
    show_dock(qtbot, w, w.training.docks["train"])
    panel = w.training.panel
    panel.settings_scroll.ensureWidgetVisible(panel.batch_size)
    qtbot.waitUntil(lambda: not panel.batch_size.visibleRegion().isEmpty())
    return panel.batch_size


def test_a_batch_size_typed_in_the_train_dock_is_the_rows_each_training_step_draws(qtbot, window):
    w = shown(qtbot, window)
    field = _batch_field(qtbot, w)
    assert field.isEnabled() and field.value() == 32
    type_text(qtbot, field, "16")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["batch_size"] == 16)
    assert w.undo_stack.undoText() == "data: batch_size set to 16"
    qtbot.waitUntil(lambda: "batch_size=16" in " ".join(w.scene.node_items["n1"].display.params))
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.bridge.session is not None
                    and w.bridge.session.step_count == 3, timeout=60_000)
    assert w.bridge.session.value("n1", "x").shape[0] == 16  # the run's last batch: 16 rows of the dataset's 300


def test_undo_puts_the_nodes_batch_size_and_the_field_back(qtbot, window):
    w = shown(qtbot, window)
    field = _batch_field(qtbot, w)
    type_text(qtbot, field, "8")
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["batch_size"] == 8)
    w.scene.views()[0].setFocus()
    press(w, Qt.Key_Z, Qt.ControlModifier)
    qtbot.waitUntil(lambda: w.graph.nodes["n1"].params["batch_size"] == 32 and field.value() == 32)


def test_without_a_dataset_node_the_batch_size_field_is_disabled_and_says_why(qtbot):
    w = MainWindow(Graph())
    qtbot.addWidget(w)
    shown(qtbot, w)
    field = _batch_field(qtbot, w)
    assert not field.isEnabled()
    assert field.toolTip().startswith("no dataset node")
    w.close()
