"""After Train, a node clicked on the canvas shows its value in the Inspector, as the canvas does: the Inspector took
the session only from the Run actions, so after a training run on a freshly opened document it said "Not computed
yet: step forward to see the value." beside a loss node drawn with its value (session 26's walk, the classifier
playground)."""

from core.nodegraph.files.toy import classifier_graph
from tests.gui.real_input import click, click_node, show_dock, shown


def _node(window, title: str) -> str:
    return next(nid for nid, n in window.graph.nodes.items() if n.title == title)


def test_a_node_clicked_after_training_shows_its_trained_value_in_the_inspector(qtbot, node_types):
    from gui.main_window import MainWindow

    w = MainWindow(classifier_graph("moons", steps=5))
    qtbot.addWidget(w)
    shown(qtbot, w)
    panel, trainer = w.training.panel, w.training.trainer
    show_dock(qtbot, w, w.training.docks["train"])
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: trainer.state == "idle" and trainer.done == 5, timeout=30_000)

    loss = _node(w, "loss")
    click_node(qtbot, w, loss)
    show_dock(qtbot, w, w.inspector_dock)
    text = w.inspector.value_view.toPlainText
    qtbot.waitUntil(lambda: text().startswith("out = "))
    assert "Not computed yet" not in text()
    assert f"{trainer.last_loss:.4f}" in text()  # the loss the run ended with, as the canvas draws it
    w.undo_stack.setClean()
    w.bridge.mark_saved()
