"""Which edges the canvas draws over the nodes, kept up to date as nodes come, go, move and change size.

An edge whose curve passes through the box of a node it does not join is drawn over the nodes (``EdgeItem.restack``,
``OVER_NODES``), never hidden under one. ``EdgeStacking`` keeps, for each such edge, the nodes it passes through, and
after a change checks only what the change can affect: for one node the scene's index finds the edges near it
(``nodes``), for many at once (a document opened, a Forward that grew every node by its value preview, a Reset that
took them away) ``gui.canvas.stacking``'s grid pairs them (``many``). It reads the scene's items; it never adds or
removes any.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from typing import TYPE_CHECKING

from PySide6.QtCore import QRectF, Qt

from gui.canvas import stacking
from gui.canvas.edge_item import OVER_NODES, UNDER_NODES, EdgeItem

if TYPE_CHECKING:
    from core.nodegraph.model.document import Edge
    from gui.canvas.scene import GraphScene

__all__ = ["EdgeStacking"]


class EdgeStacking:
    """The edges of ``scene`` drawn over nodes: ``over`` maps each to the ids of the nodes its curve passes through."""

    def __init__(self, scene: GraphScene) -> None:
        self.scene = scene
        self.over: dict[Edge, set[str]] = {}

    def clear(self) -> None:
        """Forget every edge (the scene rebuilds its items)."""
        self.over = {}

    def forget(self, edge: Edge) -> None:
        """``edge`` was removed."""
        self.over.pop(edge, None)

    def restack(self, item: EdgeItem) -> None:
        """Stack the edge ``item`` (just added, or its curve changed) by the nodes its curve now passes through."""
        crossed = item.restack()
        if crossed:
            self.over[item.edge] = crossed
        else:
            self.over.pop(item.edge, None)

    def around(self, nid: str) -> None:
        """Stack again the edges drawn over node ``nid`` (it may have moved off them, or gone) and those it now
        covers (the scene's index finds them)."""
        item = self.scene.node_items.get(nid)
        self.nodes({nid}, [] if item is None else [(nid, item.mapRectToScene(item.body_rect()))])

    def nodes(self, changed: Collection[str], boxes: Iterable[tuple[str, QRectF]]) -> None:
        """Bring the edges' stacking up to date after the nodes ``changed`` moved, changed size or went: each edge
        drawn over one of them is checked against it again, and each edge whose bounds meet one of ``boxes``
        (node id, scene rectangle: where a node now is, or the part it has grown by) against that node, but for the
        node's own edges. One query of the scene's index a box and a node's box against a curve's points: no edge
        looks for its nodes again (which cost a 20,000-node file seconds on opening)."""
        scene = self.scene
        # NOTE: sceneRect() brings the scene's index up to date first: the items of a document just opened are
        # otherwise searched one by one, query after query (10 ms a query at 1,000 nodes instead of 3 us)
        scene.sceneRect()
        pairs: dict[Edge, set[str]] = {}
        if changed:
            for e, crossed in self.over.items():
                if not crossed.isdisjoint(changed):
                    pairs.setdefault(e, set()).update(crossed.intersection(changed))
        for nid, box in boxes:
            for i in scene.items(box, Qt.ItemSelectionMode.IntersectsItemBoundingRect):
                if isinstance(i, EdgeItem) and nid not in (i.edge.src, i.edge.dst):
                    pairs.setdefault(i.edge, set()).add(nid)
        for e, nids in pairs.items():
            edge_item = scene.edge_items.get(e)
            if edge_item is None:
                continue
            crossed = set(self.over.get(e, ()))
            for nid in nids:
                node = scene.node_items.get(nid)
                if node is not None and node.isVisible() and edge_item.crosses(node.mapRectToScene(node.body_rect())):
                    crossed.add(nid)
                else:
                    crossed.discard(nid)
            if crossed:
                self.over[e] = crossed
            else:
                self.over.pop(e, None)
            self._set_z(edge_item, bool(crossed))

    def many(self, shrunk: Collection[str], grown: Mapping[str, stacking.Box]) -> None:
        """``nodes`` for many nodes at once, in one go (``gui.canvas.stacking``): each edge drawn over a ``shrunk``
        node is checked against its box again, and the edges near the part of a node's box that grew (``grown``:
        node id, that part's box; all of it for a node just made) against that part."""
        node_items, edge_items = self.scene.node_items, self.scene.edge_items
        boxes = {nid: stacking.box(node_items[nid].mapRectToScene(node_items[nid].body_rect()))
                 for nid in shrunk if nid in node_items and node_items[nid].isVisible()}
        again = {(e, nid) for e, crossed in self.over.items() for nid in crossed.intersection(shrunk)}
        crossing, clear = stacking.crossing_pairs(again, edge_items, boxes)
        grown = {nid: b for nid, b in grown.items() if node_items[nid].isVisible()}
        found, _ = stacking.crossing_pairs(stacking.near_pairs(edge_items, grown), edge_items, grown)
        for e, nid in clear:
            self.over.get(e, set()).discard(nid)
        for e, nid in crossing | found:
            self.over.setdefault(e, set()).add(nid)
        for e in {e for e, _ in again} | {e for e, _ in found}:
            if not self.over.get(e):
                self.over.pop(e, None)
            self._set_z(edge_items[e], e in self.over)

    @staticmethod
    def _set_z(item: EdgeItem, over: bool) -> None:
        z = OVER_NODES if over else UNDER_NODES
        if item.zValue() != z:
            item.setZValue(z)
