"""The loss plot's legend is true to each run's learning rate: a new lr typed in the Train dock between two Train
presses of one run (or mid-run) is named from the step it took over, with the value the optimizer used (the run's
lr series, recorded from the optimizer each step); a run begun after Reset names only the lr it ran with."""

import numpy as np
from PySide6.QtWidgets import QWidget

from tests.gui.conftest import make_window
from tests.gui.real_input import click, shown, type_text


def legend_texts(plot) -> list[str]:
    return [label.text for _sample, label in plot.legend.items]


def _train(qtbot, w, rows: int) -> None:
    trainer = w.training.trainer
    click(w.training.panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.history.current is not None
                    and len(trainer.history.current) == rows, timeout=60_000)


def test_the_loss_legend_names_the_learning_rate_each_part_of_a_run_used(qtbot, node_types):
    from core.nodegraph.files.toy import classifier_graph

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, trainer, plot = w.training.panel, w.training.trainer, w.training.plot
    optimizer = w.graph.training["optimizer"]
    first = w.graph.training["optimizer_params"]["lr"]
    assert first not in (0.005, 0.3)
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "5")
    _train(qtbot, w, 5)
    run = trainer.history.current
    qtbot.waitUntil(lambda: legend_texts(plot) == [f"run 1: {optimizer}(lr={first:g})"])

    type_text(qtbot, panel.findChild(QWidget, "trainLr"), "0.005")  # between two Train presses: the same run
    qtbot.waitUntil(lambda: w.graph.training["optimizer_params"]["lr"] == 0.005)
    _train(qtbot, w, 10)
    assert trainer.history.current is run
    lrs = run.series("lr")
    assert np.all(lrs[:5] == first) and np.all(lrs[5:] == 0.005)  # what the optimizer used, step by step
    label = f"run 1: {optimizer}(lr={first:g}) → {optimizer}(lr={lrs[5]:g})"
    assert run.label == label
    qtbot.waitUntil(lambda: legend_texts(plot) == [label.replace(" → ", "<br>→ ")])

    click(panel.buttons["Reset"])
    qtbot.waitUntil(lambda: trainer.current_run is None)
    type_text(qtbot, panel.findChild(QWidget, "trainLr"), "0.3")
    qtbot.waitUntil(lambda: w.graph.training["optimizer_params"]["lr"] == 0.3)
    _train(qtbot, w, 5)
    newest = trainer.history.current
    assert newest is not run and np.all(newest.series("lr") == 0.3)
    qtbot.waitUntil(lambda: legend_texts(plot) == [f"run 2: {optimizer}(lr=0.3)", label.replace(" → ", "<br>→ ")])
    w.undo_stack.clear()
