"""networkx's stand-in for the corpus (its ``adjacency_matrix`` needs SciPy, which is not installed): the few graph
calls Raschka's "GNNs from scratch" chapter makes. A recipe's edit imports it as ``nx``.

``Graph`` keeps nodes in insertion order with their attribute dicts and undirected edges; ``adjacency_matrix`` gives
an object whose ``todense()`` is the 0/1 int64 matrix in node order (what SciPy's sparse matrix gives there);
``draw`` draws nothing.
"""

from __future__ import annotations

import numpy as np


class Graph:
    def __init__(self):
        self._nodes: dict = {}
        self._edges: list = []

    def add_nodes_from(self, nodes) -> None:
        for node in nodes:
            key, attrs = node if isinstance(node, tuple) else (node, {})
            self._nodes.setdefault(key, {}).update(attrs)

    def add_edges_from(self, edges) -> None:
        for u, v in edges:
            self.add_nodes_from([u, v])
            self._edges.append((u, v))

    def number_of_nodes(self) -> int:
        return len(self._nodes)


class _Dense:
    def __init__(self, matrix):
        self._matrix = matrix

    def todense(self):
        return self._matrix

    toarray = todense


def adjacency_matrix(G: Graph) -> _Dense:
    index = {node: i for i, node in enumerate(G._nodes)}
    A = np.zeros((len(index), len(index)), dtype=np.int64)
    for u, v in G._edges:
        A[index[u], index[v]] = A[index[v], index[u]] = 1
    return _Dense(A)


def get_node_attributes(G: Graph, name: str) -> dict:
    return {node: attrs[name] for node, attrs in G._nodes.items() if name in attrs}


def draw(G: Graph, **kwargs) -> None:
    """Draws nothing (plots are stubs in the corpus)."""
