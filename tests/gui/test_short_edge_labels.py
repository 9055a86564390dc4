"""Short edges' shape labels keep off the nodes: lesson 2's diff -> sq and sq -> loss run between nodes closer
than their ``(32, 32)`` is wide (with the nodes' borders), and the label sat on both nodes on a patch of the
canvas's colour, over their borders (more so drawn enlarged, zoomed out to fit at 1366x768); it goes above them."""

from tests.gui.real_input import shown
from tests.gui.scenarios import driver as d
from tests.gui.scenarios.test_lessons_by_their_links import open_example


def test_lesson_2s_shape_labels_sit_on_no_node_after_forward_all(window, qtbot):
    from gui.canvas.node_item import NodeItem

    w = shown(qtbot, window)
    open_example(qtbot, w, "02-broadcasting")
    d.click_toolbar(w, "forward")
    nodes = {n.title: nid for nid, n in w.graph.nodes.items()}
    qtbot.waitUntil(lambda: nodes["loss"] in w.bridge.session.values)
    labels = {edge: item.label for edge, item in w.scene.edge_items.items()
              if item.label_text and item.label.isVisible()}
    short = [e for e in labels if e.src == nodes["diff"] and e.dst == nodes["sq"]]
    assert short and labels[short[0]].text() == "(32, 32)"
    boxes = [item.sceneBoundingRect() for item in w.scene.items() if isinstance(item, NodeItem)]  # border included
    on_nodes = [(edge, label.text()) for edge, label in labels.items()
                if any(label.text_box().intersects(box) for box in boxes)]
    assert on_nodes == [] and not any(label.boxed for label in labels.values())
