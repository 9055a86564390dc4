"""A training step's lean route (``core.nodegraph.run.lean``) holds every op to the same memory and compute
budgets as stepping does (``core.nodegraph.model.budget``, issue #21 "Heavy operations"): an op that outgrew the
budget is refused before it runs, with the same message naming the node and the size."""

import pytest

import core
from core.nodegraph.model import budget
from core.nodegraph.run.session import Session
from tests.nodegraph.session_graphs import linear_mse_graph, node_types  # noqa: F401 - the fixture

pytestmark = pytest.mark.usefixtures("node_types", "default_budgets")


def _stepping_error(limit_flops: float):
    """The error a stepped forward pass of the same graph shows under the same compute budget."""
    core.nodegraph.set_flop_budget(limit_flops)
    s = Session(linear_mse_graph(teacher=True))
    s.forward()
    return next(iter(s.errors.items()))


def test_a_training_step_refuses_an_op_over_the_compute_budget_as_stepping_does():
    s = Session(linear_mse_graph(teacher=True))
    assert all(m.get("error") is None for m in s.train(3))  # the later steps take the lean route
    nid, stepped = _stepping_error(200)  # y = x @ w_true costs 2*32*4 = 256 FLOPs; x's 128 numbers pass
    (m,) = list(s.train(1))
    assert nid == "y" and stepped.type == "BudgetError" and "32x1 float32" in stepped.message
    assert m["node"] == nid and m["error"].type == stepped.type and m["error"].message == stepped.message
    assert "y" not in s.values


def test_a_training_step_refuses_a_result_over_the_memory_budget_as_stepping_does():
    s = Session(linear_mse_graph(teacher=True))
    list(s.train(2))
    core.nodegraph.set_memory_budget(100)  # x is 32x4 float32: 512 bytes
    (m,) = list(s.train(1))
    stepped = Session(linear_mse_graph(teacher=True))
    stepped.forward()
    assert m["node"] == "x" and m["error"].message == stepped.errors["x"].message
    assert m["error"].message.startswith("randn would make a 32x4 float32 tensor (512 bytes)")


def test_training_resumes_once_the_budget_allows_the_op_again():
    s = Session(linear_mse_graph(teacher=True))
    list(s.train(2))
    core.nodegraph.set_flop_budget(200)
    assert list(s.train(1))[0]["node"] == "y"
    core.nodegraph.set_flop_budget(None)
    assert list(s.train(1))[0].get("error") is None and "y" not in s.errors


@pytest.mark.parametrize("shapes", [((3, 1), (1, 4)), ((2, 1, 5), (4, 1)), ((0, 1), (1, 3)), ((), (2, 3)),
                                    ((5,), (2, 1), (1, 1, 1))])
def test_an_elementwise_estimate_broadcasts_as_torch_does(shapes, torch):
    inputs = {f"x{i}": core.zeros(s) for i, s in enumerate(shapes)}
    shape, dtype, nbytes, _ = budget.estimate("math.add", inputs, {})
    assert shape == tuple(torch.broadcast_shapes(*shapes)) and dtype == "float32"
    assert nbytes == 4 * torch.zeros(shape).numel()


def test_shapes_that_do_not_broadcast_give_no_estimate_and_the_op_its_own_error():
    assert budget.estimate("math.add", {"a": core.zeros(3, 2), "b": core.zeros(4)}, {}) is None
