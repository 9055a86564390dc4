"""The size model of nodes on the canvas, shared by the layout, the placement of new nodes and the edge routes.

``node_size`` is what the canvas draws (its node items are ``NODE_WIDTH`` wide, a ``TITLE_H`` title bar and a
``PORT_ROW`` per port row, plus the value, gradient, note and flag lines a session adds). Callers that know the
drawn sizes pass them as ``sizes`` ({id: (width, height)}); a node missing there, or drawn smaller than the model,
takes the model's size (``sizer``), so a later Forward does not make nodes collide. (Split from ``model.layout``,
which re-exports these names.)
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph, Node

__all__ = ["COLUMN", "GAP", "HEAT_ROOM", "NODE_WIDTH", "PORT_ROW", "PREVIEW_ROOM", "TITLE_H", "Point", "Rect", "Sizes",
           "chosen_ids", "node_size", "sizer"]

NODE_WIDTH = 190.0  # a node on the canvas
TITLE_H = 24.0
PORT_ROW = 20.0
# under the ports: a leaf's value, gradient, accumulation note ("sum of 2 backward calls") and flags ("leaf,
# requires_grad") lines (16 each) and the bottom margin (8); with only value and gradient counted, a column of leaves
# stepped twice backward grew into the 40 between them and their badges sat on the node above
PREVIEW_ROOM = 72.0
HEAT_ROOM = 52.0  # a 2-D value's small colour table under a node's lines, where the caller knows one will come
GAP = (56.0, 40.0)  # room between columns: a straight edge's shape label ("() scalar", "(64, 16)", 45 px) fits in it
COLUMN = NODE_WIDTH + GAP[0]  # the column pitch of nodes of the usual width

Point = tuple[float, float]  # (x, y); also a size (w, h) and a gap (dx, dy)
Rect = tuple[float, float, float, float]  # (x, y, w, h)
Sizes = Mapping[str, Point] | None  # drawn sizes by node id


def node_size(node: Node) -> Point:
    """The size model of a node on the canvas: (width, height) with room for its value and gradient lines."""
    rows = max(len(node.input_names()), len(node.output_names()), 1)
    return NODE_WIDTH, TITLE_H + PORT_ROW * rows + PREVIEW_ROOM


def sizer(graph: Graph, sizes: Sizes) -> Callable[[str], Point]:
    """A function id -> (w, h): the given size, never smaller than the model's."""
    given_sizes = sizes or {}

    def size(nid: str) -> Point:
        model = node_size(graph.node(nid))
        given = given_sizes.get(nid, model)
        return max(given[0], model[0]), max(given[1], model[1])
    return size


def chosen_ids(graph: Graph, node_ids: Collection[str]) -> list[str]:
    """The chosen ids in document order (unknown ids are a KeyError through ``graph.node``)."""
    chosen = set(node_ids or graph.nodes)
    for nid in chosen:
        graph.node(nid)
    return [nid for nid in graph.nodes if nid in chosen]
