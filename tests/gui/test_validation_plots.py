"""Validation curves in the plots dock: a dataset with a split gets a dashed val loss and val accuracy per run;
the Train panel edits how often validation runs."""

import numpy as np
import pytest

from core.nodegraph.files.toy import classifier_graph
from gui.data_view import DataView
from gui.main_window import MainWindow


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    windows = []

    def make(fraction=0.2):
        g = classifier_graph("spiral")
        g.nodes["n1"].params["val_fraction"] = fraction
        w = MainWindow(g)
        qtbot.addWidget(w)
        w.show()
        windows.append(w)
        return w

    yield make
    for w in windows:
        w.training.trainer.pause()
        w.undo_stack.clear()
        w.close()


def _train(qtbot, w, steps):
    w.training.trainer.train(steps)
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=60_000)
    w.training.plot.refresh()


def test_training_with_a_split_draws_val_loss_and_accuracy_at_the_measured_steps(qtbot, window):
    w = window()
    _train(qtbot, w, 45)
    plot = w.training.plot
    x, y = plot.items[(1, "val_loss")].getData()
    assert x.tolist() == [9, 19, 29, 39, 44] and np.all(np.isfinite(y)) and np.all(y > 0)  # every 10 and the last
    x, acc = plot.items[(1, "val_accuracy")].getData()
    assert x.tolist() == [9, 19, 29, 39, 44] and np.all((acc >= 0) & (acc <= 1))
    assert len(plot.items[(1, "loss")].getData()[0]) == 45
    labels = [label.text for _, label in plot.legend.items]
    assert "run 1: validation" in labels
    assert "val_loss" in plot.describe(w.training.trainer.history.current, 19)


def test_a_graph_without_a_split_gets_no_validation_curves(qtbot, window):
    w = window(fraction=0.0)
    _train(qtbot, w, 25)
    assert (1, "val_loss") not in w.training.plot.items and (1, "val_accuracy") not in w.training.plot.items
    assert not any("validation" in label.text for _, label in w.training.plot.legend.items)


def test_the_train_panel_edits_val_every_undoably(qtbot, window):
    w = window()
    spin = w.training.panel.val_every
    assert spin.value() == 10
    spin.setValue(4)
    assert w.graph.training["val_every"] == 4
    _train(qtbot, w, 10)
    assert w.training.plot.items[(1, "val_loss")].getData()[0].tolist() == [3, 7, 9]
    w.undo_stack.undo()
    assert "val_every" not in w.graph.training and spin.value() == 10


def test_the_data_view_draws_the_held_out_points_hollow(qtbot, window):
    w = window()
    _train(qtbot, w, 5)
    data = w.findChild(DataView, "dataView")
    data.refresh(force=True)
    assert "60 held out for validation" in data.caption.text()
    brushes = data.points.data["brush"]
    held = data.view["held_out"]
    assert all(b is data._hollow for b in brushes[held]) and not any(b is data._hollow for b in brushes[~held])
