"""Collapse and Expand leave the selection and the step's frame where a user expects them: the block just made is
selected (Ctrl+Shift+G expands it back at once), the nodes that come out of a block are selected, and the frame of
the last step goes with the node it marked. Before, nothing was selected afterwards, and the matmul the last step
ran came back out of the block still framed as the current step, though the session had dropped its value."""

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtTest import QTest

from tests.gui.real_input import click, press, shown, toolbar_button

pytest.importorskip("pytestqt")

X, W, XW = "n1", "n2", "n4"  # the default graph's x, w and xw = x * w


def _title_point(w, nid: str) -> QPoint:
    item = w.scene.node_items[nid]
    return w.view.mapFromScene(item.mapToScene(item.boundingRect().topLeft() + QPoint(30, 8)))


def _step_until_current(qtbot, w, nid: str) -> None:
    """Click Forward step until the step ran ``nid`` (its frame marks it as the current step)."""
    forward = toolbar_button(w, "forward_step")
    for _ in range(len(w.graph.nodes)):
        if w.highlight == nid:
            break
        before = w.status_label.text()
        click(forward)
        qtbot.waitUntil(lambda before=before: w.status_label.text() != before)
    qtbot.waitUntil(lambda: w.scene.node_items[nid].display.highlight)


def test_collapse_selects_the_block_and_expand_selects_its_inside_with_no_stale_step_frame(qtbot, window):
    w = shown(qtbot, window)
    w.view.fit_all()
    _step_until_current(qtbot, w, XW)
    viewport = w.view.viewport()
    QTest.mouseClick(viewport, Qt.LeftButton, Qt.NoModifier, _title_point(w, XW))
    for nid in (X, W):
        QTest.mouseClick(viewport, Qt.LeftButton, Qt.ControlModifier, _title_point(w, nid))
    qtbot.waitUntil(lambda: set(w.scene.selected_node_ids()) == {X, W, XW})

    press(w, Qt.Key_G, Qt.ControlModifier)  # Edit > Collapse to subgraph
    qtbot.waitUntil(lambda: XW not in w.graph.nodes)
    (block,) = [nid for nid, node in w.graph.nodes.items() if node.graph is not None]
    qtbot.waitUntil(lambda: w.scene.selected_node_ids() == [block])

    press(w, Qt.Key_G, Qt.ControlModifier | Qt.ShiftModifier)  # Edit > Expand subgraph, on the selected block
    qtbot.waitUntil(lambda: XW in w.scene.node_items and block not in w.graph.nodes)
    qtbot.waitUntil(lambda: set(w.scene.selected_node_ids()) == {X, W, XW})
    assert w.highlight is None and not any(item.display.highlight for item in w.scene.node_items.values())
