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
    qtbot.waitUntil(lambda: legend_texts(plot) == [run.label.replace(" → ", "<br>→ ")])  # one optimizer a line
    assert run.label.startswith(before + " → SGD(")
    w.undo_stack.setClean()


def test_the_train_dock_leaves_no_blank_band_above_its_settings_until_training_says_something(qtbot, node_types):
    """At 1366x768 the empty progress, step-mode and message lines left a band of ~70 px between the progress bar
    and 'More settings'; they show once they have something to say. The progress bar too: empty before the first
    step, it read as a blank text field under the buttons."""
    from core.nodegraph.files.toy import classifier_graph
    from tests.gui.real_input import show_dock

    w = shown(qtbot, make_window(qtbot, classifier_graph("spiral")))
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    lines = (panel.progress_label, panel.step_mode, panel.message)
    spacing = panel.layout().spacing()
    above = panel.buttons["Train"]
    qtbot.waitUntil(lambda: panel.settings_scroll.y() - above.geometry().bottom() <= spacing + 1)
    assert not any(line.isVisible() for line in lines) and not panel.progress_bar.isVisible()
    type_text(qtbot, panel.findChild(QWidget, "trainSteps"), "5")
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.training.trainer.done == 5, timeout=60_000)
    qtbot.waitUntil(lambda: panel.progress_label.isVisible() and panel.progress_label.text().startswith("5 / 5"))
    assert panel.progress_label.geometry().top() > panel.progress_bar.geometry().bottom()
    assert panel.settings_scroll.y() > panel.progress_label.geometry().bottom()
    click(panel.buttons["Reset"])  # a new run: the lines empty and the band closes again
    qtbot.waitUntil(lambda: not panel.progress_label.isVisible() and not panel.progress_bar.isVisible())
    qtbot.waitUntil(lambda: panel.settings_scroll.y() - above.geometry().bottom() <= spacing + 1)
    w.undo_stack.setClean()
