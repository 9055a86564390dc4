"""Arranging and placing nodes: positions computed from the document alone, applied by the caller as one command.

Every arranging function takes a Graph and the ids to arrange (all nodes when empty) and returns
``{node id: (x, y)}`` for the nodes that should move; it never changes the document. ``layered`` puts
each node one column right of its deepest input (within the selection) and a source one column left of its
nearest consumer, gives an edge that skips columns a lane in the columns it passes near its ends (the edges from
one port share theirs, so the entries stay linear in the edges), orders the columns by
their neighbours' rows (sweeping both ways) so edges cross less, sets each node level with its inputs where
its column has room, and pushes a node down where an edge's curve (``edge_routes``) would run through it:
no two laid-out nodes overlap and no edge between them crosses one.

The size model (``node_size``, the drawn ``sizes`` callers pass) is ``model.node_sizes``'; room for new nodes and
pasted fragments (``free_spot``, ``free_offset``) and the align and distribute functions are ``model.placement``'s.
Both are re-exported here.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any

from core.nodegraph.model.node_sizes import (
    COLUMN,
    GAP,
    HEAT_ROOM,
    NODE_WIDTH,
    PORT_ROW,
    PREVIEW_ROOM,
    TITLE_H,
    Point,
    Rect,
    Sizes,
    chosen_ids,
    node_size,
    sizer,
)
from core.nodegraph.model.placement import (
    ALIGNMENTS,
    CURVE_GAP,
    Polyline,
    align,
    clear_of_others,
    free_offset,
    free_spot,
    occupied,
    search_area,
)

if TYPE_CHECKING:
    from core.nodegraph.model.document import Edge, Graph

# the size model (model.node_sizes) and the placement functions (model.placement) are re-exported: callers found
# them here before the split
__all__ = ["ALIGNMENTS", "COLUMN", "CURVE_GAP", "GAP", "HEAT_ROOM", "LANE", "LANE_REACH", "NODE_WIDTH", "PORT_ROW",
           "PREVIEW_ROOM", "TITLE_H", "Point", "Polyline", "Rect", "Sizes", "align", "clear_of_others",
           "fragment_layered", "free_offset", "free_spot", "hop_crossings", "layered", "node_size", "occupied",
           "search_area"]

Hop = tuple[str, str, int, int]  # (src, dst, src's port row, dst's port row) between neighbouring columns


LANE = 24.0  # the room a long edge keeps in each column it passes, between the nodes there
LANE_REACH = 8  # columns: a long edge keeps lanes this near its ends (a port's bus, near each of its consumers)


def _columns(graph: Graph, ids: list[str], links: list[tuple[str, str]]) -> list[list[str]]:
    """Node ids grouped by column: a node one column right of its deepest input (within the selection), a source
    (no inputs there) one column left of its nearest consumer, so its edges stay short and the first column holds
    only what the rest needs first. In each column the ids come in their on-canvas order, top to bottom."""
    chosen = set(ids)
    inputs: dict[str, list[str]] = {}
    outputs: dict[str, list[str]] = {}
    for src, dst in links:
        inputs.setdefault(dst, []).append(src)
        outputs.setdefault(src, []).append(dst)
    depth: dict[str, int] = {}
    order = [nid for nid in graph.topological_order() if nid in chosen]
    for nid in order:
        depth[nid] = max((depth[s] + 1 for s in inputs.get(nid, ())), default=0)
    for nid in order:
        if nid not in inputs and nid in outputs:
            depth[nid] = min(depth[d] for d in outputs[nid]) - 1
    columns: list[list[str]] = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for nid in sorted(ids, key=lambda n: (graph.node(n).position[1], graph.node(n).position[0])):
        columns[depth[nid]].append(nid)
    return columns


def _is_lane(entry: str) -> bool:
    """Whether a column entry is a long edge's lane (see ``_with_lanes``), not a node."""
    return entry.startswith("\0")


def _lane(src: str, out_row: int, column: int) -> str:
    """The id of the lane that the edges from ``src``'s output port in row ``out_row`` share in ``column``."""
    return f"\0{src}\0{out_row}\0{column}"


def _lane_source(lane: str) -> tuple[str, int]:
    """The node whose edges a lane carries, and the row of its output port."""
    _, src, row, _ = lane.split("\0")
    return src, int(row)


def _with_lanes(columns: list[list[str]], links: list[Hop]) -> list[Hop]:
    """Break each link that skips columns into one hop per column through lanes (ids starting with a NUL, added to
    the columns they pass), so the ordering keeps room for it; links are (src, dst, src row, dst row). The links
    from one output port share its lanes (a bus up to its farthest consumer, each consumer leaving it in the column
    before its own): one lane per port and column, so a variable used by n terms of a long sum adds n lanes, not
    n^2/2. A port keeps lanes only within LANE_REACH columns of itself or of a consumer further on: the terms of
    ``x*w + x*w + ...``, stacked in one column, each with an edge to its own sum n columns away, took n^2/2 lanes
    (the ordering then ran for a minute); where a lane is left out, the next one starts a new run (no hop into it)."""
    where = {nid: c for c, column in enumerate(columns) for nid in column}
    ends: dict[tuple[str, int], list[int]] = {}
    for src, dst, out_row, _ in links:
        ends.setdefault((src, out_row), []).append(where[dst])
    hops: list[Hop] = []
    for (src, out_row), consumers in ends.items():
        prev, row, start = src, out_row, where[src]
        kept: set[int] = set()
        for d in sorted(set(consumers)):
            kept.update(range(max(start + 1, d - LANE_REACH), d))
        kept.update(range(start + 1, min(start + LANE_REACH + 1, max(consumers))))
        for c in sorted(kept):
            lane = _lane(src, out_row, c)
            columns[c].append(lane)
            if c - 1 == start or c - 1 in kept:
                hops.append((prev, lane, row, 0))
            prev, row = lane, 0
    for src, dst, out_row, in_row in links:
        c = where[dst] - 1
        hops.append((src, dst, out_row, in_row) if c == where[src] else (_lane(src, out_row, c), dst, 0, in_row))
    return hops


def hop_crossings(columns: list[list[str]], hops: list[Hop]) -> int:
    """How many pairs of hops cross between neighbouring columns with entries in the given order: two hops cross
    when their ends come in opposite orders on the two sides (an end's place is its entry's index, then its port's
    row), the count a layered layout's ordering lowers. Hops that share an end port do not cross."""
    where = {nid: (c, i) for c, column in enumerate(columns) for i, nid in enumerate(column)}
    by_gap: dict[int, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
    for src, dst, out_row, in_row in hops:
        (c, i), (_, j) = where[src], where[dst]
        by_gap.setdefault(c, []).append(((i, out_row), (j, in_row)))
    # sorted by their left ends, two hops cross when the later one's right end is strictly higher (hops with the
    # same left end are sorted by their right ends, so they never count): the inversions, counted with a Fenwick
    # tree over the right ends' ranks in n log n (a pair loop was quadratic in the hops of a gap)
    count = 0
    for ends in by_gap.values():
        ends.sort()
        rank = {b: r for r, b in enumerate(sorted({b for _, b in ends}), 1)}
        tree = [0] * (len(rank) + 1)
        for seen, (_, b) in enumerate(ends):
            r, at_most = rank[b], 0
            while r:  # how many earlier hops end at or above b
                at_most += tree[r]
                r -= r & -r
            count += seen - at_most
            r = rank[b]
            while r < len(tree):
                tree[r] += 1
                r += r & -r
    return count


def _order(columns: list[list[str]], hops: list[Hop], lane_bias: float = 0.0, sweeps: int = 6,
           exchange: bool = True) -> None:
    """Order the columns (in place) so that hops cross less: sweeps right then left sort each column by the mean
    row of each entry's neighbours in the column before (after), a port lower down counting a little lower
    (barycentre heuristic); the order with the fewest crossings seen is kept (a later sweep can undo an earlier
    one's gain), then neighbours in a column swap places while that removes crossings (``exchange``). A lane's row
    counts ``lane_bias`` lower (negative: higher), which settles ties between a long edge and the nodes beside it.
    Deterministic: ties keep the order they had."""
    into: dict[str, list[tuple[str, int]]] = {}
    out_of: dict[str, list[tuple[str, int]]] = {}
    for src, dst, out_row, in_row in hops:
        into.setdefault(dst, []).append((src, out_row))
        out_of.setdefault(src, []).append((dst, in_row))

    def sort(column: list[str], neighbours: dict[str, list[tuple[str, int]]], row: dict[str, int]) -> None:
        keys: dict[str, float] = {}
        for i, nid in enumerate(column):
            near = [row[n] + 0.01 * port for n, port in neighbours.get(nid, ()) if n in row]
            keys[nid] = (sum(near) / len(near) if near else float(i)) + (lane_bias if _is_lane(nid) else 0.0)
        column.sort(key=keys.__getitem__)  # stable: ties keep the order they had

    def sweep_right() -> None:
        for before, column in zip(columns, columns[1:]):
            sort(column, into, {nid: i for i, nid in enumerate(before)})

    def sweep_left() -> None:
        for after, column in zip(reversed(columns), list(reversed(columns))[1:]):
            sort(column, out_of, {nid: i for i, nid in enumerate(after)})

    sweep_right()
    best, fewest = [list(c) for c in columns], hop_crossings(columns, hops)
    for _ in range(sweeps):
        for sweep in (sweep_left, sweep_right):
            if not fewest:
                break
            sweep()
            count = hop_crossings(columns, hops)
            if count < fewest:
                best, fewest = [list(c) for c in columns], count
    columns[:] = best
    if exchange and fewest:
        _exchange(columns, hops, fewest)


EXCHANGE_ROUNDS = 8  # passes of neighbour swaps at most (each pass that swaps nothing ends them)


def _exchange(columns: list[list[str]], hops: list[Hop], count: int) -> None:
    """Swap neighbouring entries of a column where that lowers the hop crossings, pass after pass until none does
    (the transposition step of layered drawing). A swap changes only how the two entries' own hops cross each other,
    so only those are counted."""
    ends: dict[str, list[tuple[str, int, int]]] = {}  # entry -> (other end, own port row, other's port row), both sides
    for src, dst, out_row, in_row in hops:
        ends.setdefault(src, []).append((dst, out_row, in_row))
        ends.setdefault(dst, []).append((src, in_row, out_row))
    where = {nid: (c, i) for c, column in enumerate(columns) for i, nid in enumerate(column)}

    def crossing(upper: str, lower: str) -> int:
        """How many pairs of a hop of ``upper`` and one of ``lower`` cross with ``upper`` just above ``lower``."""
        n = 0
        for a, _, a_row in ends.get(upper, ()):
            ca, ia = where[a]
            for b, _, b_row in ends.get(lower, ()):
                cb, ib = where[b]
                if ca == cb and (ia, a_row) > (ib, b_row):
                    n += 1
        return n

    for _ in range(EXCHANGE_ROUNDS):
        swapped = False
        for c, column in enumerate(columns):
            for i in range(len(column) - 1):
                u, v = column[i], column[i + 1]
                if crossing(v, u) < crossing(u, v):
                    column[i], column[i + 1] = v, u
                    where[u], where[v] = (c, i + 1), (c, i)
                    count, swapped = count - crossing(u, v) + crossing(v, u), True
        if not swapped or not count:
            return


LANE_BIASES = (0.0, -0.5, 0.5)
CROSSING_COST = 200.0  # px of height: one pair of crossing edges fewer is worth a layout about a node's row taller
SLANT_COST = 5.0  # px of height per px the edges rise or fall on average: nodes kept near their inputs
TRIED_UP_TO = 200  # nodes: a larger selection is laid out once, with the first bias
BOTH_WAYS_UP_TO = 80  # nodes: a smaller selection also tries clearing edges by pushing nodes down only


def _arrange(graph: Graph, ids: list[str], columns: list[list[str]], links: list[tuple[str, str, int, int]],
             edges: list[Edge], lane_bias: float, size: Callable[[str], Point],
             gap: Point, sides: bool = True) -> tuple[bool, float, dict[str, Point]]:
    """One layered arrangement of ``columns`` (node ids by column, changed in place): lanes, order, rows, then edges
    cleared off nodes; (whether an edge still crosses a node, the height, the positions) with positions from the
    selection's left edge (``layered`` moves them to its corner)."""
    hops = _with_lanes(columns, links)
    _order(columns, hops, lane_bias, exchange=len(ids) <= TRIED_UP_TO)

    def height(nid: str) -> float:
        return LANE if _is_lane(nid) else size(nid)[1]

    def port_y(nid: str, port_row: int) -> float:  # below the entry's top
        return LANE / 2 if _is_lane(nid) else TITLE_H + PORT_ROW * (port_row + 0.5)

    into: dict[str, list[tuple[str, int, int]]] = {}
    for src, dst, out_row, in_row in hops:
        into.setdefault(dst, []).append((src, out_row, in_row))
    top: dict[str, float] = {}
    fed = {dst for _, dst, _, _ in links}

    def computed(entry: str) -> bool:  # a node with inputs, or a lane of an edge from one: part of a chain
        return (_lane_source(entry)[0] if _is_lane(entry) else entry) in fed

    # each entry level with its inputs' ports, else under the one above; a node fed by one chain and otherwise by
    # sources (h @ w + b) level with the chain, so a long chain runs straight along a row with its weights and
    # biases beside it (levelled with all its inputs, a 3-layer MLP stepped down a row a layer, twice as tall)
    for column in columns:
        floor = -float("inf")
        for nid in column:  # a lane that starts a run (see _with_lanes) level with its edge's port
            ins = into.get(nid) or ([(*_lane_source(nid), 0)] if _is_lane(nid) else ())
            wanted = [top[s] + port_y(s, out_row) - port_y(nid, in_row) for s, out_row, in_row in ins]
            chained = [w for w, (s, _, _) in zip(wanted, ins) if computed(s)]
            if len(chained) == 1 and len(wanted) > 1:
                wanted = chained
            y = sum(wanted) / len(wanted) if wanted else floor
            y = max(y, floor) if floor > -float("inf") else (y if wanted else 0.0)
            top[nid] = y
            floor = y + height(nid) + (gap[1] if not _is_lane(nid) else gap[1] / 2)
    x = min(graph.node(n).position[0] for n in ids)
    lefts: dict[str, float] = {}
    for column in columns:
        for nid in column:
            lefts[nid] = x
        x += max((size(n)[0] for n in column if not _is_lane(n)), default=NODE_WIDTH) + gap[0]
    positions = {nid: (lefts[nid], top[nid]) for nid in ids}
    crossed = not _clear_edges(graph, columns, positions, size, gap, edges, [link[2] for link in links], sides)
    return crossed, max(p[1] for p in positions.values()) - min(p[1] for p in positions.values()), positions


def layered(graph: Graph, node_ids: Collection[str] = (), sizes: Sizes = None, gap: Point = GAP) -> dict[str, Point]:
    """Left-to-right layered layout, anchored at the selection's top-left corner: columns by depth, ordered so
    edges cross less, each node level with its inputs where the column has room, long edges keeping a lane in the
    columns they pass; no two nodes overlap, and no edge runs through a node (nodes pushed down where one would)."""
    ids = chosen_ids(graph, node_ids)
    if not ids:
        return {}
    size = sizer(graph, sizes)
    chosen = set(ids)
    edges = [e for e in graph.edges if e.src in chosen and e.dst in chosen]

    def row(nid: str, port: str, is_output: bool) -> int:
        names = graph.port_names(nid)[1 if is_output else 0]
        return names.index(port) if port in names else 0

    links = [(e.src, e.dst, row(e.src, e.src_port, True), row(e.dst, e.dst_port, False)) for e in edges]
    columns = _columns(graph, ids, [(e.src, e.dst) for e in edges])
    # a long edge's curve does not follow its lane: where it would cross a node, the node is pushed down; of the
    # orders that put lanes with, above or under their ties, the one with no edge through a node wins, then the one
    # with the fewest edges crossing each other as drawn, the least tall and the least slanted edges, weighed
    # together (small graphs; a large one is laid out once)
    if len(ids) > TRIED_UP_TO:
        return _anchored(graph, ids, _arrange(graph, ids, columns, links, edges, LANE_BIASES[0], size, gap)[2])
    from core.nodegraph.model import edge_routes  # it takes its sizes from here

    tries = []
    for bias in LANE_BIASES:
        for sides in (True, False) if len(ids) <= BOTH_WAYS_UP_TO else (True,):
            crossed, height, positions = _arrange(graph, ids, [list(c) for c in columns], links, edges, bias, size,
                                                  gap, sides)
            ends = [edge_routes.edge_ends(graph, e, positions) for e in edges]
            slant = sum(abs(b[1] - a[1]) for a, b in ends) / max(len(ends), 1)
            tries.append((crossed, len(edge_routes.edge_crossings(graph, positions, edges)), height, positions, slant))
    return _anchored(graph, ids, min(tries, key=lambda t: (t[0], t[1] * CROSSING_COST + t[2] + t[4] * SLANT_COST))[3])


def _anchored(graph: Graph, ids: list[str], positions: dict[str, Point]) -> dict[str, Point]:
    """``positions`` moved up or down so that their top is the selection's top."""
    y0 = min(graph.node(n).position[1] for n in ids)
    shift = y0 - min(p[1] for p in positions.values())
    return {nid: (px, py + shift) for nid, (px, py) in positions.items()}


CLEARING_PASSES = 12  # at most this many rounds of pushes (a large graph's last crossings are left, not chased)


def _clear_edges(graph: Graph, columns: list[list[str]], positions: dict[str, Point], size: Callable[[str], Point],
                 gap: Point, edges: list[Edge], out_rows: list[int], sides: bool = True) -> bool:
    """Move laid-out nodes that an edge runs through off its curve, round after round until no edge runs through one
    (or CLEARING_PASSES rounds); whether none does. A node the edge's lane passes under (in the column's order, see
    ``_with_lanes``) goes up above the curve with the nodes over it in its column, one the lane passes over goes down
    below it with the nodes under it: the curve then keeps to the side the ordering gave it, so it crosses no edge the
    ordering kept it clear of. Only an edge that skips columns can run through a node: one into the next column stays
    in the gap between the two. ``out_rows`` are the edges' source ports' rows (which lane each edge shares)."""
    from core.nodegraph.model import edge_routes  # it takes its sizes from here

    column_of = {nid: c for c, column in enumerate(columns) for nid in column if nid in positions}
    place = {nid: i for column in columns for i, nid in enumerate(column)}
    long = [(i, e) for i, e in enumerate(edges) if column_of[e.dst] - column_of[e.src] > 1]
    stacks = [[nid for nid in column if nid in positions] for column in columns]  # top to bottom
    sizes = {nid: size(nid) for nid in positions}
    spans = [(min((positions[n][0] for n in stack), default=0.0),
              max((positions[n][0] + sizes[n][0] for n in stack), default=0.0)) for stack in stacks]
    filled = [c for c, stack in enumerate(stacks) if stack]  # columns with nodes, left to right
    lefts = [spans[c][0] for c in filled]
    Passing = tuple[int, float, float, list[Point]]  # a column, the lowest and highest y there, the samples there
    curves: dict[Edge, tuple[Point, Point, list[Passing]]] = {}  # its samples by column, while its ends stay put

    def by_column(edge: Edge, samples: list[Point]) -> list[Passing]:
        """The curve's samples strictly inside the columns the edge passes, by column. NOTE: each sample finds its
        column by bisection: an edge over many columns scanned in each of them was quadratic in a long sum."""
        found: dict[int, list[Point]] = {}
        first, last = column_of[edge.src], column_of[edge.dst]
        for px, py in samples:
            k = bisect_right(lefts, px) - 1
            if k >= 0 and first < filled[k] < last and px < spans[filled[k]][1] and px > lefts[k]:
                found.setdefault(filled[k], []).append((px, py))
        return [(c, min(p[1] for p in here), max(p[1] for p in here), here) for c, here in sorted(found.items())]
    for _ in range(CLEARING_PASSES if long else 0):
        downs: dict[str, float] = {}
        ups: dict[str, float] = {}
        for i, edge in long:
            ends = positions[edge.src], positions[edge.dst]
            known = curves.get(edge)
            if known is None or known[:2] != ends:
                samples = edge_routes.curve_samples(
                    edge_routes.curve_points(*edge_routes.edge_ends(graph, edge, positions)), 64)
                known = curves[edge] = (*ends, by_column(edge, samples))
            for c, low, high, here in known[2]:
                for nid in stacks[c]:
                    (x, y), (w, h) = positions[nid], sizes[nid]
                    if y >= high or y + h <= low:
                        continue
                    passing = [py for px, py in here if x < px < x + w]
                    if not any(y < py < y + h for py in passing):
                        continue
                    # where the edge keeps no lane (far from its ends), the node goes the nearer way off the curve
                    lane = place.get(_lane(edge.src, out_rows[i], c))
                    under = lane > place[nid] if lane is not None else y + h / 2 < sum(passing) / len(passing)
                    if sides and under:
                        ups[nid] = max(ups.get(nid, 0.0), y + h - min(passing) + gap[1] / 2)
                    else:
                        downs[nid] = max(downs.get(nid, 0.0), max(passing) + gap[1] / 2 - y)
        if not downs and not ups:
            return True
        for stack in stacks:
            shift = 0.0
            for nid in stack:
                shift = max(shift, downs.get(nid, 0.0))
                if shift:
                    positions[nid] = (positions[nid][0], positions[nid][1] + shift)
            shift = 0.0
            for nid in reversed(stack):
                shift = max(shift, ups.get(nid, 0.0))
                if shift:
                    positions[nid] = (positions[nid][0], positions[nid][1] - shift)
    return not long


def fragment_layered(fragment: dict[str, Any]) -> dict[str, Any]:
    """A copy of a paste fragment (``{"nodes", "edges"}``) with its nodes laid out by ``layered`` from (0, 0)."""
    from core.nodegraph.model.document import Graph  # the document imports nothing from here

    graph = Graph.from_dict({"nodes": fragment["nodes"], "edges": fragment.get("edges", [])})
    for node in graph.nodes.values():
        node.position = (0.0, 0.0)
    positions = layered(graph)
    nodes = [dict(n, position=list(positions[n["id"]])) for n in fragment["nodes"]]
    return dict(fragment, nodes=nodes)
