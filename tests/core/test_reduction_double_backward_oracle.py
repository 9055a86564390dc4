"""A reduction's gradient built with ``create_graph=True`` records PyTorch's nodes: the names a learner sees
when walking the gradient's graph (``MeanBackward1``'s gradient is ``DivBackward1``, sum's is an ``expand`` of
the unsqueezed gradient, softmax's is ``SoftmaxBackwardDataBackward0``...) and the second derivatives."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

REDUCTIONS = {
    "sum": lambda x: x.sum(),
    "sum_dim": lambda x: x.sum(1),
    "sum_dims": lambda x: x.sum((0, 1)),
    "sum_keepdim": lambda x: x.sum(1, keepdim=True),
    "mean": lambda x: x.mean(),
    "mean_dim": lambda x: x.mean(1),
    "mean_dims": lambda x: x.mean((0, 1)),
    "mean_keepdim": lambda x: x.mean(0, keepdim=True),
    "var": lambda x: x.var(),
    "var_dim": lambda x: x.var(1),
    "std": lambda x: x.std(),
    "std_dim": lambda x: x.std(0, keepdim=True),
    "prod": lambda x: x.prod(),
    "prod_dim": lambda x: x.prod(1),
    "norm": lambda x: x.norm(),
    "norm_dim": lambda x: x.norm(dim=1),
    "amax": lambda x: x.amax(),
    "amax_dim": lambda x: x.amax(1),
    "amin_keepdim": lambda x: x.amin(0, keepdim=True),
    "max": lambda x: x.max(),
    "min": lambda x: x.min(),
    "max_dim": lambda x: x.max(1)[0],
    "min_keepdim": lambda x: x.min(0, keepdim=True)[0],
    "median_dim": lambda x: x.median(1)[0],
    "logsumexp": lambda x: x.logsumexp(1),
    "softmax": lambda x: x.softmax(1),
    "softmax_dim0": lambda x: x.softmax(0),
    "log_softmax": lambda x: x.log_softmax(1),
    "log_softmax_dim0": lambda x: x.log_softmax(0),
}


def graph_names(fn) -> list:
    """The sorted names of every node reachable from ``fn`` (torch's C++ prefix dropped)."""
    names, seen, todo = [], set(), [fn]
    while todo:
        node = todo.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        names.append(node.name().replace("torch::autograd::", ""))
        todo.extend(n for n, _ in node.next_functions)
    return sorted(names)


def gradient_graph(lib, reduce):
    x = lib.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 7.0]], dtype=lib.float64, requires_grad=True)
    y = reduce(x)
    v = (lib.ones_like(y) * 0.5).requires_grad_()  # the incoming gradient takes part in the graph too
    (g,) = lib.autograd.grad(y, x, v, create_graph=True)
    second = lib.autograd.grad((g * g).sum(), (x, v), allow_unused=True)
    return g, second


@pytest.mark.parametrize("name", list(REDUCTIONS))
def test_a_reductions_gradient_records_torchs_nodes(torch, name):
    ours, our_second = gradient_graph(core, REDUCTIONS[name])
    theirs, their_second = gradient_graph(torch, REDUCTIONS[name])
    assert ours.grad_fn.name() == theirs.grad_fn.name()
    assert graph_names(ours.grad_fn) == graph_names(theirs.grad_fn)
    assert_same(ours, theirs, rtol=1e-12, atol=1e-12)
    for mine, their in zip(our_second, their_second):
        assert (mine is None) == (their is None)
        if mine is not None:
            assert_same(mine, their, rtol=1e-12, atol=1e-12, path="second derivative")


def test_the_gradient_of_mean_over_a_dim_divides_by_the_count_as_a_number(torch):
    grads = []
    for lib in (core, torch):
        x = lib.ones(2, 3, requires_grad=True)
        (g,) = lib.autograd.grad(x.mean(1), x, lib.ones(2, requires_grad=True), create_graph=True)
        grads.append(g)
    g, tg = grads
    assert g.grad_fn.name() == tg.grad_fn.name() == "DivBackward1"
    assert np.array_equal(g.detach().numpy(), tg.detach().numpy())


@pytest.mark.parametrize("name", ["prod", "prod_dim", "softmax", "log_softmax"])
def test_float32_gradients_recorded_or_not_are_the_same_bits(torch, name):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((4, 7)).astype(np.float32)
    for lib in (core, torch):
        x = lib.tensor(a, requires_grad=True)
        y = REDUCTIONS[name](x)
        (plain,) = lib.autograd.grad(y, x, lib.ones_like(y) * 0.3, retain_graph=True)
        (recorded,) = lib.autograd.grad(y, x, lib.ones_like(y) * 0.3, create_graph=True)
        assert np.array_equal(plain.detach().numpy(), recorded.detach().numpy()), lib.__name__
        if lib is core:
            ours = plain
    assert_same(ours, plain, rtol=0, atol=0)
