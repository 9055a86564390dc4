"""Where an edge runs on the canvas, computed from the document alone: so a layout can keep edges off nodes.

The canvas draws an edge as a horizontal S-curve (a cubic Bézier) from its output port, on the right side of the
source node, to its input port, on the left side of the target; ``curve_points`` gives that curve's control points
and the canvas builds its path from them, so the two cannot drift apart. Ports sit in rows under the title bar
(``port_point``). ``crossings`` lists the (edge, node) pairs where a curve passes through a node's rectangle: what a
layered layout must not leave, and what the tests check for the chapter's graphs and the lessons. ``edge_crossings``
lists the pairs of curves that cross each other: what a layered layout keeps few.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

import numpy as np

from core.nodegraph.model.layout import NODE_WIDTH, PORT_ROW, TITLE_H, Point, Rect

if TYPE_CHECKING:
    from core.nodegraph.model.document import Edge, Graph

__all__ = ["CURVE_PULL", "crossings", "curve_at", "curve_points", "curve_samples", "edge_crossings", "edge_curves",
           "edge_ends", "port_point"]

CURVE_PULL = 40.0  # the least horizontal reach of a curve's control points (a short edge still leaves sideways)
SAMPLES = 48  # points along a curve where it is checked against nodes' rectangles


def curve_points(a: Point, b: Point) -> tuple[Point, Point, Point, Point]:
    """The cubic Bézier's control points (start, two handles, end) of an edge from ``a`` to ``b``."""
    dx = max(abs(b[0] - a[0]) * 0.5, CURVE_PULL)
    return a, (a[0] + dx, a[1]), (b[0] - dx, b[1]), b


def curve_at(points: tuple[Point, Point, Point, Point], t: float) -> Point:
    """The point at parameter ``t`` (0..1) of a cubic Bézier."""
    u = 1.0 - t
    w = (u * u * u, 3 * u * u * t, 3 * u * t * t, t * t * t)
    return (sum(k * p[0] for k, p in zip(w, points)), sum(k * p[1] for k, p in zip(w, points)))


_WEIGHTS: dict[int, list[tuple[float, float, float, float]]] = {}


def curve_samples(points: tuple[Point, Point, Point, Point], count: int = SAMPLES) -> list[Point]:
    """``count`` + 1 evenly spaced (in t) points of a cubic Bézier, ends included (the Bernstein weights cached)."""
    weights = _WEIGHTS.get(count)
    if weights is None:
        weights = _WEIGHTS[count] = [((1 - t) ** 3, 3 * (1 - t) ** 2 * t, 3 * (1 - t) * t * t, t ** 3)
                                     for t in (i / count for i in range(count + 1))]
    (ax, ay), (bx, by), (cx, cy), (dx, dy) = points
    return [(a * ax + b * bx + c * cx + d * dx, a * ay + b * by + c * cy + d * dy) for a, b, c, d in weights]


def port_point(graph: Graph, node_id: str, port: str, is_output: bool, position: Point | None = None) -> Point:
    """A port's anchor in the scene: the node's left (inputs) or right (outputs) side, in its port's row."""
    ins, outs = graph.port_names(node_id)
    names = outs if is_output else ins
    row = names.index(port) if port in names else 0
    x, y = position if position is not None else graph.node(node_id).position
    return (x + NODE_WIDTH if is_output else x), y + TITLE_H + PORT_ROW * (row + 0.5)


def edge_ends(graph: Graph, edge: Edge, positions: Mapping[str, Point] | None = None) -> tuple[Point, Point]:
    """An edge's two anchors, with the nodes at ``positions`` where given (else where the document has them)."""
    where = positions or {}
    return (port_point(graph, edge.src, edge.src_port, True, where.get(edge.src)),
            port_point(graph, edge.dst, edge.dst_port, False, where.get(edge.dst)))


def edge_curves(graph: Graph, within: Rect | None = None) -> list[list[Point]]:
    """The edges' curves as points along them (``curve_samples``), where the canvas draws them: what a node placed
    anew keeps off (``layout.free_spot``'s ``curves``). With ``within`` (x, y, w, h), only the curves that may pass
    through it (a Bézier stays inside its control points' box), so a large graph's far edges are not sampled."""
    out = []
    for e in graph.edges:
        if e.src not in graph.nodes or e.dst not in graph.nodes:
            continue
        points = curve_points(*edge_ends(graph, e))
        if within is not None:
            xs, ys = [p[0] for p in points], [p[1] for p in points]
            if max(xs) < within[0] or min(xs) > within[0] + within[2] or max(ys) < within[1] \
                    or min(ys) > within[1] + within[3]:
                continue
        out.append(curve_samples(points))
    return out


def _inside(p: Point, r: Rect) -> bool:
    return r[0] < p[0] < r[0] + r[2] and r[1] < p[1] < r[1] + r[3]


def crossings(graph: Graph, size: Callable[[str], Point], positions: Mapping[str, Point] | None = None,
              margin: float = 1.0, edges: Iterable[Edge] | None = None) -> list[tuple[Edge, str]]:
    """``[(edge, node id)]`` where an edge's curve (of ``edges``, all by default) passes through a node's rectangle
    (shrunk by ``margin``, so a curve leaving a port on the node's side does not count), the nodes at ``positions``
    where given; ``size`` gives each node's (width, height)."""
    where = positions or {}
    rects: dict[str, Rect] = {}
    for nid, node in graph.nodes.items():
        x, y = where.get(nid, node.position)
        w, h = size(nid)
        rects[nid] = (x + margin, y + margin, w - 2 * margin, h - 2 * margin)
    found: list[tuple[Edge, str]] = []
    for edge in graph.edges if edges is None else edges:
        if edge.src not in rects or edge.dst not in rects:
            continue
        samples = curve_samples(curve_points(*edge_ends(graph, edge, where)))
        left, right = min(p[0] for p in samples), max(p[0] for p in samples)
        top, bottom = min(p[1] for p in samples), max(p[1] for p in samples)
        for nid, r in rects.items():
            if r[0] > right or r[0] + r[2] < left or r[1] > bottom or r[1] + r[3] < top:
                continue
            if any(_inside(p, r) for p in samples):
                found.append((edge, nid))
    return found


def _segments_cross(p: Point, q: Point, r: Point, s: Point) -> bool:
    """Whether segments pq and rs cross at a point inside both (touching or lying along each other does not count)."""
    def side(a: Point, b: Point, c: Point) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    d1, d2, d3, d4 = side(r, s, p), side(r, s, q), side(p, q, r), side(p, q, s)
    return d1 * d2 < 0 and d3 * d4 < 0


CROSSING_SAMPLES = 32  # points along a curve where it is checked against other curves


class _Curve:
    """An edge's curve as samples, for checking it against others: its box, and whether it runs left to right
    without turning back (every edge of a layered layout does), so that two such curves cross where the difference
    of their heights at the same x changes sign."""

    def __init__(self, ends: tuple[Point, Point]) -> None:
        self.ends = ends
        self.samples = curve_samples(curve_points(*ends), CROSSING_SAMPLES)
        xs, ys = np.array([p[0] for p in self.samples]), np.array([p[1] for p in self.samples])
        self.xs, self.ys = xs, ys
        self.box = (float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max()))
        self.rightward = bool(np.all(np.diff(xs) > 0))

    def crosses(self, other: _Curve) -> bool:
        a, b = self.box, other.box
        if a[0] > b[2] or b[0] > a[2] or a[1] > b[3] or b[1] > a[3]:
            return False
        if self.rightward and other.rightward:
            xs = np.linspace(max(a[0], b[0]), min(a[2], b[2]), CROSSING_SAMPLES + 1)
            sides = np.sign(np.interp(xs, self.xs, self.ys) - np.interp(xs, other.xs, other.ys))
            sides = sides[sides != 0]  # where they meet: a crossing only if they go on on opposite sides
            return bool(np.any(sides[:-1] != sides[1:]))
        return any(_segments_cross(p, q, r, s) for p, q in zip(self.samples, self.samples[1:])
                   for r, s in zip(other.samples, other.samples[1:]))


def edge_crossings(graph: Graph, positions: Mapping[str, Point] | None = None,
                   edges: Iterable[Edge] | None = None) -> list[tuple[Edge, Edge]]:
    """``[(edge, edge)]``: the pairs of edges (of ``edges``, all by default) whose curves cross each other, the nodes
    at ``positions`` where given. Two edges from one output port, or into one input port, meet there and do not
    count as crossing."""
    where = positions or {}
    curves = [(edge, _Curve(edge_ends(graph, edge, where))) for edge in (graph.edges if edges is None else edges)]
    found: list[tuple[Edge, Edge]] = []
    for i, (e1, c1) in enumerate(curves):
        for e2, c2 in curves[i + 1:]:
            if c1.ends[0] != c2.ends[0] and c1.ends[1] != c2.ends[1] and c1.crosses(c2):
                found.append((e1, e2))
    return found
