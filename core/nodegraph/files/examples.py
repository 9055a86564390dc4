"""Built-in example documents, the first one being what the app opens on start.

``default_graph()`` is the chapter's ``z = (x * w).sum() + b`` with ``x = [2., 3.]`` and
``w = [1.5, -0.5]`` requiring grad and ``b = 0.1``, laid out left to right, built from node types
(``source.tensor`` x3, ``math.mul``, ``reduce.sum``, ``math.add``) so it steps like any other graph.
"""

from __future__ import annotations

from core.nodegraph.model.document import Edge, Graph, Node

__all__ = ["default_graph"]

_NodeRow = tuple[str, str, dict[str, object], tuple[float, float], str | None]  # id, type, params, position, title
_NODES: tuple[_NodeRow, ...] = (
    ("n1", "source.tensor", {"tensor": [2.0, 3.0], "requires_grad": True}, (0.0, 0.0), "x"),
    ("n2", "source.tensor", {"tensor": [1.5, -0.5], "requires_grad": True}, (0.0, 160.0), "w"),
    ("n3", "source.tensor", {"tensor": 0.1, "requires_grad": True}, (260.0, 320.0), "b"),
    ("n4", "math.mul", {}, (260.0, 60.0), "xw"),  # the names lesson 4, shown beside it at first start, uses
    ("n5", "reduce.sum", {}, (500.0, 60.0), "s"),
    ("n6", "math.add", {}, (740.0, 180.0), "z"),
)
_EDGES = (("n1", "out", "n4", "a"), ("n2", "out", "n4", "b"), ("n4", "out", "n5", "x"),
          ("n5", "out", "n6", "a"), ("n3", "out", "n6", "b"))


def _register_node_types() -> None:
    """Register the built-in node types, so parameters get their defaults."""
    import core.nodegraph.model.nodes  # noqa: F401 - registers the node types


def default_graph() -> Graph:
    """The chapter's ``z = (x * w).sum() + b`` as a fresh document (loss node: z)."""
    _register_node_types()
    g = Graph()
    for nid, type_id, params, pos, title in _NODES:
        g.add_node(Node(nid, type_id, dict(params), pos, title))
    for edge in _EDGES:
        g.connect(Edge(*edge))
    g.set_training("loss", "n6")
    return g
