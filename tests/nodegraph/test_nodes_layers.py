"""Layer nodes own their parameters: built once from their seed, kept across evaluations, trainable."""

import pytest

import core
from core.nodegraph.model.nodes import node_parameters
from core.nodegraph.model.spec import EvalContext, ParamError
from tests.nodegraph.nodes_helpers import assert_same, run

X = core.tensor([[0.5, -1.0], [2.0, 0.25], [1.0, 1.0]])


def test_a_layer_keeps_its_parameters_across_evaluations_and_training_steps():
    ctx = EvalContext()
    params = {"in_features": 2, "out_features": 3, "seed": 4}
    out = run("layer.linear", {"x": X}, params, ctx)["out"]
    weights = node_parameters(ctx.state)
    assert set(weights) == {"weight", "bias"} and weights["weight"].shape == (3, 2)
    opt = core.optim.SGD(list(weights.values()), lr=0.1)
    out.pow(2).sum().backward()
    opt.step()
    after = run("layer.linear", {"x": X}, params, ctx)["out"]
    assert node_parameters(ctx.state)["weight"] is weights["weight"]
    assert_same(after, core.nn.functional.linear(X, weights["weight"], weights["bias"]))
    assert not core.allclose(after, out)


def test_layer_weights_follow_the_seed_not_the_global_random_state():
    core.manual_seed(1)
    a = node_parameters(_built("layer.mlp", {"sizes": [2, 5, 1], "seed": 9}))
    core.manual_seed(2)
    b = node_parameters(_built("layer.mlp", {"sizes": [2, 5, 1], "seed": 9}))
    c = node_parameters(_built("layer.mlp", {"sizes": [2, 5, 1], "seed": 10}))
    assert list(a) == ["0.weight", "0.bias", "2.weight", "2.bias"]
    for name in a:
        assert_same(a[name], b[name])
    assert not core.equal(a["0.weight"], c["0.weight"])


def test_building_a_layer_does_not_disturb_the_global_random_state():
    core.manual_seed(0)
    expected = core.rand(3)
    core.manual_seed(0)
    _built("layer.conv2d", {"in_channels": 1, "out_channels": 2, "kernel_size": 3}, core.zeros(1, 1, 4, 4))
    assert_same(core.rand(3), expected)


def test_changing_a_layer_parameter_rebuilds_its_module():
    ctx = EvalContext()
    run("layer.linear", {"x": X}, {"in_features": 2, "out_features": 3}, ctx)
    first = ctx.state["module"]
    run("layer.linear", {"x": X}, {"in_features": 2, "out_features": 4}, ctx)
    assert ctx.state["module"] is not first and node_parameters(ctx.state)["weight"].shape == (4, 2)


def test_mlp_applies_its_activation_between_layers_only():
    ctx = EvalContext()
    out = run("layer.mlp", {"x": X}, {"sizes": [2, 3, 1], "activation": "relu"}, ctx)["out"]
    p = node_parameters(ctx.state)
    hidden = core.relu(core.nn.functional.linear(X, p["0.weight"], p["0.bias"]))
    assert_same(out, core.nn.functional.linear(hidden, p["2.weight"], p["2.bias"]))


def test_mlp_needs_two_sizes():
    with pytest.raises(ParamError, match="sizes"):
        run("layer.mlp", {"x": X}, {"sizes": [2]})


def test_a_layer_follows_the_context_training_flag():
    ctx = EvalContext(training=False)
    run("layer.linear", {"x": X}, {"in_features": 2}, ctx)
    assert ctx.state["module"].training is False


def test_a_layer_shape_mismatch_raises_pytorch_error():
    with pytest.raises(RuntimeError, match="shapes cannot be multiplied"):
        run("layer.linear", {"x": X}, {"in_features": 3})


def _built(type_id, params, x=X):
    ctx = EvalContext()
    run(type_id, {"x": x}, params, ctx)
    return ctx.state
