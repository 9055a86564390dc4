"""Graphs for the session tests: the chapter's ``z = (x*w).sum() + b`` and a Linear+MSE training graph.

They use the built-in node types (the ``node_types`` fixture imports ``core.nodegraph.model.nodes``).
"""

from __future__ import annotations

import math

import pytest

import core
from core.nodegraph.model.document import Edge, Graph, Node


@pytest.fixture
def node_types():
    """The built-in node types (registered by importing ``core.nodegraph.model.nodes``)."""
    import core.nodegraph.model.nodes  # noqa: F401


def chapter_graph(retain_grad=False, detach_w=False) -> Graph:
    """``z = (x * w).sum() + b`` with x = [2, 3], w = [1.5, -0.5], b = 0.1 (all requiring grad)."""
    g = Graph()
    for nid, value in (("x", [2.0, 3.0]), ("w", [1.5, -0.5]), ("b", 0.1)):
        g.add_node(Node(nid, "source.tensor", {"tensor": value, "requires_grad": True}))
    g.add_node(Node("mul", "math.mul"))
    g.add_node(Node("sum", "reduce.sum"))
    g.add_node(Node("z", "math.add"))
    w = "w"
    if detach_w:
        g.add_node(Node("cut", "grad.detach"))
        g.connect(Edge("w", "out", "cut", "x"))
        w = "cut"
    for e in (("x", "out", "mul", "a"), (w, "out", "mul", "b"), ("mul", "out", "sum", "x"),
              ("sum", "out", "z", "a"), ("b", "out", "z", "b")):
        g.connect(Edge(*e))
    g.training["loss"] = "z"
    return g


def linear_mse_graph(batch=32, n_in=4, lr=0.01, teacher=False) -> Graph:
    """The chapter's loop: Linear(4, 1) on random batches (x, y from the session generator), MSE, SGD.

    With ``teacher`` the target is ``x @ w_true`` (a constant node and a matmul fed by the random batch).
    """
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [batch, n_in]}))
    if teacher:
        g.add_node(Node("w_true", "source.tensor", {"tensor": [[float(i + 1)] for i in range(n_in)]}))
        g.add_node(Node("y", "linalg.matmul"))
        g.connect(Edge("x", "out", "y", "a"))
        g.connect(Edge("w_true", "out", "y", "b"))
    else:
        g.add_node(Node("y", "source.randn", {"shape": [batch, 1]}))
    g.add_node(Node("lin", "layer.linear", {"in_features": n_in, "out_features": 1, "seed": 0}))
    g.add_node(Node("loss", "loss.mse"))
    for e in (("x", "out", "lin", "x"), ("lin", "out", "loss", "input"), ("y", "out", "loss", "target")):
        g.connect(Edge(*e))
    g.training.update(loss="loss", optimizer="SGD", optimizer_params={"lr": lr})
    return g


def plain_linear(n_in=4, seed=0):
    """The same Linear as the graph's layer node, built in plain core."""
    m = core.nn.Linear(n_in, 1)
    g = core.Generator().manual_seed(seed)
    core.nn.init.kaiming_uniform_(m.weight, a=math.sqrt(5), generator=g)
    bound = 1.0 / math.sqrt(n_in)
    core.nn.init.uniform_(m.bias, -bound, bound, generator=g)
    return m
