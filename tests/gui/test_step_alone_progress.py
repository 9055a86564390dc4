"""The Train dock's Step button on its own says what it did, as Train does: the progress line read nothing after
one step (no Train, so no count of steps asked for), and "101 / 100 steps" after a finished Train. It now reads
"1 step · loss L", "2 steps · loss L", counting the run's steps (the loss plot's points) and L written as the canvas
writes the loss node; a Step while a Train is paused counts towards that Train's steps. The loss plot drew nothing
for the one step (a line of one point): it draws a dot until the run has a line."""

from core.nodegraph.files.toy import classifier_graph
from tests.gui.real_input import click, show_dock, shown


def _window(qtbot, steps: int):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=steps))
    qtbot.addWidget(w)
    shown(qtbot, w)
    show_dock(qtbot, w, w.training.docks["train"])
    return w


def _loss_on_canvas(w) -> str:
    return w.scene.node_items[w.graph.training["loss"]].display.value


def _drawn(w) -> int:
    """How many points the loss plot draws for run 1."""
    item = w.training.plot.items.get((1, "loss"))
    x = item.getData()[0] if item is not None else None
    return 0 if x is None else len(x)


def _says_step(qtbot, w, n: int) -> None:
    """Wait until the line reads "n steps · loss L" with L the loss node's value on the canvas; no bar to fill."""
    panel, count = w.training.panel, f"{n} step{'s' if n != 1 else ''}"
    qtbot.waitUntil(lambda: panel.progress_label.text().startswith(f"{count} · loss ") and bool(_loss_on_canvas(w)))
    assert panel.progress_label.text() == f"{count} · loss {_loss_on_canvas(w)}"
    assert panel.progress_label.isVisible() and panel.progress_bar.isHidden()


def test_step_alone_writes_the_step_and_its_loss_then_train_and_step_go_on_counting(qtbot, node_types):
    w = _window(qtbot, steps=5)
    panel, trainer = w.training.panel, w.training.trainer
    click(panel.buttons["Step"])
    _says_step(qtbot, w, 1)
    qtbot.waitUntil(lambda: _drawn(w) == 1)
    assert w.training.plot.items[(1, "loss")].opts["symbol"] == "o"  # one point: a dot (a line drew nothing)
    click(panel.buttons["Step"])
    _says_step(qtbot, w, 2)
    qtbot.waitUntil(lambda: _drawn(w) == 2)
    assert w.training.plot.items[(1, "loss")].opts["symbol"] is None  # the line shows the two
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 5, timeout=60_000)
    qtbot.waitUntil(lambda: panel.progress_label.text().startswith("5 / 5 steps · loss "))
    click(panel.buttons["Step"])  # after a finished Train: the run's 8 steps, not "6 / 5 steps"
    _says_step(qtbot, w, 8)
    assert len(trainer.current_run) == 8  # the loss plot's run has the same count
    click(panel.buttons["Reset"])
    qtbot.waitUntil(lambda: panel.progress_label.text() == "" and panel.progress_label.isHidden())
    w.undo_stack.setClean()


def test_step_while_a_train_is_paused_counts_towards_its_steps(qtbot, node_types):
    w = _window(qtbot, steps=100_000)
    panel, trainer = w.training.panel, w.training.trainer
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "training" and trainer.done > 0)
    click(panel.buttons["Pause"])
    qtbot.waitUntil(lambda: trainer.state == "paused")
    done = trainer.done
    click(panel.buttons["Step"])
    qtbot.waitUntil(lambda: panel.progress_label.text().startswith(f"{done + 1} / 100000 steps · loss "))
    assert panel.progress_bar.isVisible() and panel.progress_bar.value() == done + 1
    w.undo_stack.setClean()
