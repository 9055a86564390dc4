"""An edge's shape label sits on the edge where no node covers it, so a shape is never written over a node."""

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
    for item in labelled:  # the chapter's graph: no node lies on any edge's middle
        mid = item.path().pointAtPercent(0.5)
        assert abs(item.label.sceneBoundingRect().center().x() - mid.x()) < 1.0
