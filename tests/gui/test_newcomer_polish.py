"""Small things a newcomer's walk through the app found (session 25): each driven with real clicks and keys on
the real widgets of a shown window."""

from PySide6.QtWidgets import QWidget

from tests.gui.real_input import click, show_dock, shown, type_text


def test_train_with_a_refused_learning_rate_says_why_in_the_status_bar(window, qtbot):
    """lr 'abc' then Train: nothing started and only the focus moved to the field; the status bar now says why,
    in the field's own refusal words."""
    w = shown(qtbot, window)
    panel = w.training.panel
    show_dock(qtbot, w, w.training.docks["train"])
    lr = panel.findChild(QWidget, "trainLr")
    type_text(qtbot, lr, "abc", enter=False)
    click(panel.buttons["Train"])
    qtbot.waitUntil(lambda: w.status_label.text().startswith("Can't train"))
    refusal = panel.refusals[lr].text()
    assert refusal  # the red line under the field says it too
    assert w.status_label.text() == f"Can't train: Learning rate: {refusal[0].lower()}{refusal[1:]}"
    assert "'abc'" in w.status_label.text()
    assert w.training.trainer.state == "idle" and w.training.trainer.done == 0
    qtbot.waitUntil(lr.hasFocus)
    w.undo_stack.setClean()


def test_the_regression_playgrounds_data_node_says_its_batch_size_0_is_the_whole_set(window, qtbot):
    """The data node showed batch_size=0 (an empty batch, to a newcomer) while the run takes all 100 rows."""
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    w = shown(qtbot, window)
    open_example(qtbot, w, "playground-regression")
    data = next(nid for nid, node in w.graph.nodes.items() if node.type == "data.dataset")
    assert w.graph.nodes[data].params["batch_size"] == 0
    qtbot.waitUntil(lambda: "batch_size=0 (whole set)" in w.scene.node_items[data].display.params)
    lines = [text for kind, text in w.scene.node_items[data]._preview_lines() if kind == "badge"]
    assert any("batch_size=0 (whole set)" in line for line in lines)  # drawn whole, on a line of its own or with others
