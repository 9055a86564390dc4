"""View ▸ Arrange: align and distribute the selected nodes (positions from ``core.nodegraph.model.layout``,
applied as one undoable MoveNodes through the scene)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QObject
from PySide6.QtGui import QAction

from core.nodegraph.model import layout

if TYPE_CHECKING:
    from gui.canvas.scene import GraphScene

ITEMS = [("left", "Align &left", "Line the selected nodes up on the leftmost one"),
         ("top", "Align &top", "Line the selected nodes up on the topmost one"),
         ("distribute_horizontally", "Distribute &horizontally", "Spread the selected nodes evenly left to right"),
         ("distribute_vertically", "Distribute &vertically", "Spread the selected nodes evenly top to bottom")]


def arrange(scene: GraphScene, how: str) -> None:
    """Align or distribute the selection (two nodes at least); the scene says so when there are fewer."""
    ids = scene.selected_node_ids()
    if len(ids) < 2:
        scene.status.emit("select two nodes or more to arrange them")
        return
    scene.move_nodes(layout.align(scene.graph, ids, how))


def make_actions(scene: GraphScene, parent: QObject | None = None) -> dict[str, QAction]:
    """View ▸ Arrange's actions on ``scene``'s selection, by name (``align_left``...); the window places them."""
    actions = {}
    for how, text, tip in ITEMS:
        act = QAction(text, parent)
        act.setObjectName(f"action_align_{how}")
        act.setStatusTip(tip)
        act.setToolTip(tip)
        act.triggered.connect(lambda _c=False, h=how: arrange(scene, h))
        actions[f"align_{how}"] = act
    return actions
