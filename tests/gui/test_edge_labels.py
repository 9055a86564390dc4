"""An edge's shape label sits on the edge where no node covers it, so a shape is never written over a node, and
where it can, clear of every edge's line and a little apart from the other labels (lesson 6's ``(4, 1)`` sat boxed
on its own curve between two ports, crossed by another edge)."""

import pytest

from core.nodegraph.files import io as files
from core.nodegraph.lessons.texts import EXAMPLES_DIR
from gui.canvas.node_item import NodeItem
from tests.gui.conftest import make_window

CLASSIFIER = EXAMPLES_DIR / "playground-classifier.json"


def _nodes_under(window, label):
    rect = label.sceneBoundingRect()
    return [i.node_id for i in window.scene.items(rect) if isinstance(i, NodeItem)]


def test_a_label_of_an_edge_running_behind_a_node_moves_along_the_edge_off_the_node(qtbot, node_types):
    window = make_window(qtbot, files.load(CLASSIFIER))
    window.named_actions["forward"].trigger()
    labels = {(e.src, e.src_port, e.dst): item.label for e, item in window.scene.edge_items.items()}
    behind = labels[("n1", "y", "n3")]  # data.y -> loss.target passes behind the mlp node
    assert behind.text() == "(32,)" and _nodes_under(window, behind) == []
    assert all(_nodes_under(window, label) == [] for label in labels.values())
    window.undo_stack.setClean()


def test_an_edge_with_a_free_middle_keeps_its_label_at_the_middle(window):
    window.named_actions["forward"].trigger()
    labelled = [item for item in window.scene.edge_items.values() if item.label.text()]
    assert len(labelled) == len(window.scene.edge_items) == 5
    straight = [item for item in labelled if abs(item._ends[0].y() - item._ends[1].y()) < 0.5]
    assert straight  # xw -> s: nothing covers its middle
    for item in straight:
        mid = item.path().pointAtPercent(0.5)
        assert abs(item.label.sceneBoundingRect().center().x() - mid.x()) < 1.0


def _lines_across(window, label):
    from gui.canvas.edge_item import EdgeItem

    rect = label.sceneBoundingRect()
    return [str(i.edge) for i in window.scene.items(rect) if isinstance(i, EdgeItem) and i.line().intersects(rect)]


@pytest.mark.parametrize("key", [None, "01-tensors", "04-autograd-graph", "06-training-step"])
def test_after_forward_all_every_shape_label_reads_clear_of_lines_nodes_and_other_labels(qtbot, window, key):
    """The first start's graph or a lesson opened from File > Examples, Forward all clicked on the toolbar: no label
    is boxed, crossed by a line (its own edge's included), over a node, or within a few pixels of another label.
    (Lesson 1's ``(32, 3, 224, 224)`` sat boxed over x's out port and y's title: its gap is wider now.)"""
    from tests.gui.real_input import click_toolbar, shown
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    shown(qtbot, window)
    if key is not None:
        open_example(qtbot, window, key)
    click_toolbar(window, "forward")
    qtbot.waitUntil(lambda: window.bridge.session is not None and window.bridge.session.forward_complete,
                    timeout=60000)  # lesson 1's convolution takes seconds on a busy machine
    labels = [item.label for item in window.scene.edge_items.values()]
    qtbot.waitUntil(lambda: all(label.isVisible() and label.text() for label in labels))
    for label in labels:
        assert not label.boxed and _nodes_under(window, label) == [] and _lines_across(window, label) == [], \
            label.text()
        around = label.sceneBoundingRect().adjusted(-5, -1, 5, 1)
        assert [other.text() for other in labels if other is not label and
                other.sceneBoundingRect().intersects(around)] == []


def test_lesson_twos_broadcast_labels_read_clear_of_the_nodes_they_point_at(qtbot, window):
    """Lesson 2 is about the broadcast marks: after Forward all each ``⇲ broadcast`` label reads in the gap beside its
    node, not boxed over the node's title (its first gap is a third of a column wider than the grid's)."""
    from tests.gui.real_input import click_toolbar, shown
    from tests.gui.scenarios.test_lessons_by_their_links import open_example

    shown(qtbot, window)
    open_example(qtbot, window, "02-broadcasting")
    click_toolbar(window, "forward")
    qtbot.waitUntil(lambda: window.bridge.session is not None and window.bridge.session.forward_complete)
    qtbot.waitUntil(lambda: sum("broadcast" in item.label.text() for item in window.scene.edge_items.values()) == 4)
    for item in window.scene.edge_items.values():
        label = item.label
        if "broadcast" in label.text():
            assert not label.boxed and _nodes_under(window, label) == [], label.text()
