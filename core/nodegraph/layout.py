"""Arranging nodes: positions computed from the document alone, applied by the caller as one MoveNodes.

Every function takes a Graph and the ids to arrange (all nodes when empty) and returns
``{node id: (x, y)}`` for the nodes that should move; it never changes the document. ``layered`` puts
each node one column right of its deepest input (within the selection), orders each column by the mean
row of its inputs so edges cross less, and centres the columns on each other; the align and distribute
functions line the nodes up by their top-left corners.
"""

from __future__ import annotations

__all__ = ["ALIGNMENTS", "align", "layered"]

COLUMN = 250.0  # default column pitch: a node is 190 wide on the canvas
ROW = 150.0


def _ids(graph, node_ids) -> list:
    """The chosen ids in document order (unknown ids are a KeyError through ``graph.node``)."""
    chosen = set(node_ids or graph.nodes)
    for nid in chosen:
        graph.node(nid)
    return [nid for nid in graph.nodes if nid in chosen]


def _columns(graph, ids: list) -> list:
    """Node ids grouped by depth: the longest path to them from a selected node without selected inputs."""
    chosen, depth = set(ids), {}
    for nid in graph.topological_order():
        if nid in chosen:
            depth[nid] = max((depth[e.src] + 1 for e in graph.inputs_of(nid).values() if e.src in depth), default=0)
    columns = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for nid in sorted(ids, key=lambda n: (graph.node(n).position[1], graph.node(n).position[0])):
        columns[depth[nid]].append(nid)
    return columns


def _order_by_inputs(graph, columns: list) -> None:
    """Sort each column by the mean row of its inputs in the columns before (barycentre heuristic)."""
    row = {nid: i for i, nid in enumerate(columns[0])} if columns else {}
    for column in columns[1:]:
        keys = {}
        for nid in column:
            rows = [row[e.src] for e in graph.inputs_of(nid).values() if e.src in row]
            keys[nid] = sum(rows) / len(rows) if rows else len(row)
        column.sort(key=keys.__getitem__)  # stable: ties keep the on-canvas order
        row.update({nid: i for i, nid in enumerate(column)})


def layered(graph, node_ids=(), spacing=(COLUMN, ROW)) -> dict:
    """Left-to-right layout by depth, anchored at the selection's top-left corner."""
    ids = _ids(graph, node_ids)
    if not ids:
        return {}
    x0 = min(graph.node(n).position[0] for n in ids)
    y0 = min(graph.node(n).position[1] for n in ids)
    columns = _columns(graph, ids)
    _order_by_inputs(graph, columns)
    tallest = max(len(c) for c in columns)
    positions = {}
    for depth, column in enumerate(columns):
        top = y0 + (tallest - len(column)) * spacing[1] / 2
        for r, nid in enumerate(column):
            positions[nid] = (x0 + depth * spacing[0], top + r * spacing[1])
    return positions


def _distribute(coords: dict, axis: int) -> dict:
    ids = sorted(coords, key=lambda n: coords[n][axis])
    lo, hi = coords[ids[0]][axis], coords[ids[-1]][axis]
    step = (hi - lo) / max(len(ids) - 1, 1)
    out = {}
    for i, nid in enumerate(ids):
        p = list(coords[nid])
        p[axis] = lo + i * step
        out[nid] = tuple(p)
    return out


ALIGNMENTS = ("left", "top", "distribute_horizontally", "distribute_vertically")


def align(graph, node_ids, how: str) -> dict:
    """Line up by the left or top edge, or spread evenly between the outermost nodes along x or y."""
    if how not in ALIGNMENTS:
        raise ValueError(f"unknown alignment '{how}' (expected one of {', '.join(ALIGNMENTS)})")
    coords = {nid: tuple(graph.node(nid).position) for nid in _ids(graph, node_ids)}
    if len(coords) < 2:
        return {}
    if how == "left":
        x = min(p[0] for p in coords.values())
        return {nid: (x, p[1]) for nid, p in coords.items()}
    if how == "top":
        y = min(p[1] for p in coords.values())
        return {nid: (p[0], y) for nid, p in coords.items()}
    return _distribute(coords, 0 if how == "distribute_horizontally" else 1)
