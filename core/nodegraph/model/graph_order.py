"""Walking a document's edges: the topological order a session runs nodes in, and what is reachable from a node.

Both are iterative (a chain of 100,000 nodes has no recursion limit) and take the document's containers as they
are, so ``core.nodegraph.model.document.Graph`` answers its queries through them without copying.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.nodegraph.model.document_items import Edge

__all__ = ["reachable", "topological_order"]


def reachable(start: str, step: Callable[[str], Iterable[str]]) -> set[str]:
    """Every node ``step`` leads to from ``start``, transitively (``start`` only when a cycle leads back)."""
    seen: set[str] = set()
    stack = [start]
    while stack:
        for nxt in step(stack.pop()):
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def topological_order(nodes: Mapping[str, object], edges: Iterable[Edge]) -> list[str] | None:
    """The ids of ``nodes``, each after every node feeding it; ties keep the nodes' order (Kahn's algorithm).
    None when the edges form a cycle."""
    indeg = {n: 0 for n in nodes}
    out_edges: dict[str, list[str]] = {}
    for e in edges:
        indeg[e.dst] += 1
        out_edges.setdefault(e.src, []).append(e.dst)
    position = {n: i for i, n in enumerate(nodes)}
    ready = [(position[n], n) for n, d in indeg.items() if d == 0]
    heapq.heapify(ready)
    order: list[str] = []
    while ready:
        _, n = heapq.heappop(ready)
        order.append(n)
        for m in out_edges.get(n, ()):
            indeg[m] -= 1
            if indeg[m] == 0:
                heapq.heappush(ready, (position[m], m))
    return order if len(order) == len(nodes) else None
