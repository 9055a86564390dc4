"""Which edges pass through which nodes' boxes, for many nodes at once: what stacks an edge over the nodes.

The scene draws an edge over the nodes while its curve passes through the box of a node it does not join
(``EdgeItem.restack``). One node moved or added asks the scene's index for the edges near it; a file opened, or a
Forward that grows every node's box by its value preview, changes thousands at once, and the scene's index, queried
once a node, took seconds on a 20,000-node graph. Here a grid of cells pairs each edge with the nodes near its curve
and NumPy checks every pair's points at once, the same points and margin as ``EdgeItem.crosses``.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from core.nodegraph.model.edge_routes import curve_points
from gui.canvas.edge_item import RESTACK_SAMPLES

if TYPE_CHECKING:
    from PySide6.QtCore import QRectF

    from core.nodegraph.model.document import Edge
    from gui.canvas.edge_item import EdgeItem

__all__ = ["Box", "box", "crossing_pairs", "near_pairs"]

CELL = 256.0  # px: a grid cell, about a node's width


def _weights() -> np.ndarray:
    """(points, 4): the Bernstein weights of the points ``EdgeItem.crosses`` checks (``curve_samples``'s)."""
    t = np.arange(RESTACK_SAMPLES + 1) / RESTACK_SAMPLES
    return np.stack([(1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3], axis=1)


_BERNSTEIN = _weights()


def _samples(items: list[EdgeItem]) -> np.ndarray:
    """(edges, points, 2): the points along each edge's curve."""
    controls = np.array([curve_points(*(p.toTuple() for p in item.ends())) for item in items], dtype=float)
    return np.einsum("pk,ekd->epd", _BERNSTEIN, controls.reshape(len(items), 4, 2))


Box = tuple[float, float, float, float]  # a node's box on the scene: left, top, right, bottom


def box(rect: QRectF) -> Box:
    return rect.left(), rect.top(), rect.right(), rect.bottom()


def near_pairs(edge_items: Mapping[Edge, EdgeItem], boxes: Mapping[str, Box]) -> set[tuple[Edge, str]]:
    """``(edge, node id)`` for each edge whose curve's bounds meet the box of a node of ``boxes`` that it does not
    join: the pairs to check."""
    cells: defaultdict[tuple[int, int], list[str]] = defaultdict(list)
    for nid, (x0, y0, x1, y1) in boxes.items():
        for cx in range(int(x0 // CELL), int(x1 // CELL) + 1):
            for cy in range(int(y0 // CELL), int(y1 // CELL) + 1):
                cells[(cx, cy)].append(nid)
    pairs: set[tuple[Edge, str]] = set()
    for e, item in edge_items.items():
        b = item.path().boundingRect()
        left, top, right, bottom = b.left(), b.top(), b.right(), b.bottom()
        for cx in range(int(left // CELL), int(right // CELL) + 1):
            for cy in range(int(top // CELL), int(bottom // CELL) + 1):
                for nid in cells.get((cx, cy), ()):
                    if nid in (e.src, e.dst):
                        continue
                    x0, y0, x1, y1 = boxes[nid]
                    if x0 <= right and left <= x1 and y0 <= bottom and top <= y1:
                        pairs.add((e, nid))
    return pairs


def crossing_pairs(pairs: Iterable[tuple[Edge, str]], edge_items: Mapping[Edge, EdgeItem],
                   boxes: Mapping[str, Box]) -> tuple[set[tuple[Edge, str]], set[tuple[Edge, str]]]:
    """``(crossing, clear)``: ``pairs`` split by whether the edge's curve passes through the node's box (``boxes``,
    a node missing there crosses nothing)."""
    listed = [(e, nid) for e, nid in pairs if e in edge_items]
    known = [(e, nid) for e, nid in listed if nid in boxes]
    crossing: set[tuple[Edge, str]] = set()
    if known:
        edges = list(dict.fromkeys(e for e, _ in known))
        row = {e: i for i, e in enumerate(edges)}
        points = _samples([edge_items[e] for e in edges])[[row[e] for e, _ in known]]  # (pairs, points, 2)
        rects = (np.array([boxes[nid] for _, nid in known]) + (1.0, 1.0, -1.0, -1.0))[:, None, :]
        x, y = points[..., 0], points[..., 1]
        inside = ((rects[..., 0] < x) & (x < rects[..., 2]) & (rects[..., 1] < y) & (y < rects[..., 3])).any(axis=1)
        hits: list[bool] = np.asarray(inside).tolist()
        crossing = {pair for pair, hit in zip(known, hits) if hit}
    return crossing, set(listed) - crossing
