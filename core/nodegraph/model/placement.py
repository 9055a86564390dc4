"""Placing nodes: room for a new node or a pasted fragment next to a wanted point, and lining nodes up.

``free_spot`` and ``free_offset`` find the place nearest to the one wanted that keeps clear of the nodes already
there (and, for a node dropped on the canvas, of the edges' curves); ``clear_of_others`` shifts a block of moved
nodes off the others; ``align`` lines nodes up by their top-left corners or spreads them evenly. Each returns
positions and never changes the document (the caller applies them as one command). (Split from ``model.layout``,
which re-exports these names.)
"""

from __future__ import annotations

from collections.abc import Collection, Container
from typing import TYPE_CHECKING, Any

from core.nodegraph.model.node_sizes import Point, Rect, Sizes, chosen_ids, node_size, sizer

if TYPE_CHECKING:
    from core.nodegraph.model.document import Graph

__all__ = ["ALIGNMENTS", "CURVE_GAP", "Polyline", "align", "clear_of_others", "free_offset", "free_spot", "occupied",
           "search_area"]


# ----- room for new nodes ------------------------------------------------------------------------------
def _overlaps(a: Rect, b: Rect, gap: Point) -> bool:
    """Whether rects (x, y, w, h) ``a`` and ``b`` come closer than ``gap`` = (dx, dy)."""
    return (a[0] < b[0] + b[2] + gap[0] and b[0] < a[0] + a[2] + gap[0]
            and a[1] < b[1] + b[3] + gap[1] and b[1] < a[1] + a[3] + gap[1])


def occupied(graph: Graph, sizes: Sizes = None, exclude: Container[str] = ()) -> list[Rect]:
    """The rects (x, y, w, h) the document's nodes take, but those in ``exclude``."""
    size = sizer(graph, sizes)
    return [(n.position[0], n.position[1], *size(nid)) for nid, n in graph.nodes.items() if nid not in exclude]


Polyline = list[Point]  # an edge's curve as points along it (``edge_routes.edge_curves``)
CURVE_GAP = 12.0  # room a new node keeps from an edge's curve (the curve's pen and a bit of air)
SEARCH_STEP = 20.0  # pitch of the extra candidate places tried around the wanted point when curves are to be avoided
SEARCH_RINGS = 20  # how many pitches out from the wanted point they go


def free_spot(rects: list[Rect], size: Point, near: Point, gap: Point = (30.0, 30.0),
              curves: Collection[Polyline] = ()) -> Point:
    """The top-left corner nearest to ``near`` where a ``size`` rect keeps ``gap`` from every rect in ``rects``
    (and ``CURVE_GAP`` from every curve in ``curves``: a node dropped on an edge sat on its line).

    Candidates are ``near`` itself and the places just beside, above and below each rect (lined up with
    ``near`` or with that rect's edges), and with curves a grid around ``near``; the nearest free one wins, and
    below everything always is."""
    w, h = size
    nx, ny = near
    ordered = sorted(rects, key=lambda r: (r[0] - nx) ** 2 + (r[1] - ny) ** 2)
    candidates = {(nx, ny)}
    for x, y, rw, rh in rects:
        right, left, below, above = x + rw + gap[0], x - w - gap[0], y + rh + gap[1], y - h - gap[1]
        candidates.update({(right, ny), (left, ny), (nx, below), (nx, above), (right, y), (left, y), (x, below),
                           (x, above)})
    lines: list[Polyline] = []
    if curves:
        area = search_area(size, near)
        lines = [c for c in curves if _curve_meets(c, area)]  # only the curves near enough to matter
        candidates.update((nx + i * SEARCH_STEP, ny + j * SEARCH_STEP) for i in range(-SEARCH_RINGS, SEARCH_RINGS + 1)
                          for j in range(-SEARCH_RINGS, SEARCH_RINGS + 1))
    for cx, cy in sorted(candidates, key=lambda p: ((p[0] - nx) ** 2 + (p[1] - ny) ** 2, p)):
        if any(_overlaps((cx, cy, w, h), r, gap) for r in ordered):
            continue
        room = (cx - CURVE_GAP, cy - CURVE_GAP, w + 2 * CURVE_GAP, h + 2 * CURVE_GAP)
        if not any(_curve_meets(c, room) for c in lines):
            return cx, cy
    return nx, max((r[1] + r[3] for r in rects), default=ny) + gap[1]


def search_area(size: Point, near: Point) -> Rect:
    """The rect (x, y, w, h) within which ``free_spot`` looks at curves for a ``size`` node wanted at ``near``."""
    pad = SEARCH_STEP * SEARCH_RINGS + CURVE_GAP
    return near[0] - pad, near[1] - pad, size[0] + 2 * pad, size[1] + 2 * pad


def _curve_meets(curve: Polyline, r: Rect) -> bool:
    """Whether the polyline ``curve`` has a point in rect ``r`` (x, y, w, h) or a segment across it."""
    left, top, right, bottom = r[0], r[1], r[0] + r[2], r[1] + r[3]
    if len(curve) == 1:
        return left <= curve[0][0] <= right and top <= curve[0][1] <= bottom
    for (ax, ay), (bx, by) in zip(curve, curve[1:]):
        if max(ax, bx) < left or min(ax, bx) > right or max(ay, by) < top or min(ay, by) > bottom:
            continue  # the segment's box misses the rect
        if left <= ax <= right and top <= ay <= bottom or left <= bx <= right and top <= by <= bottom:
            return True
        t0, t1, dx, dy = 0.0, 1.0, bx - ax, by - ay  # Liang-Barsky: clip the segment to the rect
        for p, q in ((-dx, ax - left), (dx, right - ax), (-dy, ay - top), (dy, bottom - ay)):
            if p == 0:
                if q < 0:
                    break
                continue
            t = q / p
            if p < 0:
                t0 = max(t0, t)
            else:
                t1 = min(t1, t)
        else:
            if t0 <= t1:
                return True
    return False


def _block(boxes: list[Rect]) -> Rect:
    """The rect (x, y, w, h) around rects (x, y, w, h)."""
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    return left, top, max(b[0] + b[2] for b in boxes) - left, max(b[1] + b[3] for b in boxes) - top


def free_offset(graph: Graph, fragment: dict[str, Any], wanted: Point = (0.0, 0.0), sizes: Sizes = None,
                gap: Point = (30.0, 30.0)) -> Point:
    """The offset nearest to ``wanted`` that puts a fragment's nodes (moved as a block) clear of the
    document's nodes."""
    from core.nodegraph.model.document import Node  # the document imports nothing from here

    if not fragment.get("nodes"):
        return wanted
    boxes: list[Rect] = []
    for nd in fragment["nodes"]:
        x, y = nd.get("position", (0.0, 0.0))
        boxes.append((float(x), float(y), *node_size(Node.from_dict(nd))))
    left, top, width, height = _block(boxes)
    x, y = free_spot(occupied(graph, sizes), (width, height), (left + wanted[0], top + wanted[1]), gap)
    return x - left, y - top


def clear_of_others(graph: Graph, positions: dict[str, Point], sizes: Sizes = None,
                    gap: Point = (30.0, 30.0)) -> dict[str, Point]:
    """``positions`` (some nodes' new places) moved together by the least shift that keeps their block
    clear of the nodes not among them."""
    if not positions:
        return {}
    size = sizer(graph, sizes)
    left, top, width, height = _block([(x, y, *size(n)) for n, (x, y) in positions.items()])
    x, y = free_spot(occupied(graph, sizes, exclude=positions), (width, height), (left, top), gap)
    return {n: (px + x - left, py + y - top) for n, (px, py) in positions.items()}


def _distribute(coords: dict[str, Point], axis: int) -> dict[str, Point]:
    ids = sorted(coords, key=lambda n: coords[n][axis])
    lo, hi = coords[ids[0]][axis], coords[ids[-1]][axis]
    step = (hi - lo) / max(len(ids) - 1, 1)
    out: dict[str, Point] = {}
    for i, nid in enumerate(ids):
        x, y = coords[nid]
        out[nid] = (lo + i * step, y) if axis == 0 else (x, lo + i * step)
    return out


ALIGNMENTS = ("left", "top", "distribute_horizontally", "distribute_vertically")


def align(graph: Graph, node_ids: Collection[str], how: str) -> dict[str, Point]:
    """Line up by the left or top edge, or spread evenly between the outermost nodes along x or y."""
    if how not in ALIGNMENTS:
        raise ValueError(f"unknown alignment '{how}' (expected one of {', '.join(ALIGNMENTS)})")
    coords: dict[str, Point] = {}
    for nid in chosen_ids(graph, node_ids):
        px, py = graph.node(nid).position
        coords[nid] = (px, py)
    if len(coords) < 2:
        return {}
    if how == "left":
        x = min(p[0] for p in coords.values())
        return {nid: (x, p[1]) for nid, p in coords.items()}
    if how == "top":
        y = min(p[1] for p in coords.values())
        return {nid: (p[0], y) for nid, p in coords.items()}
    return _distribute(coords, 0 if how == "distribute_horizontally" else 1)
