"""The first hour, by hand, an eighth time: what a newcomer met walking the README under a real screen, each driven
here through the real widgets (clicks on the buttons and the canvas where a user clicks them)."""

from tests.gui.real_input import click, show_dock, shown
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def _nodes_in_view(window) -> list[str]:
    """The titles of the nodes whose boxes lie wholly inside the canvas's viewport."""
    view = window.view
    shown_rect = view.mapToScene(view.viewport().rect()).boundingRect()
    return sorted(window.graph.nodes[nid].title for nid, item in window.scene.node_items.items()
                  if shown_rect.contains(item.sceneBoundingRect()))


def test_training_a_playground_keeps_its_whole_graph_in_view_above_the_plots(qtbot, window):
    """The classifier playground opened whole, then Train clicked: the Plots and Data docks take the bottom of the
    window, and the canvas above them, a third as tall, still shows every node (it kept the opening's zoom and cut
    data and the loss off under the plots)."""
    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-classifier")
    qtbot.waitUntil(lambda: _nodes_in_view(w) == ["data", "loss", "mlp"])
    show_dock(qtbot, w, w.training.docks["train"])
    click(w.training.panel.buttons["Train"])
    plots = w.training.docks["plots"]
    qtbot.waitUntil(lambda: w.training.trainer.state == "idle" and w.training.trainer.done > 0, timeout=60_000)
    qtbot.waitUntil(lambda: plots.isVisible() and not plots.visibleRegion().isEmpty())
    qtbot.waitUntil(lambda: _nodes_in_view(w) == ["data", "loss", "mlp"])
    w.undo_stack.setClean()
