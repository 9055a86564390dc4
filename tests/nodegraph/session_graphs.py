"""Graphs for the session tests: the chapter's ``z = (x*w).sum() + b`` and a Linear+MSE training graph.

They use the real node types (``import core.nodegraph.nodes``); where those are not in the tree yet,
``node_types`` registers minimal stand-ins under the same ids, ports and parameters, removed afterwards.
"""

from __future__ import annotations

import math

import pytest

import core
from core.nodegraph.document import Edge, Graph, Node
from core.nodegraph.spec import NodeSpec, Param, Port, has_spec, register, unregister


def _source(ctx, inputs, p):
    t = core.tensor(p["tensor"])
    if p["requires_grad"]:
        t.requires_grad_(True)
    if p["retain_grad"] and t.requires_grad:
        t.retain_grad()
    return t


def _randn(ctx, inputs, p):
    g = core.Generator().manual_seed(p["seed"]) if p["seed"] is not None else ctx.generator
    return core.randn(*p["shape"], generator=g)


def _linear(ctx, inputs, p):
    key = (p["in_features"], p["out_features"], p["seed"])
    if ctx.state.get("key") != key:
        m = core.nn.Linear(p["in_features"], p["out_features"])
        g = core.Generator().manual_seed(p["seed"])
        core.nn.init.kaiming_uniform_(m.weight, a=math.sqrt(5), generator=g)
        bound = 1.0 / math.sqrt(p["in_features"])
        core.nn.init.uniform_(m.bias, -bound, bound, generator=g)
        ctx.state["module"], ctx.state["key"] = m, key
    return ctx.state["module"](inputs["x"])


GRAD = (Param("requires_grad", "bool", False), Param("retain_grad", "bool", False))
STAND_INS = [
    NodeSpec("source.tensor", "source", "Tensor", "literal", _source, params=(Param("tensor", "tensor", 0.0),) + GRAD),
    NodeSpec("source.randn", "source", "Randn", "normal", _randn,
             params=(Param("shape", "shape", (2, 3)), Param("seed", "seed", None))),
    NodeSpec("math.mul", "math", "mul", "a * b", lambda c, i, p: i["a"] * i["b"], inputs=(Port("a"), Port("b"))),
    NodeSpec("math.add", "math", "add", "a + b", lambda c, i, p: i["a"] + i["b"], inputs=(Port("a"), Port("b"))),
    NodeSpec("reduce.sum", "reduce", "sum", "sum", lambda c, i, p: i["x"].sum(), inputs=(Port("x"),)),
    NodeSpec("grad.detach", "grad", "detach", "detach", lambda c, i, p: i["x"].detach(), inputs=(Port("x"),)),
    NodeSpec("loss.mse", "loss", "mse", "mse", lambda c, i, p: core.nn.functional.mse_loss(i["input"], i["target"]),
             inputs=(Port("input"), Port("target"))),
    NodeSpec("layer.linear", "layer", "Linear", "linear", _linear, inputs=(Port("x"),),
             params=(Param("in_features", "int", 2), Param("out_features", "int", 1), Param("seed", "seed", 0))),
]


@pytest.fixture
def node_types():
    """The real node types when available, else the stand-ins (removed after the test)."""
    try:
        import core.nodegraph.nodes  # noqa: F401
        added = []
    except ImportError:
        added = [s for s in STAND_INS if not has_spec(s.type_id)]
        for s in added:
            register(s)
    yield
    for s in added:
        unregister(s.type_id)


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


def linear_mse_graph(batch=32, n_in=4, lr=0.01) -> Graph:
    """The chapter's loop: Linear(4, 1) on random batches (x, y from the session generator), MSE, SGD."""
    g = Graph()
    g.add_node(Node("x", "source.randn", {"shape": [batch, n_in]}))
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
