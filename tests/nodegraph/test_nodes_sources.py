"""Sources and parameters: seeds, generators, grad toggles, persistence and parameter validation."""

import pytest

import core
from core.nodegraph.model.nodes import node_parameters
from core.nodegraph.model.spec import EvalContext, ParamError, get_spec
from tests.nodegraph.nodes_helpers import assert_same, run


def test_a_random_source_with_a_seed_gives_the_same_values_every_time():
    a = run("source.randn", params={"shape": [3, 2], "seed": 7})["out"]
    b = run("source.randn", params={"shape": [3, 2], "seed": 7}, ctx=EvalContext(generator=core.Generator()))["out"]
    assert_same(a, b)
    assert not core.equal(a, run("source.randn", params={"shape": [3, 2], "seed": 8})["out"])


def test_a_random_source_without_seed_draws_from_the_context_generator():
    ctx = EvalContext(generator=core.Generator().manual_seed(11))
    first = run("source.rand", params={"shape": [4]}, ctx=ctx)["out"]
    second = run("source.rand", params={"shape": [4]}, ctx=ctx)["out"]
    g = core.Generator().manual_seed(11)
    assert_same(first, core.rand(4, generator=g))
    assert_same(second, core.rand(4, generator=g))


def test_random_sources_never_touch_the_global_random_state():
    core.manual_seed(0)
    expected = core.randn(3)
    core.manual_seed(0)
    run("source.randn", params={"seed": 1})
    run("source.randn")
    assert_same(core.randn(3), expected)


def test_requires_grad_and_retain_grad_toggles():
    leaf = run("source.ones", params={"shape": [2], "requires_grad": True})["out"]
    assert leaf.requires_grad and leaf.is_leaf
    t = run("source.tensor", params={"tensor": [1.0, 2.0], "requires_grad": True, "retain_grad": True})["out"]
    (t * t).sum().backward()
    assert t.grad.tolist() == [2.0, 4.0]


def test_requires_grad_on_an_integer_source_names_the_parameter():
    with pytest.raises(ParamError, match="requires_grad"):
        run("source.zeros", params={"dtype": "int64", "requires_grad": True})


@pytest.mark.parametrize("type_id, params, name", [
    ("source.randn", {"shape": [2, -1]}, "shape"),
    ("source.randn", {"shape": "2, 3"}, "shape"),
    ("source.randn", {"seed": -1}, "seed"),
    ("source.randn", {"dtype": "float128"}, "dtype"),
    ("source.eye", {"n": -2}, "n"),
    ("source.tensor", {"tensor": "1, 2"}, "tensor"),
    ("source.tensor", {"tensor": [[1, 2], [3]]}, "tensor"),
    ("nn.dropout", {"p": 1.5}, "p"),
    ("layer.linear", {"in_features": 0}, "in_features"),
    ("reduce.sum", {"dim": "0"}, "dim"),
    ("reduce.sum", {"keepdim": 1}, "keepdim"),
    ("loss.mse", {"reduction": "average"}, "reduction"),
    ("math.add", {"alpha": 2}, "alpha"),
])
def test_bad_parameter_values_are_refused_naming_the_parameter(type_id, params, name):
    with pytest.raises(ParamError, match=name):
        get_spec(type_id).validate_params(params)


def test_a_parameter_is_created_once_and_kept_in_the_node_state():
    ctx = EvalContext()
    params = {"name": "w", "shape": [2, 3], "init": "kaiming_uniform", "seed": 3}
    w = run("param.parameter", params=params, ctx=ctx)["out"]
    assert w.requires_grad and w.is_leaf and isinstance(w, core.nn.Parameter)
    with core.no_grad():
        w.add_(1.0)  # an optimizer step
    again = run("param.parameter", params=params, ctx=ctx)["out"]
    assert again is w
    assert node_parameters(ctx.state) == {"w": w}
    fresh = run("param.parameter", params=params)["out"]
    assert_same(fresh.detach() + 1.0, w.detach())


def test_a_parameter_is_recreated_when_its_shape_changes():
    ctx = EvalContext()
    w = run("param.parameter", params={"shape": [2]}, ctx=ctx)["out"]
    v = run("param.parameter", params={"shape": [3]}, ctx=ctx)["out"]
    assert v is not w and v.shape == (3,)


@pytest.mark.parametrize("init", ["zeros", "ones", "normal", "uniform", "xavier_uniform", "kaiming_uniform"])
def test_every_initialiser_is_reproducible_by_seed(init):
    a = run("param.parameter", params={"shape": [3, 4], "init": init, "seed": 5})["out"]
    b = run("param.parameter", params={"shape": [3, 4], "init": init, "seed": 5})["out"]
    assert_same(a, b)
    assert a.shape == (3, 4) and a.dtype == core.float32


def test_nodes_without_state_own_no_parameters():
    assert node_parameters({}) == {}


def test_arange_with_whole_numbers_gives_int64_like_torch():
    assert_same(run("source.arange", params={"end": 4.0})["out"], core.arange(4))
    assert_same(run("source.arange", params={"end": 2.0, "step": 0.5})["out"], core.arange(0, 2.0, 0.5))
    assert_same(run("source.arange", params={"end": 3.0, "dtype": "float64"})["out"],
                core.arange(3, dtype=core.float64))
