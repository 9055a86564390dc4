"""Every node type's export code computes what the node computes: each template or hook, evaluated on the
node-type test cases, against the node's own evaluation (core) and, when installed, against PyTorch."""

import numpy as np
import pytest

import core
import core.nn.functional as CF
from core.nodegraph.export.script import ExportError, node_code
from core.nodegraph.model.spec import EvalContext, all_specs, get_spec
from tests.nodegraph.nodes_helpers import assert_same, run
from tests.nodegraph.test_nodes_all import CASES, seeded

STATEFUL = {"param.parameter", "param.values", "layer.linear", "layer.conv2d", "layer.mlp",
            "data.dataset"}  # whole-graph tests
NO_CODE: dict = {}  # type id -> why it has no export code
TEMPLATED = sorted(t for t in CASES if t not in STATEFUL and t not in NO_CODE)


def _namespace(torch_mod, functional, inputs):
    ns = {"torch": torch_mod, "F": functional, "DEVICE": "cpu", "TRAINING": True,
          "gen": torch_mod.Generator().manual_seed(0)}
    ns["_probe"] = lambda x: x.grad
    ns.update({f"in_{p}": v for p, v in inputs.items()})
    return ns


def _evaluate(type_id, params, inputs, api, torch_mod, functional):
    code = node_code(type_id, params, {p: f"in_{p}" for p in inputs}, api)
    ns = _namespace(torch_mod, functional, inputs)
    return {port: eval(expr, ns) for port, expr in code.items()}  # our own generated code


def test_node_types_without_code_are_only_the_listed_ones(test_types):
    missing = {s.type_id for s in all_specs() if s.code is None and s.type_id.split(".")[0] not in ("graph", "test")}
    assert missing == set(NO_CODE)
    with pytest.raises(ExportError, match="test.value"):
        node_code("test.value")


@pytest.mark.parametrize("type_id", TEMPLATED)
def test_export_code_computes_what_the_node_computes(type_id):
    inputs, params, _ = CASES[type_id]
    want = run(type_id, inputs, params, EvalContext(generator=seeded(0)))
    got = _evaluate(type_id, params, inputs, "core", core, CF)
    if type_id == "probe.gradient":
        want = {"out": inputs["x"].grad}
    for port, value in got.items():
        assert_same(value, want[port], f"{type_id}.{port}")


def _to_torch(torch, v):
    if isinstance(v, core.Tensor):
        t = torch.from_numpy(np.array(v.detach().numpy()))
        return t.requires_grad_() if v.requires_grad and not t.dtype.is_complex and t.is_floating_point() else t
    return v


RANDOM = {"source.randn", "source.rand", "nn.dropout", "grad.autograd_grad", "probe.gradient"}


@pytest.mark.parametrize("type_id", [t for t in TEMPLATED if t not in RANDOM])
def test_torch_export_code_matches_pytorch(type_id, torch):
    inputs, params, _ = CASES[type_id]
    want = run(type_id, inputs, params, EvalContext(generator=seeded(0)))
    got = _evaluate(type_id, params, {p: _to_torch(torch, v) for p, v in inputs.items()}, "torch", torch,
                    torch.nn.functional)
    for port, value in got.items():
        expected = want[port]
        if isinstance(expected, core.Tensor):
            assert tuple(value.shape) == tuple(expected.shape), f"{type_id}.{port}"
            assert str(value.dtype) == str(expected.dtype), f"{type_id}.{port}"
            np.testing.assert_allclose(value.detach().numpy().astype(np.float64),
                                       expected.detach().numpy().astype(np.float64), rtol=1e-5, atol=1e-6,
                                       err_msg=f"{type_id}.{port}")
        else:
            assert value == expected, f"{type_id}.{port}"


def test_a_template_naming_an_unknown_field_is_refused():
    from core.nodegraph.model.spec import NodeSpec, register, unregister

    register(NodeSpec("test.badcode", "test", "bad", "a template with a typo", lambda c, i, p: 0, code="{nope}"))
    try:
        with pytest.raises(ExportError, match="nope"):
            node_code("test.badcode")
    finally:
        unregister("test.badcode")
    assert get_spec("math.exp").code == "torch.exp({x})"
