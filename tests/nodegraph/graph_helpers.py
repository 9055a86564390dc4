"""Temporary tensor node types (``tt.*``) for the document-side tests, and small graph builders.

The built-in node types live in ``core.nodegraph.model.nodes``; these stand-ins keep the file, inference,
evaluation and subgraph tests independent of them. The ``tensor_types`` fixture registers them and
removes them afterwards.
"""

import pytest

import core
from core.nodegraph.model import commands as cmd
from core.nodegraph.model.document import Graph
from core.nodegraph.model.spec import NodeSpec, Param, Port, register, unregister


def _tensor(ctx, inputs, p):
    return core.tensor(p["tensor"], dtype=core.float64, device=ctx.device, requires_grad=p["requires_grad"])


def _randn(ctx, inputs, p):
    return core.randn(*p["shape"], generator=ctx.generator, dtype=core.float64, device=ctx.device)


def _counter(ctx, inputs, p):
    ctx.state["calls"] = ctx.state.get("calls", 0) + 1
    return ctx.state["calls"]


def _fail(ctx, inputs, p):
    raise RuntimeError("this node always fails")


def _optional(ctx, inputs, p):
    return inputs["x"] if "y" not in inputs else inputs["x"] + inputs["y"]


TT_SPECS = [
    NodeSpec("tt.tensor", "tt", "Tensor", "a float64 literal", _tensor,
             params=(Param("tensor", "tensor", 0.0), Param("requires_grad", "bool", False))),
    NodeSpec("tt.randn", "tt", "Randn", "normal samples", _randn, params=(Param("shape", "shape", (2, 3)),)),
    NodeSpec("tt.matmul", "tt", "Matmul", "a @ b", lambda c, i, p: i["a"] @ i["b"], inputs=(Port("a"), Port("b"))),
    NodeSpec("tt.add", "tt", "Add", "a + b", lambda c, i, p: i["a"] + i["b"], inputs=(Port("a"), Port("b"))),
    NodeSpec("tt.mul", "tt", "Mul", "a * b", lambda c, i, p: i["a"] * i["b"], inputs=(Port("a"), Port("b"))),
    NodeSpec("tt.view", "tt", "View", "x.view(shape)", lambda c, i, p: i["x"].view(*p["shape"]),
             inputs=(Port("x"),), params=(Param("shape", "dims", (-1,)),)),
    NodeSpec("tt.t", "tt", "T", "x.t()", lambda c, i, p: i["x"].t(), inputs=(Port("x"),)),
    NodeSpec("tt.sum", "tt", "Sum", "x.sum()", lambda c, i, p: i["x"].sum(), inputs=(Port("x"),)),
    NodeSpec("tt.split", "tt", "Split", "first row and the rest", lambda c, i, p: {"head": i["x"][:1],
                                                                                     "tail": i["x"][1:]},
             inputs=(Port("x"),), outputs=(Port("head"), Port("tail"))),
    NodeSpec("tt.counter", "tt", "Counter", "counts its evaluations in ctx.state", _counter),
    NodeSpec("tt.fail", "tt", "Fail", "always raises", _fail, inputs=(Port("x", optional=True),)),
    NodeSpec("tt.optional", "tt", "Optional", "x (+ y when connected)", _optional,
             inputs=(Port("x"), Port("y", optional=True))),
    NodeSpec("tt.mixed", "tt", "Mixed", "every parameter kind", lambda c, i, p: 0.0,
             params=(Param("i", "int", 1, minimum=0, maximum=100), Param("f", "float", 0.5, minimum=-1e6),
                     Param("b", "bool", False), Param("c", "choice", "x", choices=("x", "y", "z")),
                     Param("s", "shape", (2,)), Param("d", "dims", None), Param("t", "tensor", 0.0),
                     Param("seed", "seed", None), Param("name", "str", ""))),
]


@pytest.fixture
def tensor_types():
    for s in TT_SPECS:
        register(s)
    yield TT_SPECS
    for s in TT_SPECS:
        unregister(s.type_id)


def build(nodes, edges=()) -> Graph:
    """A graph from ``[(id, type, params, title)]`` and ``[(src, src_port, dst, dst_port)]`` via commands."""
    g = Graph()
    for i, (nid, type_id, params, *title) in enumerate(nodes):
        cmd.AddNode({"id": nid, "type": type_id, "params": params, "position": [100.0 * i, 0.0],
                     "title": title[0] if title else None}).do(g)
    for e in edges:
        cmd.Connect(*e).do(g)
    return g


def linear_graph(w=((1.0, 2.0), (3.0, 4.0)), x=((1.0,), (-1.0,)), b=((0.5,), (0.25,))) -> Graph:
    """``(W @ x + b).sum()`` with W, x, b titled so collapsing names the ports W, x, b."""
    return build([("n1", "tt.tensor", {"tensor": [list(r) for r in w], "requires_grad": True}, "W"),
                  ("n2", "tt.tensor", {"tensor": [list(r) for r in x], "requires_grad": True}, "x"),
                  ("n3", "tt.tensor", {"tensor": [list(r) for r in b], "requires_grad": True}, "b"),
                  ("n4", "tt.matmul", {}), ("n5", "tt.add", {}), ("n6", "tt.sum", {})],
                 [("n1", "out", "n4", "a"), ("n2", "out", "n4", "b"), ("n4", "out", "n5", "a"),
                  ("n3", "out", "n5", "b"), ("n5", "out", "n6", "x")])
