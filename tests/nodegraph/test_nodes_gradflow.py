"""Gradient-flow nodes, dropout, the dataset source and the gradcheck node."""

import pytest

import core
from core.autograd import Function
from core.nodegraph.model.spec import EvalContext, ParamError
from tests.nodegraph.nodes_helpers import assert_same, run


def test_autograd_grad_node_gives_a_gradient_that_can_be_differentiated_again():
    x = core.tensor([1.0, 2.0, -1.0], requires_grad=True)
    y = (x ** 3).sum()
    g = run("grad.autograd_grad", {"outputs": y, "inputs": x})["out"]
    assert_same(g.detach(), 3 * x.detach() ** 2)
    penalty = (g ** 2).sum()  # a gradient penalty: sum (3 x^2)^2, d/dx = 36 x^3
    penalty.backward()
    assert_same(x.grad, 36 * x.detach() ** 3)


def test_autograd_grad_without_create_graph_gives_a_constant():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    g = run("grad.autograd_grad", {"outputs": (x * x).sum(), "inputs": x}, {"create_graph": False})["out"]
    assert not g.requires_grad


def test_autograd_grad_of_a_non_scalar_needs_grad_outputs():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        run("grad.autograd_grad", {"outputs": x * 2, "inputs": x})
    g = run("grad.autograd_grad", {"outputs": x * 2, "inputs": x, "grad_outputs": core.ones(2)})["out"]
    assert g.tolist() == [2.0, 2.0]


def test_detach_and_no_grad_cut_the_graph():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    for type_id in ("grad.detach", "grad.no_grad"):
        out = run(type_id, {"x": x * 3})["out"]
        assert not out.requires_grad and out.grad_fn is None and out.tolist() == [3.0, 6.0]


def test_gradient_probe_reads_grad_after_backward_and_retains_it_for_non_leaves():
    x = core.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    assert run("probe.gradient", {"x": h})["out"] is None  # before backward; also asks h to retain its grad
    assert run("probe.gradient", {"x": x})["out"] is None
    (h * h).sum().backward()
    assert run("probe.gradient", {"x": h})["out"].tolist() == [4.0, 8.0]
    assert run("probe.gradient", {"x": x})["out"].tolist() == [8.0, 16.0]


def test_dropout_is_identity_in_eval_mode_and_reproducible_in_training():
    x = core.ones(4, 5)
    assert run("nn.dropout", {"x": x}, {"p": 0.5}, EvalContext(training=False))["out"] is x
    a = run("nn.dropout", {"x": x}, {"p": 0.5}, EvalContext(generator=core.Generator().manual_seed(3)))["out"]
    b = run("nn.dropout", {"x": x}, {"p": 0.5}, EvalContext(generator=core.Generator().manual_seed(3)))["out"]
    assert_same(a, b)
    assert set(a.flatten().tolist()) <= {0.0, 2.0} and 0 < int((a == 0).sum()) < 20
    assert run("nn.dropout", {"x": x}, {"p": 1.0})["out"].sum().item() == 0.0


def test_dataset_node_gives_one_batch_per_step_covering_an_epoch():
    params = {"generator": "circles", "n_samples": 10, "batch_size": 4, "seed": 2}
    batches = [run("data.dataset", params=params, ctx=EvalContext(step=s)) for s in range(3)]
    assert [b["x"].shape for b in batches] == [(4, 2), (4, 2), (2, 2)]
    assert batches[0]["y"].dtype == core.int64
    rows = core.cat([b["x"] for b in batches])
    full = run("data.dataset", params={**params, "batch_size": 0})["x"]
    assert sorted(map(tuple, rows.tolist())) == sorted(map(tuple, full.tolist()))
    again = run("data.dataset", params=params, ctx=EvalContext(step=1))
    assert_same(again["x"], batches[1]["x"])
    next_epoch = run("data.dataset", params=params, ctx=EvalContext(step=3))
    assert not core.equal(next_epoch["x"], batches[0]["x"])


def test_dataset_node_keeps_its_dataset_in_state():
    ctx = EvalContext()
    run("data.dataset", params={"generator": "sine"}, ctx=ctx)
    ds = ctx.state["dataset"]
    ctx.step = 1
    out = run("data.dataset", params={"generator": "sine"}, ctx=ctx)
    assert ctx.state["dataset"] is ds and out["y"].shape == (32, 1)


def test_gradcheck_passes_on_a_cube():
    out = run("check.gradcheck", {"x": core.tensor([[0.5, -1.0], [2.0, 0.1]])}, {"formula": "(x ** 3).sum()"})
    assert out["passed"] is True and out["out"]["passed"] is True
    assert out["errors"].shape == (2, 2) and out["errors"].dtype == core.float64 and out["max_error"] < 1e-6


class _WrongCube(Function):
    @staticmethod
    def forward(ctx, a):
        ctx.save_for_backward(a)
        return a ** 3

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return g * 2 * a * a  # deliberately wrong: should be 3 a^2


def test_gradcheck_fails_on_a_wrong_custom_gradient_and_reports_per_element_errors():
    x = core.tensor([1.0, 2.0])
    out = run("check.gradcheck", {"x": x, "function": lambda t: _WrongCube.apply(t).sum()})
    assert out["passed"] is False
    assert out["errors"].tolist() == pytest.approx([1.0, 4.0], abs=1e-4)  # |2a^2 - 3a^2|
    assert out["max_error"] == pytest.approx(4.0, abs=1e-4)


def test_gradcheck_of_a_vector_function_checks_the_whole_jacobian():
    out = run("check.gradcheck", {"x": core.tensor([0.3, 0.7, 1.1])}, {"formula": "softmax(x * x, 0)"})
    assert out["passed"] is True


def test_gradcheck_refuses_a_formula_over_other_names():
    from core.nodegraph.model.expression import ExpressionError

    with pytest.raises(ExpressionError, match="unknown name 'y'"):
        run("check.gradcheck", {"x": core.tensor([1.0])}, {"formula": "(x * y).sum()"})


def test_a_bad_slice_text_names_the_parameter():
    with pytest.raises(ParamError, match="index"):
        run("shape.slice", {"x": core.ones(3)}, {"index": "1:2:3:4"})
    with pytest.raises(ParamError, match="index"):
        run("shape.slice", {"x": core.ones(3)}, {"index": "a"})


def test_join_nodes_skip_unconnected_inputs():
    a, b = core.ones(2), core.zeros(2)
    assert run("join.cat", {"in0": a, "in2": b})["out"].tolist() == [1.0, 1.0, 0.0, 0.0]


def test_batch_norm_needs_both_running_statistics():
    with pytest.raises(ParamError, match="running_var"):
        run("nn.batch_norm", {"x": core.ones(2, 3), "running_mean": core.zeros(3)})


def test_batch_norm_uses_running_statistics_in_eval_mode():
    x, mean, var = core.tensor([[1.0, 2.0], [3.0, 6.0]]), core.tensor([1.0, 2.0]), core.tensor([4.0, 16.0])
    out = run("nn.batch_norm", {"x": x, "running_mean": mean, "running_var": var}, {"eps": 0.0},
              EvalContext(training=False))["out"]
    assert_same(out, (x - mean) / var.sqrt())


@pytest.mark.parametrize("type_id, inputs, params, error, message", [
    ("shape.view", {"x": core.ones(2, 3).t()}, {"shape": [6]}, RuntimeError, "view size is not compatible"),
    ("math.add", {"a": core.ones(2, 3), "b": core.ones(4)}, {}, RuntimeError, "must match the size"),
    ("reduce.sum", {"x": core.ones(2)}, {"dim": 3}, IndexError, "Dimension out of range"),
    ("shape.index", {"x": core.ones(2), "index": core.tensor([0])}, {"dim": 2}, IndexError, "Dimension out of range"),
    ("linalg.matmul", {"a": core.ones(2, 3), "b": core.ones(2, 3)}, {}, RuntimeError, "cannot be multiplied"),
])
def test_node_errors_are_pytorch_exceptions(type_id, inputs, params, error, message):
    with pytest.raises(error, match=message):
        run(type_id, inputs, params)
