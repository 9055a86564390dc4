"""Training in slices with paced redraws: the views follow training, edits land between steps, a NaN stops
training and selects the node that produced it, and the window keeps answering."""

import math

import numpy as np
import pytest

from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model import commands
from gui.main_window import MainWindow
from tests.gui.waiting import timer_ticks
from tests.nodegraph.test_training_stop import diverging_graph


@pytest.fixture
def window(qtbot, monkeypatch):
    monkeypatch.setattr(MainWindow, "maybe_save", lambda self: True)  # no modal question when closing
    windows = []

    def make(graph=None):
        w = MainWindow(graph if graph is not None else classifier_graph("spiral"))
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


def _drawn_steps(plot) -> int:
    item = plot.items.get((1, "loss"))
    x = item.getData()[0] if item is not None else None
    return 0 if x is None else len(x)


def test_the_loss_plot_follows_training_while_it_runs(qtbot, window):
    w = window()
    trainer, plot = w.training.trainer, w.training.plot
    trainer.train(100_000)
    qtbot.waitUntil(lambda: _drawn_steps(plot) > 0, timeout=30_000)
    first = _drawn_steps(plot)
    qtbot.waitUntil(lambda: _drawn_steps(plot) > first, timeout=30_000)
    assert trainer.state == "training" and not plot.timer.isActive()  # redrawn by frames, not by its own timer
    trainer.pause()
    assert plot.timer.isActive()
    x, y = plot.items[(1, "loss")].getData()
    assert np.all(np.diff(x) > 0) and np.all(np.isfinite(y))
    assert w.training.frames.redraws["plot:loss"] >= 2


def test_hidden_docks_are_not_redrawn_while_training(qtbot, window):
    w = window()
    w.training.trainer.step()  # the window's first run shows Plots and Data (gui.dock_layout)
    w.training.docks["data"].hide()
    frames = w.training.frames
    w.training.trainer.train(100_000)
    qtbot.waitUntil(lambda: frames.redraws.get("plot:loss", 0) >= 3, timeout=30_000)
    w.training.trainer.pause()
    assert "data" not in frames.redraws
    assert "watch" not in frames.redraws and "watch_plot" not in frames.redraws  # a tab behind Plots


def test_step_while_paused_runs_exactly_one_iteration(qtbot, window):
    w = window()
    trainer = w.training.trainer
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=30_000)
    trainer.pause()
    done, steps = trainer.done, len(trainer.history.current)
    metrics = trainer.step()
    assert math.isfinite(metrics["loss"]) and trainer.state == "paused"
    assert trainer.done == done + 1 and len(trainer.history.current) == steps + 1
    assert trainer.history.current.steps()[-1] == metrics["step"]


def test_an_edit_during_training_applies_between_two_steps(qtbot, window):
    w = window()
    trainer = w.training.trainer
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=30_000)
    assert w.scene.edit(commands.SetParam("n2", "activation", "relu")) is None
    done = trainer.done
    qtbot.waitUntil(lambda: trainer.done >= done + 3, timeout=30_000)
    trainer.pause()
    assert "ReLU" in repr(trainer.session.states["n2"]["module"]) and w.graph.nodes["n2"].params["activation"] == "relu"
    assert all(math.isfinite(v) for v in trainer.history.current.series("loss"))
    assert len(trainer.history.runs) == 1 and not trainer.session.errors


def test_a_user_step_during_training_does_not_break_the_next_training_step(qtbot, window):
    w = window()
    trainer = w.training.trainer
    _train(qtbot, w, 3)
    w.run_step("forward")
    w.run_step("backward_step")  # a backward left half done
    _train(qtbot, w, 5)
    assert trainer.done == 5 and len(trainer.history.current) == 8
    assert all(math.isfinite(v) for v in trainer.history.current.series("loss"))


def test_a_nan_stops_training_and_selects_the_node_that_produced_it(qtbot, window):
    w = window(diverging_graph())
    w.training.trainer.train(50)
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=30_000)
    run = w.training.trainer.history.current
    assert len(run) == 2 and math.isnan(run.last("loss"))
    assert w.scene.selected_node_ids() == ["root"]  # the sqrt, not the loss it spoiled
    assert "nan" in w.status_label.text() and "comes from sqrt" in w.status_label.text()  # named by its title
    assert "comes from sqrt" in w.training.panel.message.text()


def test_a_100ms_timer_keeps_firing_on_time_during_training(qtbot, window):
    w = window()
    trainer = w.training.trainer
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=30_000)  # the window's first paints are not training's doing
    start = trainer.done
    ticks = timer_ticks(qtbot, 10)
    steps = trainer.done - start
    trainer.pause()
    assert steps > 10
    assert max(np.diff(ticks)) < 0.5  # slices are ~15 ms: even a busy machine keeps the timer near 100 ms


def test_opening_another_document_stops_training_with_a_message(qtbot, window):
    w = window()
    trainer = w.training.trainer
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=30_000)
    w.set_document(classifier_graph("circles"), None)
    qtbot.waitUntil(lambda: trainer.state == "idle", timeout=30_000)
    assert w.status_label.text() == "Training stopped: another document was opened"
    assert w.training.panel.message.text() == ""  # the new document's Train dock says nothing of the old run
    assert trainer.session.graph is w.graph and trainer.session.step_count == 0  # nothing trained on the new one
