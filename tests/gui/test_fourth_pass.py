"""Leftovers of the third pass by hand, driven with real clicks and keys on the real widgets of a shown window."""

from PySide6.QtWidgets import QWidget

from tests.gui.conftest import make_window
from tests.gui.real_input import choose_in_combo, click, shown, type_text


def legend_texts(plot) -> list[str]:
    return [label.text for _sample, label in plot.legend.items]


def test_the_loss_legend_names_each_optimizer_a_run_used_after_a_switch_mid_run(qtbot, node_types):
    """Adam for 10 steps, then SGD chosen and trained on: the legend kept 'run 1: Adam(...)' for both parts."""
    from core.nodegraph.files.toy import classifier_graph

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel, trainer, plot = w.training.panel, w.training.trainer, w.training.plot
    first = w.graph.training["optimizer"]
    assert first != "SGD"
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "10")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 10, timeout=60_000)
    qtbot.waitUntil(lambda: len(legend_texts(plot)) == 1)
    before = legend_texts(plot)[0]
    assert before.startswith(f"run 1: {first}(") and "→" not in before
    choose_in_combo(qtbot, panel.optimizer, "SGD")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and len(trainer.history.current) == 20, timeout=60_000)
    run = trainer.history.current
    assert run.markers == [(9, f"optimizer {first} → SGD")]
    qtbot.waitUntil(lambda: legend_texts(plot) == [run.label])
    assert run.label.startswith(before + " → SGD(")
    w.undo_stack.setClean()
