"""The training side of the window, driven through real widgets: train, pause, reset, live plots,
the decision boundary, the autograd view, diagnostics and a responsive event loop."""

import gc

import numpy as np
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication

from core.nodegraph.files.examples import default_graph
from core.nodegraph.files.toy import classifier_graph
from core.nodegraph.model.document import Edge, Graph, Node
from gui.main_window import MainWindow
from tests.gui.real_input import show_dock, type_text
from tests.gui.waiting import event_loop_turns, timer_ticks, wait_until_layouts_settle


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


def _train_flat_out(qtbot, trainer) -> None:
    """Start training far more steps than a test waits for, and return once a few are done."""
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 3, timeout=30_000)


def _train(qtbot, w, steps):
    w.training.trainer.train(steps)
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=60_000)


def test_training_the_classifier_for_200_steps_fills_the_loss_plot(qtbot, window):
    w = window()
    qtbot.mouseClick(w.training.panel.buttons["Train"], Qt.LeftButton)
    assert w.training.trainer.state == "training"
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle", timeout=60_000)
    w.training.plot.refresh()
    x, y = w.training.plot.items[(1, "loss")].getData()
    assert len(x) == 200 and np.all(np.diff(x) > 0)
    assert np.all(np.isfinite(y))
    assert y[-20:].mean() < 0.7 * y[:20].mean()
    assert "200 / 200 steps" in w.training.panel.progress_label.text()
    acc = w.training.plot.items[(1, "accuracy")].getData()[1]
    assert acc[-1] > 0.6


def test_pause_stops_training_within_one_step(qtbot, window):
    w = window()
    trainer = w.training.trainer
    _train_flat_out(qtbot, trainer)
    qtbot.mouseClick(w.training.panel.buttons["Pause"], Qt.LeftButton)
    done = trainer.done
    event_loop_turns(qtbot)  # a live slice timer would have run a step on each turn
    assert trainer.state == "paused" and trainer.done - done <= 1
    trainer.train()
    qtbot.waitUntil(lambda: trainer.done > done + 2, timeout=30_000)
    trainer.pause()
    assert len(trainer.history.runs) == 1


def test_reset_starts_a_second_run_drawn_beside_the_first(qtbot, window):
    w = window()
    _train(qtbot, w, 30)
    first = w.graph.nodes["n2"]
    qtbot.mouseClick(w.training.panel.buttons["Reset"], Qt.LeftButton)
    _train(qtbot, w, 20)
    plot = w.training.plot
    plot.refresh()
    runs = w.training.trainer.history.runs
    assert [len(r) for r in runs] == [30, 20] and first is w.graph.nodes["n2"]
    assert len(plot.items[(1, "loss")].getData()[0]) == 30 and len(plot.items[(2, "loss")].getData()[0]) == 20
    assert runs[1].series("loss")[0] == pytest.approx(runs[0].series("loss")[0])  # same seed, same start
    assert [label.text for _sample, label in plot.legend.items] == [r.label for r in reversed(runs)]  # newest first


def test_the_decision_boundary_changes_as_training_proceeds(qtbot, window):
    w = window(classifier_graph("circles"))
    w.training.docks["data"].raise_()
    _train(qtbot, w, 2)
    w.training.data.refresh(force=True)
    before = w.training.data.image.image.copy()
    assert w.training.data.view["kind"] == "classification" and before.ndim == 2
    _train(qtbot, w, 80)
    w.training.data.refresh(force=True)
    assert not np.allclose(before, w.training.data.image.image)


def test_changing_the_learning_rate_while_training_is_undoable_and_marked(qtbot, window):
    w = window()
    trainer = w.training.trainer
    _train_flat_out(qtbot, trainer)
    w.training.panel.lr.setValue(0.005)
    done = trainer.done
    qtbot.waitUntil(lambda: trainer.done >= done + 2, timeout=30_000)
    trainer.pause()
    assert w.graph.training["optimizer_params"]["lr"] == 0.005
    assert trainer.session.optimizer().param_groups[0]["lr"] == 0.005
    assert "lr 0.02 → 0.005" in trainer.history.current.markers[0][1]
    assert trainer.history.current.series("lr")[-1] == 0.005
    w.undo_stack.undo()
    assert w.graph.training["optimizer_params"]["lr"] == 0.02 and w.training.panel.lr.value() == 0.02


def test_a_stop_condition_ends_training_with_a_message(qtbot, window):
    w = window()
    w.training.panel.loss_below.setValue(0.6)
    _train(qtbot, w, 100_000)
    run = w.training.trainer.history.current
    assert run.last("loss") < 0.6 and len(run) < 100_000
    assert "below 0.6" in w.training.panel.message.text() and "below 0.6" in w.status_label.text()


def test_the_window_answers_a_100ms_timer_during_training(qtbot, window):
    w = window()
    _train_flat_out(qtbot, w.training.trainer)  # after the window's first paints, which are not training's doing
    start = w.training.trainer.done
    ticks = timer_ticks(qtbot, 8)
    steps = w.training.trainer.done - start
    w.training.trainer.pause()
    assert steps > 10  # "not frozen"; the benchmark measures the latency itself
    assert max(np.diff(ticks)) < 1.0


def test_plots_export_csv_and_png(qtbot, window, tmp_path):
    w = window()
    _train(qtbot, w, 10)
    w.training.plot.export_csv(str(tmp_path / "t.csv"))
    lines = (tmp_path / "t.csv").read_text().splitlines()
    assert lines[0].startswith("run,step,smoothed") and len(lines) == 11
    assert w.training.plot.export_png(str(tmp_path / "t.png")) and (tmp_path / "t.png").stat().st_size > 1000
    run = w.training.trainer.history.current
    assert w.training.plot.describe(run, 4.2).startswith("run 1 step 4 · loss ")


def test_the_autograd_view_lists_the_chapters_nodes_and_follows_the_canvas(qtbot, window):
    w = window(default_graph())
    view = w.training.autograd
    w.run_step("forward")
    assert sorted(view.names()) == sorted(["AddBackward0", "SumBackward0", "MulBackward0"] + ["AccumulateGrad"] * 3)
    w.scene.node_items["n4"].setSelected(True)
    mul = view.names().index("MulBackward0")
    assert view.boxes[mul].fill().name() == "#ffeca0"
    w.scene.clearSelection()
    view.graph_view.box_clicked.emit(view.names().index("AddBackward0"))
    assert w.scene.selected_node_ids() == ["n6"]
    w.run_step("backward_step")
    assert view.running == view.names().index("AddBackward0")


def test_a_diagnostic_appears_for_a_silent_broadcast_and_clicking_selects_its_node(qtbot, window):
    g = Graph()
    g.add_node(Node("pred", "source.randn", {"shape": [32, 1], "seed": 1}))
    g.add_node(Node("y", "source.randn", {"shape": [32], "seed": 2}, (0.0, 150.0)))
    g.add_node(Node("loss", "loss.mse", {}, (250.0, 50.0)))
    g.connect(Edge("pred", "out", "loss", "input"))
    g.connect(Edge("y", "out", "loss", "target"))
    g.set_training("loss", "loss")
    w = window(g)
    w.run_step("forward")
    panel = w.training.diagnostics
    hints = panel.refresh(force=True)
    assert any(h.rule == "silent_broadcast" and h.node_id == "loss" for h in hints)
    row = next(i for i, h in enumerate(hints) if h.rule == "silent_broadcast")
    panel.tree.itemClicked.emit(panel.tree.topLevelItem(row), 0)
    assert w.scene.selected_node_ids() == ["loss"]


def test_the_device_selector_lists_cpu_and_the_setting_is_saved(qtbot, window):
    import core

    w = window()
    items = [w.training.device.itemText(i) for i in range(w.training.device.count())]
    assert items[0] == "cpu" and ("cuda" in items) == core.cuda.is_available()
    w.training.panel.steps.setValue(321)
    assert w.graph.training["steps"] == 321 and w.undo_stack.count() == 1


def test_a_constant_learning_rate_is_plotted_in_a_range_around_it(qtbot, window):
    w = window()
    _train(qtbot, w, 20)
    w.training.plot.refresh()
    lr = w.training.plot.items[(1, "lr")].getData()[1]
    low, high = w.training.plot.plots["lr"].viewRange()[1]
    assert np.all(lr == lr[0]) and low == pytest.approx(0.5 * lr[0]) and high == pytest.approx(1.5 * lr[0])


def test_a_learning_rate_of_zero_is_shown_as_zero_and_trains_without_moving(qtbot, window):
    g = classifier_graph("spiral")
    g.training["optimizer_params"] = dict(g.training.get("optimizer_params") or {}, lr=0.0)
    w = window(g)
    assert w.training.panel.lr.value() == 0.0
    before = {k: v.detach().numpy().copy() for k, v in w.bridge.ensure().parameters().items()}
    _train(qtbot, w, 3)
    after = w.bridge.session.parameters()
    assert all(np.array_equal(before[k], after[k].detach().numpy()) for k in before)


def test_progress_updates_repaint_the_line_without_relaying_out_the_window(qtbot, window):
    from PySide6.QtCore import QEvent, QObject

    w = window()
    qtbot.waitExposed(w)
    panel = w.training.panel
    requests = []

    class Spy(QObject):
        def eventFilter(self, obj, event):
            if event.type() == QEvent.LayoutRequest and obj in (w, panel, w.training.docks["train"]):
                requests.append(obj)
            return False

    spy = Spy()
    # the first update shows the line (empty, it is hidden: no blank band in the dock), a layout once per run; a
    # text too wide for the dock takes a second line, one more layout when the number of lines changes
    panel.show_progress({"done": 0, "total": 100, "rate": 1234.0, "eta": 0.5, "state": "training"})
    wait_until_layouts_settle(qtbot, (w, panel, w.training.docks["train"]))  # the window's own first layouts
    QApplication.instance().installEventFilter(spy)
    try:
        for done in range(1, 30):
            panel.show_progress({"done": done, "total": 100, "rate": 1234.0 + done, "eta": 0.5, "state": "training"})
            QApplication.processEvents()
    finally:
        QApplication.instance().removeEventFilter(spy)
    assert requests == []
    assert panel.progress_label.text() == "29 / 100 steps · 1263 steps/s · 0.5 s left"
    panel.progress_label.resize(40, panel.progress_label.height())  # too narrow: elided, the whole text in the tooltip
    assert panel.progress_label.toolTip() == panel.progress_label.text()


def test_training_sets_the_windows_objects_aside_from_full_collections_and_gives_them_back(qtbot, window):
    w = window()
    trainer = w.training.trainer
    _train_flat_out(qtbot, trainer)
    assert gc.get_freeze_count() > 10_000  # a full collection while training does not walk the window
    trainer.pause()
    assert gc.get_freeze_count() == 0  # paused or idle: everything is collectable again
    trainer.train(3)
    qtbot.waitUntil(lambda: trainer.state == "idle", timeout=30_000)
    assert gc.get_freeze_count() == 0


def test_closing_the_window_stops_training(qtbot, window):
    w = window()
    trainer = w.training.trainer
    _train_flat_out(qtbot, trainer)
    w.close()
    assert trainer.state != "training" and gc.get_freeze_count() == 0
    done = trainer.done
    event_loop_turns(qtbot)
    assert trainer.done == done


def test_training_a_graph_without_parameters_says_why_and_stops(qtbot, window):
    w = window(default_graph())  # the chapter's z = (x*w).sum() + b: leaves, but no parameter to train
    trainer = w.training.trainer
    qtbot.mouseClick(w.training.panel.buttons["Train"], Qt.LeftButton)
    qtbot.waitUntil(lambda: trainer.state == "idle", timeout=10_000)
    assert "no parameters" in w.status_label.text()
    assert "a tensor node is not trained" in w.status_label.text()  # the whole reason fits, not elided
    assert trainer.done == 0 and all(len(run) == 0 and not run.markers for run in trainer.history.runs)
    assert w.training.panel.buttons["Train"].isEnabled()


def test_two_windows_training_keep_the_collector_set_aside_until_both_stop(qtbot, window):
    first, second = window().training.trainer, window().training.trainer
    _train_flat_out(qtbot, first)
    _train_flat_out(qtbot, second)
    first.pause()
    assert gc.get_freeze_count() > 0  # the second still trains
    second.pause()
    assert gc.get_freeze_count() == 0


def test_any_node_picked_as_the_loss_trains_or_says_why(qtbot, window):
    w = window()
    panel, trainer = w.training.panel, w.training.trainer
    for index in range(panel.loss.count()):
        panel.loss.setCurrentIndex(index)
        panel.loss.activated.emit(index)  # as a user's pick does
        trainer.train(3)
        qtbot.waitUntil(lambda: trainer.state == "idle", timeout=30_000)
        run = trainer.history.current
        loss = panel.loss.currentData()
        if loss is None or w.bridge.graph.nodes[loss].type.startswith("loss."):
            assert run is not None and len(run) > 0 and np.isfinite(run.last())
        else:
            assert "stopped" in w.status_label.text().lower()  # "Stopped: ..." as a sentence


def test_pause_and_step_leave_the_per_node_autograd_graph_after_replayed_steps(qtbot, window):
    w = window()
    trainer = w.training.trainer
    session = trainer.session
    trainer.train(100_000)
    qtbot.waitUntil(lambda: trainer.done >= 5 and session.trainer.replayed, timeout=30_000)
    qtbot.mouseClick(w.training.panel.buttons["Pause"], Qt.LeftButton)
    assert trainer.state == "paused" and not session.trainer.replayed

    def loss_node_name():
        loss = session.values[session.loss_node()]["out"]
        return loss.grad_fn.name()
    assert loss_node_name() != "CompiledFunctionBackward"  # the autograd view draws each node's own ops
    done = trainer.done
    qtbot.mouseClick(w.training.panel.buttons["Step"], Qt.LeftButton)
    assert trainer.done == done + 1 and trainer.state == "paused"
    assert loss_node_name() != "CompiledFunctionBackward" and not session.trainer.replayed


def test_a_stop_after_a_replayed_step_says_so_under_the_autograd_graph_and_step_shows_every_op(qtbot, window):
    w = window()
    trainer = w.training.trainer
    session = trainer.session
    show_dock(qtbot, w, w.training.docks["train"])
    type_text(qtbot, w.training.panel.loss_below, "0.45")  # the spiral's loss passes it after a few replayed steps
    qtbot.waitUntil(lambda: trainer.stop_conditions.loss_below == 0.45)
    w.training.docks["autograd"].raise_()
    qtbot.mouseClick(w.training.panel.buttons["Train"], Qt.LeftButton)
    qtbot.waitUntil(lambda: trainer.state == "idle", timeout=60_000)
    view = w.training.autograd
    view.refresh()
    assert session.trainer.replayed and trainer.done > 3  # the stop came after a replay (steps 3 on replay)
    assert "CompiledFunctionBackward stands for the recorded ops" in view.caption.text()
    qtbot.mouseClick(w.training.panel.buttons["Step"], Qt.LeftButton)
    view.refresh()
    assert not session.trainer.replayed and "CompiledFunctionBackward" not in view.names()
    assert "of the last training step (its backward freed" in view.caption.text()
