"""Every registered node type evaluated on small inputs against the same ``core`` call.

``CASES`` maps each type id to (inputs, params, expected(inputs, ctx)); the coverage test fails when a
registered type has no case, so adding a node type means adding its case here.
"""

import pytest

import core
import core.nn.functional as F
from core import datasets
from core.nodegraph.model.nodes import compare as compare_nodes
from core.nodegraph.model.nodes import math as math_nodes
from core.nodegraph.model.nodes import nn_ops
from core.nodegraph.model.nodes import reduce as reduce_nodes
from core.nodegraph.model.spec import EvalContext, all_specs, get_spec
from tests.nodegraph.nodes_helpers import assert_same, run

X = core.tensor([[0.2, 0.5, 0.7], [0.3, 0.9, 0.4]])
Y = core.tensor([[0.6, 0.1, 0.8], [0.3, 0.2, 0.5]])
V = core.tensor([0.5, -1.0, 2.0])
B = core.tensor([[True, False, True], [False, False, True]])
INTS = core.tensor([[3, 5, 6], [1, 12, 4]])
IMG = core.arange(2 * 2 * 5 * 5, dtype=core.float32).reshape(2, 2, 5, 5) / 50.0
SEQ = core.arange(2 * 2 * 6, dtype=core.float32).reshape(2, 2, 6) / 10.0
G = core.Generator


def seeded(seed):
    return G().manual_seed(seed)


CASES = {}


def case(type_id, inputs, expected, **params):
    assert type_id not in CASES, type_id
    CASES[type_id] = (inputs, params, expected)


def _tables():
    for name in math_nodes.UNARY:
        x = X + 1.0 if name == "acosh" else X
        case(f"math.{name}", {"x": x}, lambda i, c, n=name: getattr(core, n)(i["x"]))
    for name in math_nodes.BINARY:
        case(f"math.{name}", {"a": X, "b": Y}, lambda i, c, n=name: getattr(core, n)(i["a"], i["b"]))
    for name in compare_nodes.BINARY:
        a, b = (INTS, INTS.t().reshape(2, 3)) if name.startswith("bitwise") else (X, Y)
        case(f"compare.{name}", {"a": a, "b": b}, lambda i, c, n=name: getattr(core, n)(i["a"], i["b"]))
    for name in compare_nodes.UNARY:
        x = INTS if name == "bitwise_not" else core.tensor([1.0, float("inf"), float("-inf"), float("nan")])
        case(f"compare.{name}", {"x": x}, lambda i, c, n=name: getattr(core, n)(i["x"]))
    for name in reduce_nodes.PLAIN:
        x = B if name in ("all", "any") else X
        case(f"reduce.{name}", {"x": x}, lambda i, c, n=name: getattr(core, n)(i["x"], 1, keepdim=True), dim=1,
             keepdim=True)
    for name in reduce_nodes.WITH_INDICES:
        case(f"reduce.{name}", {"x": X}, lambda i, c, n=name: dict(zip(("out", "indices"), getattr(core, n)(
            i["x"], 0))), dim=0)
    for name in reduce_nodes.SCANS:
        case(f"reduce.{name}", {"x": X}, lambda i, c, n=name: getattr(core, n)(i["x"], 0), dim=0)
    for name in nn_ops.PLAIN:
        case(f"nn.{name}", {"x": X - 0.5}, lambda i, c, n=name: getattr(F, n)(i["x"]))
    for name, params in nn_ops.WITH_PARAMS.items():
        values = {p.name: p.default for p in params}
        x = X[:, :2] if name == "glu" else X - 0.5
        case(f"nn.{name}", {"x": x}, lambda i, c, n=name, v=values: getattr(F, n)(i["x"], **v))


_tables()

# math and compare with parameters or more inputs
case("math.div", {"a": X, "b": Y}, lambda i, c: core.div(i["a"], i["b"], rounding_mode="floor"), rounding_mode="floor")
case("math.clamp", {"x": X, "min": core.tensor(0.3)}, lambda i, c: core.clamp(X, min=0.3))
case("math.round", {"x": X * 10}, lambda i, c: core.round(i["x"], decimals=-1), decimals=-1)
case("math.polygamma", {"x": X}, lambda i, c: core.polygamma(2, X), n=2)
case("math.lerp", {"a": X, "b": Y, "weight": core.tensor(0.25)}, lambda i, c: core.lerp(X, Y, core.tensor(0.25)))
case("math.addcmul", {"x": X, "t1": Y, "t2": X}, lambda i, c: core.addcmul(X, Y, X, value=2.0), value=2.0)
case("math.addcdiv", {"x": X, "t1": Y, "t2": X}, lambda i, c: core.addcdiv(X, Y, X, value=0.5), value=0.5)
case("compare.isclose", {"a": X, "b": X + 1e-3}, lambda i, c: core.isclose(X, X + 1e-3, atol=1e-2), atol=1e-2)
case("compare.allclose", {"a": X, "b": X + 1e-3}, lambda i, c: core.allclose(X, X + 1e-3))
case("compare.equal", {"a": X, "b": X.clone()}, lambda i, c: True)
case("compare.where", {"condition": B, "a": X, "b": Y}, lambda i, c: core.where(B, X, Y))
case("compare.masked_fill", {"x": X, "mask": B}, lambda i, c: core.masked_fill(X, B, -1.0), value=-1.0)
case("reduce.prod", {"x": X}, lambda i, c: core.prod(X, 1), dim=1)
case("reduce.count_nonzero", {"x": B}, lambda i, c: core.count_nonzero(B, dim=0), dim=0)
case("reduce.var", {"x": X}, lambda i, c: core.var(X, dim=1, correction=0), dim=1, correction=0)
case("reduce.std", {"x": X}, lambda i, c: core.std(X))
case("reduce.norm", {"x": X}, lambda i, c: core.norm(X, p=1.0, dim=(0, 1)), p=1.0, dim=[0, 1])

for _name in ("cummax", "cummin"):
    case(f"reduce.{_name}", {"x": X}, lambda i, c, n=_name: dict(zip(("out", "indices"), getattr(core, n)(X, 0))),
         dim=0)
case("reduce.nanmedian", {"x": X}, lambda i, c: core.nanmedian(X))
case("reduce.mode", {"x": INTS}, lambda i, c: dict(zip(("out", "indices"), core.mode(INTS, 0))), dim=0)
case("reduce.kthvalue", {"x": X}, lambda i, c: dict(zip(("out", "indices"), core.kthvalue(X, 2, 1, keepdim=True))),
     k=2, keepdim=True)
case("reduce.quantile", {"x": X}, lambda i, c: core.quantile(X, 0.3, dim=1), q=0.3, dim=1)
case("reduce.nanquantile", {"x": X}, lambda i, c: core.nanquantile(X, 0.5))
case("reduce.aminmax", {"x": X}, lambda i, c: dict(zip(("min", "max"), core.aminmax(X, dim=0))), dim=0)
case("reduce.var_mean", {"x": X}, lambda i, c: dict(zip(("var", "mean"), core.var_mean(X, dim=1))), dim=1)
case("reduce.std_mean", {"x": X}, lambda i, c: dict(zip(("std", "mean"), core.std_mean(X))))
case("reduce.diff", {"x": X}, lambda i, c: core.diff(X, n=2, dim=1), n=2, dim=1)
case("reduce.dist", {"a": X, "b": Y}, lambda i, c: core.dist(X, Y, p=3.0), p=3.0)

# shape, join, linalg
case("shape.view", {"x": X}, lambda i, c: X.view(3, 2), shape=[3, -1])
case("shape.reshape", {"x": X.t()}, lambda i, c: X.t().reshape(6), shape=[6])
case("shape.expand", {"x": V}, lambda i, c: V.expand(4, 3), shape=[4, -1])
case("shape.transpose", {"x": IMG}, lambda i, c: IMG.transpose(1, 3), dim0=1, dim1=3)
case("shape.t", {"x": X}, lambda i, c: X.t())
case("shape.permute", {"x": IMG}, lambda i, c: IMG.permute(3, 0, 2, 1), dims=[3, 0, 2, 1])
case("shape.squeeze", {"x": X.view(2, 1, 3, 1)}, lambda i, c: X.view(2, 1, 3, 1).squeeze(1), dim=1)
case("shape.unsqueeze", {"x": X}, lambda i, c: X.unsqueeze(-1), dim=-1)
case("shape.flatten", {"x": IMG}, lambda i, c: IMG.flatten(1), start_dim=1)
case("shape.contiguous", {"x": X.t()}, lambda i, c: X.t().contiguous())
case("shape.slice", {"x": IMG}, lambda i, c: IMG[0, 1:2, ..., None, ::2], index="0, 1:2, ..., None, ::2")
case("shape.index", {"x": X, "index": core.tensor([2, 0, 2])}, lambda i, c: X[:, core.tensor([2, 0, 2])], dim=1)
case("join.cat", {"in0": X, "in1": Y, "in3": X}, lambda i, c: core.cat([X, Y, X], dim=1), dim=1)
case("join.stack", {"in0": X, "in1": Y}, lambda i, c: core.stack([X, Y], dim=-1), dim=-1)
case("linalg.matmul", {"a": X, "b": Y.t()}, lambda i, c: core.matmul(X, Y.t()))
case("linalg.mm", {"a": X, "b": Y.t()}, lambda i, c: core.mm(X, Y.t()))
case("linalg.bmm", {"a": SEQ, "b": SEQ.transpose(1, 2)}, lambda i, c: core.bmm(SEQ, SEQ.transpose(1, 2)))
case("linalg.dot", {"a": V, "b": V}, lambda i, c: core.dot(V, V))
case("linalg.outer", {"a": V, "b": V}, lambda i, c: core.outer(V, V))
case("linalg.einsum", {"in0": X, "in1": Y}, lambda i, c: core.einsum("ij,kj->ik", X, Y), equation="ij,kj->ik")

SPD = core.tensor([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 2.0]])
for _name in ("det", "inv", "cholesky", "pinv", "svdvals", "eigvalsh", "matrix_rank"):
    case(f"linalg.{_name}", {"x": SPD}, lambda i, c, n=_name: getattr(core.linalg, n)(SPD))
for _name, _fields in {"qr": ("Q", "R"), "svd": ("U", "S", "Vh"), "eigh": ("eigenvalues", "eigenvectors"),
                       "slogdet": ("sign", "logabsdet")}.items():
    case(f"linalg.{_name}", {"x": SPD}, lambda i, c, n=_name, f=_fields: dict(zip(f, getattr(core.linalg, n)(SPD))))
case("linalg.solve", {"a": SPD, "b": X.t()}, lambda i, c: core.linalg.solve(SPD, X.t()))
case("linalg.matrix_power", {"x": SPD}, lambda i, c: core.linalg.matrix_power(SPD, -2), n=-2)
case("linalg.vector_norm", {"x": X}, lambda i, c: core.linalg.vector_norm(X, 3.0, dim=1), ord=3.0, dim=1)
case("linalg.matrix_norm", {"x": SPD}, lambda i, c: core.linalg.matrix_norm(SPD, "nuc"), ord="nuc")

# functional nn and losses
W3 = core.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6]])
KERNEL = core.arange(3 * 2 * 3 * 3, dtype=core.float32).reshape(3, 2, 3, 3) / 100.0
case("nn.linear_fn", {"x": X, "weight": W3, "bias": V[:2]}, lambda i, c: F.linear(X, W3, V[:2]))
case("nn.conv2d", {"x": IMG, "weight": KERNEL}, lambda i, c: F.conv2d(IMG, KERNEL, stride=2, padding=1), stride=2,
     padding=1)
case("nn.conv1d", {"x": SEQ, "weight": KERNEL[:, :, 0]}, lambda i, c: F.conv1d(SEQ, KERNEL[:, :, 0]))
for _name in ("max_pool1d", "avg_pool1d"):
    case(f"nn.{_name}", {"x": SEQ}, lambda i, c, n=_name: getattr(F, n)(SEQ, 2))
for _name in ("max_pool2d", "avg_pool2d"):
    case(f"nn.{_name}", {"x": IMG}, lambda i, c, n=_name: getattr(F, n)(IMG, 3, stride=2, padding=1), kernel_size=3,
         stride=2, padding=1)
case("nn.adaptive_avg_pool1d", {"x": SEQ}, lambda i, c: F.adaptive_avg_pool1d(SEQ, 4), output_size=4)
case("nn.adaptive_avg_pool2d", {"x": IMG}, lambda i, c: F.adaptive_avg_pool2d(IMG, (2, 3)), output_size=[2, 3])
case("nn.dropout", {"x": X}, lambda i, c: X * (core.rand(2, 3, generator=seeded(5)) < 0.75).float() / 0.75,
     p=0.25, seed=5)
case("nn.batch_norm", {"x": IMG}, lambda i, c: F.batch_norm(IMG, None, None, training=True))
case("nn.layer_norm", {"x": X, "weight": V}, lambda i, c: F.layer_norm(X, (3,), V))
case("nn.one_hot", {"x": core.tensor([0, 2, 1])}, lambda i, c: F.one_hot(core.tensor([0, 2, 1]), 4), num_classes=4)

LOGITS = core.tensor([[1.0, -0.5, 0.2], [0.3, 0.8, -1.2]])
LABELS = core.tensor([2, 0])
_LOSSES = {"mse": (F.mse_loss, X, Y), "l1": (F.l1_loss, X, Y), "smooth_l1": (F.smooth_l1_loss, X * 4, Y),
           "huber": (F.huber_loss, X * 4, Y), "cross_entropy": (F.cross_entropy, LOGITS, LABELS),
           "nll": (F.nll_loss, F.log_softmax(LOGITS, 1), LABELS), "bce": (F.binary_cross_entropy, X, Y),
           "bce_with_logits": (F.binary_cross_entropy_with_logits, LOGITS, Y),
           "kl_div": (F.kl_div, X.log(), Y), "soft_margin": (F.soft_margin_loss, LOGITS, Y.sign()),
           "poisson_nll": (F.poisson_nll_loss, X, Y)}
for _name, (_fn, _input, _target) in _LOSSES.items():
    case(f"loss.{_name}", {"input": _input, "target": _target},
         lambda i, c, f=_fn: f(i["input"], i["target"], reduction="sum"), reduction="sum")

# sources
case("source.tensor", {}, lambda i, c: core.tensor([[1, 2], [3, 4]], dtype=core.float64), tensor=[[1, 2], [3, 4]],
     dtype="float64")
case("source.randn", {}, lambda i, c: core.randn(2, 3, generator=seeded(3)), seed=3)
case("source.rand", {}, lambda i, c: core.rand(4, generator=seeded(4), dtype=core.float64), shape=[4], seed=4,
     dtype="float64")
case("source.zeros", {}, lambda i, c: core.zeros(3, 1, dtype=core.int64), shape=[3, 1], dtype="int64")
case("source.ones", {}, lambda i, c: core.ones(2, 3))
case("source.full", {}, lambda i, c: core.full((2, 2), 7.5), shape=[2, 2], fill_value=7.5)
case("source.arange", {}, lambda i, c: core.arange(1.0, 3.0, 0.5), start=1.0, end=3.0, step=0.5)
case("source.eye", {}, lambda i, c: core.eye(2, 3), n=2, m=3)
case("param.parameter", {}, lambda i, c: core.ones(2, 2), shape=[2, 2], init="ones")
case("param.values", {}, lambda i, c: core.tensor([[1.5, -0.5]]), tensor=[[1.5, -0.5]], dtype="float32")
case("code.op", {"in0": X, "in1": Y}, lambda i, c: core.cdist(X, Y), op="cdist", tensors=2,
     args='{"args": [{"$in": 0}, {"$in": 1}], "kwargs": {}}')

# layers: the node's module applied to x (its own weights are tested in test_nodes_layers)
case("layer.linear", {"x": X}, lambda i, c: F.linear(X, c.state["module"].weight, c.state["module"].bias),
     in_features=3, out_features=2)
case("layer.conv2d", {"x": IMG}, lambda i, c: c.state["module"](IMG), in_channels=2, out_channels=3)
case("layer.mlp", {"x": X}, lambda i, c: c.state["module"](X), sizes=[3, 4, 1], activation="tanh")

# gradient flow, data, checks, expressions
_XG = core.tensor([1.0, -2.0, 3.0], requires_grad=True)
(_XG * core.tensor([4.0, 5.0, 6.0])).sum().backward()
case("grad.detach", {"x": _XG * 2}, lambda i, c: (_XG * 2).detach())
case("grad.no_grad", {"x": _XG * 2}, lambda i, c: (_XG * 2).detach())
case("grad.autograd_grad", {"outputs": (_XG ** 2).sum(), "inputs": _XG}, lambda i, c: 2 * _XG.detach())
case("probe.gradient", {"x": _XG}, lambda i, c: core.tensor([4.0, 5.0, 6.0]))
_MOONS = datasets.moons(n_samples=20, noise=0.1, seed=1)
_ROWS = core.randperm(20, generator=seeded(1))[:8]
case("data.dataset", {}, lambda i, c: {"x": _MOONS.X[_ROWS], "y": _MOONS.y[_ROWS]}, n_samples=20, seed=1,
     batch_size=8)
case("check.gradcheck", {"x": core.tensor([0.5, -1.0])}, lambda i, c: None)
# NOTE: case inputs are shared by every test that runs the case, so in-place cases must be idempotent
# (the arithmetic through views and versions is tested in test_nodes_inplace.py)
case("inplace.add_", {"x": X.clone(), "other": core.zeros(3)}, lambda i, c: X)
case("inplace.mul_", {"x": X.clone(), "other": core.ones(2, 1)}, lambda i, c: X)
case("inplace.fill_", {"x": X.clone()}, lambda i, c: core.full((2, 3), 2.5), value=2.5)
case("inplace.zero_", {"x": X.clone()}, lambda i, c: core.zeros(2, 3))
case("expr.expression", {"x": core.tensor([2.0, 3.0]), "w": core.tensor([1.5, -0.5]), "b": core.tensor(0.1)},
     lambda i, c: (i["x"] * i["w"]).sum() + i["b"])


def _builtin_specs():
    """The node types registered by ``core.nodegraph.model.nodes`` (graph.* types are tested with the document
    layer)."""
    return [s for s in all_specs() if s.evaluate.__module__.startswith("core.nodegraph.model.nodes")]


def test_every_registered_node_type_has_a_test_case():
    missing = sorted(s.type_id for s in _builtin_specs() if s.type_id not in CASES)
    assert missing == []
    assert len(_builtin_specs()) == len(CASES)


# core ops with no node of their own, and why
NOT_NODES = {
    "absolute": "alias of abs", "arcsin": "alias", "arccos": "alias", "arctan": "alias", "arcsinh": "alias",
    "arccosh": "alias", "arctanh": "alias", "arctan2": "alias", "sgn": "alias of sign (no complex)",
    "fix": "alias of trunc", "clip": "alias of clamp", "clamp_min": "math.clamp with min only",
    "clamp_max": "math.clamp with max only", "trunc_divide": "math.div with rounding_mode trunc",
    "greater": "alias of gt", "less": "alias of lt", "greater_equal": "alias of ge", "less_equal": "alias of le",
    "not_equal": "alias of ne", "bitwise_left_shift": "bit shifts are not playground material",
    "bitwise_right_shift": "bit shifts", "isreal": "always true without complex numbers",
    "return_types": "not an op",
}
FAMILIES = ("math_unary", "math_binary", "math_pairwise", "math_ternary", "comparison", "reduction", "statistics",
            "order_stats")


def test_every_public_op_of_the_math_comparison_and_reduction_families_has_a_node():
    import importlib

    ids = {s.type_id.split(".")[1] for s in all_specs()}
    missing = []
    for family in FAMILIES:
        for name in importlib.import_module(f"core.ops.{family}").__all__:
            if not name.endswith("_") and name not in ids and name not in NOT_NODES:
                missing.append(f"{family}.{name}")
    assert missing == []


def test_every_node_type_documents_itself():
    for spec in _builtin_specs():
        assert spec.title and spec.description and "\n" not in spec.description, spec.type_id
        assert spec.type_id.count(".") == 1 and spec.type_id == spec.type_id.lower(), spec.type_id


@pytest.mark.parametrize("type_id", sorted(CASES))
def test_node_evaluates_like_the_same_core_call(type_id):
    inputs, params, expected = CASES[type_id]
    ctx = EvalContext(generator=seeded(0))
    out = run(type_id, inputs, params, ctx)
    if type_id == "check.gradcheck":
        assert out["passed"] is True and out["max_error"] < 1e-6 and out["errors"].shape == (2,)
        return
    want = expected(inputs, ctx)
    assert_same(out if isinstance(want, dict) else out["out"], want)


def _graph_of_case(type_id, inputs, params):
    """One node fed by ``source.tensor`` nodes holding its inputs; None when an input isn't a plain tensor."""
    from core.nodegraph.model.document import Edge, Graph, Node

    g = Graph()
    for k, value in enumerate(inputs.values()):
        if not isinstance(value, core.Tensor) or value.dtype.name not in get_spec("source.tensor").param(
                "dtype").choices:
            return None
        g.add_node(Node(f"in{k}", "source.tensor", {"tensor": value.detach().tolist(), "dtype": value.dtype.name,
                                                   "requires_grad": value.requires_grad}))
    g.add_node(Node("node", type_id, dict(params)))
    for k, port in enumerate(inputs):
        g.connect(Edge(f"in{k}", "out", "node", port))
    return g


# Types whose case inputs are related tensors (an output computed from an input, a grad set by a backward):
# as independent literals in a graph they mean something else; test_nodes_gradflow.py runs them as graphs.
_NOT_AS_LITERALS = {"check.gradcheck", "grad.autograd_grad", "probe.gradient"}


@pytest.mark.parametrize("type_id", sorted(set(CASES) - _NOT_AS_LITERALS))
def test_node_evaluates_through_the_graph_and_shape_inference_agrees(type_id):
    """The plain evaluation helper gives the direct call's result, and inference predicts its shape and dtype."""
    from core.nodegraph.model.evaluate import evaluate
    from core.nodegraph.model.inference import infer

    inputs, params, _ = CASES[type_id]
    graph = _graph_of_case(type_id, inputs, params)
    if graph is None:
        pytest.skip(f"{type_id}: an input is not a plain tensor literal (covered by the direct-call test)")
    direct = run(type_id, inputs, params,
                 EvalContext(generator=seeded(0)))
    values = evaluate(graph)
    assert values.ok("node"), values
    inferred = infer(graph)
    for port, value in direct.items():
        if isinstance(value, core.Tensor):
            got = values.get("node", port)
            assert got.shape == value.shape and got.dtype == value.dtype
            info = inferred.port("node", port)
            assert tuple(info.shape) == tuple(value.shape) and info.dtype == value.dtype.name, (port, info)
