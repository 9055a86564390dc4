"""The Watch dock pinned from the inspector (curves with one point per step, values equal to the port's,
Remove unpins) and the data view's image grid for the shapes convnet example."""

import numpy as np
import pytest
from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QContextMenuEvent
from PySide6.QtWidgets import QApplication

from core.datasets import SHAPE_CLASSES
from core.nodegraph.files import io as files
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui.main_window import MainWindow
from gui.plots.image_grid import RIGHT, WRONG, caption

CONVNET = EXAMPLES_DIR / "playground-convnet.json"


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    windows = []

    def make(graph):
        w = MainWindow(graph)
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.training.trainer.pause()
        w.undo_stack.clear()
        w.close()


def _select(w, nid):
    w.scene.clearSelection()
    w.scene.node_items[nid].setSelected(True)
    assert w.inspector.node_id == nid


def _train(qtbot, w, steps):
    w.training.trainer.train(steps)
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=60_000)


def test_a_port_pinned_from_the_inspector_is_plotted_once_per_training_step(qtbot, window):
    w = window(classifier_graph("moons", steps=25))
    _select(w, "n3")
    qtbot.mouseClick(w.inspector.watch_buttons.buttons["out"], Qt.LeftButton)
    panel = w.training.watch
    assert panel.watch.keys == ["n3.out"] and panel.table.item(0, 0).text() == "loss"  # its title
    _train(qtbot, w, 25)
    panel.refresh()
    panel.plot.refresh()
    (steps, values), (_, grads) = panel.plot.curves("n3.out")
    run = w.training.trainer.history.current
    assert steps.tolist() == run.steps().tolist() == list(range(25))
    assert values == pytest.approx(run.series("loss"))
    assert values[-1] == pytest.approx(float(w.bridge.session.value("n3", "out")))
    assert np.all(grads == 1.0)
    assert panel.table.item(0, 1).text() == f"{values[-1]:.4g}"


def test_a_layer_weight_pinned_from_the_inspector_records_its_mean_and_gradient_norm(qtbot, window):
    w = window(classifier_graph("moons", steps=10))
    w.run_step("forward")
    _select(w, "n2")
    weights = [p for p in w.inspector.watch_buttons.buttons if p.endswith("weight")]
    assert weights, "the inspector offers the layer's parameters once they exist"
    qtbot.mouseClick(w.inspector.watch_buttons.buttons[weights[0]], Qt.LeftButton)
    qtbot.mouseClick(w.training.panel.buttons["Step"], Qt.LeftButton)
    qtbot.mouseClick(w.training.panel.buttons["Step"], Qt.LeftButton)
    panel = w.training.watch
    panel.plot.refresh()
    key = f"n2.{weights[0]}"
    (steps, values), (_, grads) = panel.plot.curves(key)
    weight = w.bridge.session.value("n2", weights[0])
    assert steps.tolist() == [0.0, 1.0]
    assert values[-1] == pytest.approx(float(weight.mean()))
    assert grads[-1] == pytest.approx(float(weight.grad.norm()))
    legend = [label.text for _, label in panel.plot.value_legend.items]
    assert "model." + key.split(".", 1)[1] + " mean" in legend  # the layer's title, not its id
    panel.refresh()
    assert panel.table.item(0, 1).text().endswith("(mean)") and panel.table.item(0, 2).text().endswith("(norm)")


def test_remove_unpins_the_port_and_drops_its_curves(qtbot, window):
    w = window(classifier_graph("moons", steps=5))
    _select(w, "n3")
    qtbot.mouseClick(w.inspector.watch_buttons.buttons["out"], Qt.LeftButton)
    _train(qtbot, w, 5)
    panel = w.training.watch
    panel.plot.refresh()
    assert "n3.out" in panel.plot.items
    qtbot.mouseClick(panel.remove_button("n3.out"), Qt.LeftButton)
    assert panel.watch.keys == [] and panel.table.rowCount() == 0
    assert panel.plot.items == {} and panel.plot.value_legend.items == []
    assert w.graph.view["watch"] == []
    _train(qtbot, w, 3)
    assert panel.watch.keys == []


def test_pins_saved_in_a_file_come_back_with_it(qtbot, window, tmp_path):
    g = classifier_graph("moons")
    g.view["watch"] = ["n3.out"]
    path = tmp_path / "pinned.json"
    files.save(g, path)
    w = window(files.load(path))
    w.training.watch.refresh()
    assert w.training.watch.watch.keys == ["n3.out"] and w.training.watch.table.item(0, 0).text() == "loss"


def test_the_data_view_shows_the_shapes_samples_with_captions(qtbot, window):
    w = window(files.load(CONVNET))
    _train(qtbot, w, 30)
    data = w.training.data
    data.refresh(force=True)
    assert data.view["kind"] == "images"
    grid = data.grid
    assert grid.isVisible() and not data.plot.isVisible()
    assert len(grid.cells) == 16 and len(grid.captions) == 16
    for i, (text, colour) in enumerate(grid.captions):
        truth = SHAPE_CLASSES[int(data.view["labels"][i])]
        guess = SHAPE_CLASSES[int(data.view["predicted"][i])]
        assert text.startswith(truth) and guess in text.split("<br>")[1]
        assert colour == (RIGHT if truth == guess else WRONG)
        assert grid.cells[i][2].text.find(truth) >= 0
    shown = grid.cells[0][1].image
    assert shown.shape == (28, 28) and np.allclose(shown, data.view["images"][0])
    right = int((data.view["labels"] == data.view["predicted"]).sum())
    assert f"({right} right)" in data.caption.text() and right >= 10


def test_the_canvas_port_menu_pins_an_output_and_the_source_of_an_input(qtbot, window):
    w = window(classifier_graph("moons"))
    menu_of = w.training.port_menu.menu_for
    ports = w.scene.node_items["n2"].ports
    menu = menu_of(ports[("out", True)])
    assert menu.actions()[0].text() == "Watch this port (model)"
    menu.actions()[0].trigger()
    menu = menu_of(ports[("x", False)])
    menu.actions()[0].trigger()
    assert w.training.watch.watch.keys == ["n2.out", "n1.x"]
    assert w.training.docks["watch"].isVisible()


def test_right_clicking_a_port_on_the_canvas_opens_the_watch_menu(qtbot, window):
    w = window(classifier_graph("moons"))
    port = w.scene.node_items["n3"].ports[("input", False)]
    w.view.centerOn(port)
    pos = w.view.mapFromScene(port.scene_anchor())
    chosen = []

    def pick():
        menu = QApplication.activePopupWidget()
        chosen.append(menu.actions()[0].text())
        menu.actions()[0].trigger()
        menu.close()

    QTimer.singleShot(50, pick)
    QApplication.sendEvent(w.view.viewport(), QContextMenuEvent(QContextMenuEvent.Mouse, pos,
                                                                w.view.viewport().mapToGlobal(pos)))
    assert chosen == ["Watch this port (model)"] and w.training.watch.watch.keys == ["n2.out"]


def test_a_watched_node_that_is_deleted_shows_as_removed_and_can_be_unpinned(qtbot, window):
    w = window(classifier_graph("moons"))
    panel = w.training.watch
    assert panel.pin("n3.out") is None and panel.pin("n9.out") == "can't watch n9.out: the graph has no node 'n9'"
    _select(w, "n3")
    w.scene.delete_selected()
    panel.refresh()
    assert panel.table.item(0, 1).text() == "node removed"
    qtbot.mouseClick(panel.remove_button("n3.out"), Qt.LeftButton)
    assert panel.watch.keys == []


def test_a_caption_marks_samples_held_out_for_validation():
    view = {"class_names": ["bar", "ring"], "labels": np.array([0, 1]), "predicted": np.array([0, 0]),
            "confidence": np.array([0.9, 0.6]), "indices": np.array([3, 5]),
            "held_out": np.array([False] * 5 + [True])}
    assert caption(view, 0) == ("bar<br>✓ bar 90%", RIGHT)
    assert caption(view, 1) == ("ring (held out)<br>✗ bar 60%", WRONG)
