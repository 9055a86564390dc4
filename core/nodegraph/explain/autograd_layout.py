"""A layered drawing of the autograd graph, computed headless for the autograd view.

``layout_autograd(rows)`` takes the rows of ``trainview.autograd_graph`` (each with ``"next"``: the row
indices it sends gradients to) and places one box per row in layers, the way gradients flow: the loss's
``grad_fn`` on top, every edge going down at least one layer, and the ``AccumulateGrad`` sinks of the
leaves on the bottom layer. It is a small Sugiyama layout: longest-path layers, a waypoint in every layer
an edge crosses (so a long edge runs through its own slot and never through a box), barycenter ordering
to reduce crossings, then x positions pulled towards the neighbours without letting boxes overlap.
Everything is deterministic (lists in row order, stable sorts), so the same graph always draws the same.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, TypedDict

__all__ = ["AutogradLayout", "layout_autograd"]

BOX_WIDTH = 150.0
BOX_HEIGHT = 40.0
LAYER_GAP = 34.0
GAP = 16.0
WAYPOINT_WIDTH = 6.0
SWEEPS = 4

Box = tuple[float, float, float, float]  # x, y, width, height
Pair = tuple[int, int]  # (sender row, receiver row)
Side = Literal["up", "down"]


class _Vertex(TypedDict):
    """A row's box or a waypoint of a long edge, with its neighbours one layer up and down."""

    layer: int
    width: float
    up: list[int]
    down: list[int]
    waypoint: bool


@dataclass
class AutogradLayout:
    """``layers[i]`` and ``boxes[i] = (x, y, w, h)`` (top-left corner) of row ``i``; ``edges``: one
    ``{"src", "dst", "count", "points"}`` per connected pair (``count`` > 1 when a node sends to the same
    node twice, as ``x * x`` does), ``points`` running from the bottom of ``src`` to the top of ``dst``."""

    layers: list[int] = field(default_factory=list)
    boxes: list[Box] = field(default_factory=list)
    edges: list[dict[str, Any]] = field(default_factory=list)
    size: tuple[float, float] = (0.0, 0.0)


def layout_autograd(rows: Sequence[Mapping[str, Any]], widths: Iterable[float] | None = None,
                    box_height: float = BOX_HEIGHT, layer_gap: float = LAYER_GAP, gap: float = GAP,
                    leaves_at_bottom: bool = False) -> AutogradLayout:
    """Lay out ``rows`` (see the module docstring); ``widths[i]`` is row ``i``'s box width."""
    n = len(rows)
    if n == 0:
        return AutogradLayout()
    width_of = [float(w) for w in widths] if widths is not None else [BOX_WIDTH] * n
    pairs, counts = _pairs(rows)
    layers = _layers(n, pairs, leaves_at_bottom)
    verts, chains = _with_waypoints(layers, pairs, width_of)
    order = _initial_order(verts, chains, layers)
    order = _reduce_crossings(order, verts)
    xs = _x_positions(order, verts, gap)
    step = box_height + layer_gap
    boxes = [(xs[i] - width_of[i] / 2, layers[i] * step, width_of[i], box_height) for i in range(n)]
    edges = []
    for (src, dst), chain in zip(pairs, chains):
        points = [(xs[src], layers[src] * step + box_height)]
        for v in chain:
            y = verts[v]["layer"] * step
            points += [(xs[v], y), (xs[v], y + box_height)]
        points.append((xs[dst], layers[dst] * step))
        edges.append({"src": src, "dst": dst, "count": counts[(src, dst)], "points": points})
    width = max((b[0] + b[2] for b in boxes), default=0.0)
    return AutogradLayout(layers, boxes, edges, (width, max(layers) * step + box_height))


def _pairs(rows: Sequence[Mapping[str, Any]]) -> tuple[list[Pair], dict[Pair, int]]:
    """The distinct (sender, receiver) pairs in row order, and how often each occurs."""
    pairs: list[Pair] = []
    counts: dict[Pair, int] = {}
    for i, r in enumerate(rows):
        for j in r["next"]:
            if (i, j) not in counts:
                pairs.append((i, j))
                counts[(i, j)] = 0
            counts[(i, j)] += 1
    return pairs, counts


def _layers(n: int, pairs: list[Pair], leaves_at_bottom: bool) -> list[int]:
    """Longest path from the top (Kahn's order, so any topological row order works); sinks to the bottom."""
    children: list[list[int]] = [[] for _ in range(n)]
    indegree = [0] * n
    for i, j in pairs:
        children[i].append(j)
        indegree[j] += 1
    layers = [0] * n
    ready = [i for i in range(n) if indegree[i] == 0]
    while ready:
        i = ready.pop(0)
        for j in children[i]:
            layers[j] = max(layers[j], layers[i] + 1)
            indegree[j] -= 1
            if indegree[j] == 0:
                ready.append(j)
    if leaves_at_bottom:
        has_parent = [False] * n
        for _, j in pairs:
            has_parent[j] = True
        bottom = max(layers)
        layers = [bottom if has_parent[i] and not children[i] else layers[i] for i in range(n)]
    return layers


def _with_waypoints(layers: list[int], pairs: list[Pair], widths: list[float]) -> tuple[list[_Vertex], list[list[int]]]:
    """Vertices (rows first, then one waypoint per layer a long edge crosses) with their neighbours."""
    verts: list[_Vertex] = [{"layer": layers[i], "width": widths[i], "up": [], "down": [], "waypoint": False}
             for i in range(len(layers))]
    chains: list[list[int]] = []
    for src, dst in pairs:
        chain: list[int] = []
        prev = src
        for layer in range(layers[src] + 1, layers[dst]):
            verts.append({"layer": layer, "width": WAYPOINT_WIDTH, "up": [], "down": [], "waypoint": True})
            chain.append(len(verts) - 1)
        for v in chain + [dst]:
            verts[prev]["down"].append(v)
            verts[v]["up"].append(prev)
            prev = v
        chains.append(chain)
    return verts, chains


def _initial_order(verts: list[_Vertex], chains: list[list[int]], layers: list[int]) -> list[list[int]]:
    """Each layer's vertices in depth-first order from the top rows: siblings start side by side."""
    order: list[list[int]] = [[] for _ in range(max(layers) + 1)]
    seen = [False] * len(verts)
    for root in range(len(layers)):
        if verts[root]["up"] or seen[root]:
            continue
        stack = [root]
        while stack:
            v = stack.pop()
            if seen[v]:
                continue
            seen[v] = True
            order[verts[v]["layer"]].append(v)
            stack.extend(reversed(verts[v]["down"]))
    for v, s in enumerate(seen):  # not reachable from a top row (a cycle cannot happen in autograd)
        if not s:
            order[verts[v]["layer"]].append(v)
    return order


def _reduce_crossings(order: list[list[int]], verts: list[_Vertex]) -> list[list[int]]:
    """Barycenter sweeps down and up; keeps the ordering with the fewest crossings seen."""
    best, best_crossings = [list(layer) for layer in order], _crossings(order, verts)
    for sweep in range(SWEEPS):
        down = sweep % 2 == 0
        span = range(1, len(order)) if down else range(len(order) - 2, -1, -1)
        for li in span:
            ref = {v: k for k, v in enumerate(order[li - 1 if down else li + 1])}
            key: Side = "up" if down else "down"
            pos = {v: k for k, v in enumerate(order[li])}

            def barycenter(v: int, ref: dict[int, int] = ref, key: Side = key, pos: dict[int, int] = pos) -> float:
                near = [ref[u] for u in verts[v][key] if u in ref]
                return sum(near) / len(near) if near else float(pos[v])

            order[li] = sorted(order[li], key=barycenter)
        crossings = _crossings(order, verts)
        if crossings < best_crossings:
            best, best_crossings = [list(layer) for layer in order], crossings
    return best


def _crossings(order: list[list[int]], verts: list[_Vertex]) -> int:
    """Edge crossings between neighbouring layers: inversions of the lower ends, sorted by the upper."""
    total = 0
    for upper, lower in zip(order, order[1:]):
        pos = {v: k for k, v in enumerate(lower)}
        ends = sorted((a, pos[b]) for a, u in enumerate(upper) for b in verts[u]["down"] if b in pos)
        seen: list[int] = []
        for _, b in reversed(ends):
            total += bisect.bisect_left(seen, b)
            bisect.insort(seen, b)
    return total


def _x_positions(order: list[list[int]], verts: list[_Vertex], gap: float) -> dict[int, float]:
    """Box centres: packed left to right, then moved towards their neighbours' centres, sweeping down
    and up, keeping every layer's order and at least ``gap`` between neighbours. Within a layer the
    vertices with more at stake move first (waypoints, then those with more neighbours), so long edges
    and the main chain stay straight while the leaves hanging off it step aside."""
    xs: dict[int, float] = {}
    for layer in order:
        x = 0.0
        for v in layer:
            xs[v] = x + verts[v]["width"] / 2
            x += verts[v]["width"] + gap
    for sweep in range(SWEEPS):
        key: Side
        other: Side
        key, other = ("up", "down") if sweep % 2 == 1 else ("down", "up")
        for layer in order if key == "up" else reversed(order):
            wanted = {v: sum(xs[u] for u in verts[v][key]) / len(verts[v][key]) for v in layer if verts[v][key]}

            def priority(v: int, k: Side = key, o: Side = other) -> tuple[bool, int, int]:
                return verts[v]["waypoint"], len(verts[v][k]), len(verts[v][o])

            _place(layer, verts, gap, xs, wanted, priority)
    left = min(xs[v] - verts[v]["width"] / 2 for v in xs)
    return {v: x - left for v, x in xs.items()}


def _place(layer: list[int], verts: list[_Vertex], gap: float, xs: dict[int, float], wanted: dict[int, float],
           priority: Callable[[int], tuple[bool, int, int]]) -> None:
    """Move each vertex of ``layer`` to its wanted centre, highest priority first, pushing lower-priority
    neighbours aside but never one already placed."""
    sep = [(verts[a]["width"] + verts[b]["width"]) / 2 + gap for a, b in zip(layer, layer[1:])]
    fixed = [False] * len(layer)
    ranked = sorted((k for k, v in enumerate(layer) if v in wanted), key=lambda k: priority(layer[k]), reverse=True)
    for k in ranked:
        target = wanted[layer[k]]
        hi, lo, room = float("inf"), float("-inf"), 0.0
        for m in range(k + 1, len(layer)):
            room += sep[m - 1]
            if fixed[m]:
                hi = xs[layer[m]] - room
                break
        room = 0.0
        for m in range(k - 1, -1, -1):
            room += sep[m]
            if fixed[m]:
                lo = xs[layer[m]] + room
                break
        xs[layer[k]] = min(max(target, lo), hi)
        fixed[k] = True
        for m in range(k + 1, len(layer)):  # push the neighbours aside until one already has room
            if xs[layer[m]] >= xs[layer[m - 1]] + sep[m - 1]:
                break
            xs[layer[m]] = xs[layer[m - 1]] + sep[m - 1]
        for m in range(k - 1, -1, -1):
            if xs[layer[m]] <= xs[layer[m + 1]] - sep[m]:
                break
            xs[layer[m]] = xs[layer[m + 1]] - sep[m]
