"""sum and mean record PyTorch's node: SumBackward0/MeanBackward0 only without a dim, the dim overload's
SumBackward1/MeanBackward1 for an explicit dim=None, a dim or keepdim."""

import pytest

import core


@pytest.mark.parametrize("call", [
    lambda lib, x: lib.sum(x), lambda lib, x: x.sum(), lambda lib, x: lib.sum(x, dim=None),
    lambda lib, x: x.sum(None), lambda lib, x: lib.sum(x, dim=None, keepdim=True), lambda lib, x: x.sum(0),
    lambda lib, x: x.sum(dtype=lib.float64), lambda lib, x: lib.mean(x), lambda lib, x: x.mean(),
    lambda lib, x: lib.mean(x, dim=None), lambda lib, x: x.mean(None), lambda lib, x: x.mean((0, 1)),
])
def test_sum_and_mean_record_torch_node_names(torch, call):
    ours = call(core, core.ones(2, 3, requires_grad=True))
    theirs = call(torch, torch.ones(2, 3, requires_grad=True))
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    assert ours.tolist() == theirs.tolist()


def test_sum_and_mean_signatures_still_read_dim_none():
    import inspect

    assert "dim=None" in str(inspect.signature(core.sum)) and "dim=None" in str(inspect.signature(core.mean))
