"""The backward engine: graph recording, dependency counting, accumulation, release, versions, errors."""

import gc
import sys
import warnings
import weakref

import numpy as np
import pytest

import core
import core as torch
from tests.core.oracle import assert_same


def _leaf(values):
    return torch.tensor(values, requires_grad=True)


# ----- graph recording --------------------------------------------------------------------------

@pytest.mark.parametrize("factory", [
    lambda: torch.zeros(2, requires_grad=True), lambda: torch.ones(2, 3, requires_grad=True),
    lambda: torch.randn(2, requires_grad=True), lambda: torch.rand(2, requires_grad=True),
    lambda: torch.empty(2, requires_grad=True), lambda: torch.full((2,), 1.5, requires_grad=True),
    lambda: torch.arange(3.0, requires_grad=True), lambda: torch.linspace(0, 1, 3, requires_grad=True),
    lambda: torch.eye(2, requires_grad=True), lambda: torch.tensor([1.0], requires_grad=True),
    lambda: torch.zeros_like(torch.ones(2), requires_grad=True),
])
def test_every_factory_accepts_requires_grad(factory):
    t = factory()
    assert t.requires_grad and t.is_leaf and t.grad_fn is None and t.grad is None


@pytest.mark.parametrize("make", [lambda: torch.tensor([1, 2], requires_grad=True),
                                  lambda: torch.arange(3, requires_grad=True),
                                  lambda: torch.tensor([True]).requires_grad_(),
                                  lambda: torch.zeros(2, dtype=torch.int32, requires_grad=True)])
def test_integer_and_bool_tensors_cannot_require_grad(make):
    with pytest.raises(RuntimeError,
                       match="(?i)only Tensors of floating point (and complex )?dtype can require gradients"):
        make()


def test_requires_grad_flag_can_only_be_cleared_on_leaves():
    x = _leaf([1.0])
    y = x * 2
    with pytest.raises(RuntimeError, match="you can only change requires_grad flags of leaf variables"):
        y.requires_grad_(False)
    x.requires_grad_(False)
    assert not x.requires_grad


def test_grad_fn_names_and_next_functions_follow_pytorch():
    x, w = _leaf([2.0, 3.0]), _leaf([1.5, -0.5])
    c = torch.tensor([1.0, 1.0])
    z = (x * w * c).sum() + 1
    assert repr(z.grad_fn).startswith("<AddBackward0 object at 0x")
    (s, nr), = [z.grad_fn.next_functions[0]]
    assert s.name() == "SumBackward0" and nr == 0
    assert z.grad_fn.next_functions[1] == (None, 0)
    mul_c = s.next_functions[0][0]
    assert mul_c.name() == "MulBackward0" and mul_c.next_functions[1] == (None, 0)
    acc_x, acc_w = (f for f, _ in mul_c.next_functions[0][0].next_functions)
    assert acc_x.name() == "torch::autograd::AccumulateGrad" and acc_x.variable is x and acc_w.variable is w
    assert (x * 1).grad_fn.next_functions[0][0] is acc_x  # one AccumulateGrad per leaf


def test_view_ops_record_view_nodes():
    x = torch.ones(2, 3, requires_grad=True)
    assert x.view(6).grad_fn.name() == "ViewBackward0"
    assert x.t().grad_fn.name() == "TBackward0"
    assert x.transpose(0, 1).grad_fn.name() == "TransposeBackward0"
    assert x.expand(4, 2, 3).grad_fn.name() == "ExpandBackward0"


def test_detach_shares_storage_and_version_counter():
    x = _leaf([1.0, 2.0])
    y = x * 2
    d = y.detach()
    assert d.is_leaf and not d.requires_grad and d.grad_fn is None
    assert d.data_ptr() == y.data_ptr()
    d.add_(1)
    assert y.tolist() == [3.0, 5.0] and y._version == d._version == 1


def test_detach_in_place_makes_a_non_leaf_a_leaf():
    y = _leaf([1.0]) * 2
    assert y.detach_() is y
    assert y.is_leaf and not y.requires_grad and y.grad_fn is None


def test_detach_stops_gradients():
    x = _leaf([1.0, 2.0])
    (x * x.detach()).sum().backward()
    assert x.grad.tolist() == [1.0, 2.0]


# ----- the engine ---------------------------------------------------------------------------------

def test_non_scalar_output_needs_an_explicit_gradient():
    y = _leaf([1.0, 2.0]) * 2
    with pytest.raises(RuntimeError, match="grad can be implicitly created only for scalar outputs"):
        y.backward()
    y.backward(torch.tensor([1.0, 10.0]))


def test_gradient_of_the_wrong_shape_is_refused():
    y = _leaf([1.0, 2.0]) * 2
    with pytest.raises(RuntimeError, match=r"Mismatch in shape: grad_output\[0\] has a shape of torch.Size\(\[3\]\)"):
        y.backward(torch.ones(3))


def test_output_that_does_not_require_grad_cannot_backward():
    with pytest.raises(RuntimeError, match="element 0 of tensors does not require grad and does not have a grad_fn"):
        torch.ones(2).sum().backward()


def test_diamond_sums_both_paths():
    x = _leaf([3.0])
    y = x * 2
    z = y * y + y  # dz/dx = (2y + 1) * 2
    z.backward()
    assert x.grad.tolist() == [26.0]


def test_gradients_accumulate_across_backward_calls():
    x = _leaf([1.0, 2.0])
    (x * 3).sum().backward()
    g = x.grad
    (x * x).sum().backward()
    assert x.grad.tolist() == [5.0, 7.0]
    assert x.grad is g  # accumulated in place, as PyTorch does without create_graph


def test_broadcast_gradients_are_summed_to_the_input_shape():
    a, b = torch.ones(2, 3, requires_grad=True), torch.ones(3, requires_grad=True)
    s = torch.ones(1, 1, requires_grad=True)
    (a * b * s).sum().backward()
    assert b.grad.tolist() == [2.0, 2.0, 2.0] and s.grad.tolist() == [[6.0]] and a.grad.shape == (2, 3)


def test_non_leaf_grad_warns_like_pytorch_and_is_none():
    y = _leaf([1.0]) * 2
    y.sum().backward()
    with pytest.warns(UserWarning, match="The .grad attribute of a Tensor that is not a leaf Tensor is being accessed"):
        assert y.grad is None


def test_retain_grad_keeps_a_non_leaf_gradient_without_warning():
    x = _leaf([1.0, 2.0])
    y = x * 2
    y.retain_grad()
    assert y.retains_grad and not x.retains_grad
    (y * y).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert y.grad.tolist() == [4.0, 8.0]


def test_retain_grad_on_a_leaf_is_a_no_op():
    x = _leaf([1.0])
    x.retain_grad()
    assert not x.retains_grad


def test_second_backward_raises_after_saved_tensors_are_freed():
    x = _leaf([1.0, 2.0])
    z = (x * x).sum()
    z.backward()
    with pytest.raises(RuntimeError, match=r"Trying to backward through the graph a second time .*retain_graph=True"):
        z.backward()


def test_retain_graph_allows_a_second_backward_that_doubles_gradients():
    x = _leaf([1.0, 2.0])
    z = (x * x).sum()
    z.backward(retain_graph=True)
    z.backward()
    assert x.grad.tolist() == [4.0, 8.0]


def test_graph_without_saved_tensors_can_backward_twice_like_pytorch(torch):
    def run(lib):
        x = lib.tensor([1.0, 2.0], requires_grad=True)
        z = (x + 1).sum()
        z.backward()
        z.backward()
        return x.grad
    assert_same(run(core), run(torch))


def test_saved_tensor_modified_in_place_raises_with_versions():
    x = _leaf([1.0, 2.0])
    a = x * 2
    b = a * a
    a.add_(1)
    msg = (r"one of the variables needed for gradient computation has been modified by an inplace operation: "
           r"\[torch.FloatTensor \[2\]\], which is output 0 of Add, is at version 1; expected version 0 "
           r"instead. Hint: enable anomaly detection")
    with pytest.raises(RuntimeError, match=msg):
        b.sum().backward()


def test_saved_constant_modified_in_place_raises():
    x, c = _leaf([1.0, 2.0]), torch.tensor([1.0, 2.0])
    y = x * c
    c.mul_(2)
    c.mul_(2)
    with pytest.raises(RuntimeError, match=r"\[torch.FloatTensor \[2\]\] is at version 2; expected version 0"):
        y.sum().backward()


def test_in_place_on_a_leaf_that_requires_grad_raises():
    x = _leaf([1.0])
    with pytest.raises(RuntimeError,
                       match="a leaf Variable that requires grad is being used in an in-place operation."):
        x.add_(1)
    with pytest.raises(RuntimeError, match="a leaf Variable that requires grad"):
        x += 1
    with torch.no_grad():
        x.add_(1)
    assert x.tolist() == [2.0]


def _inplace_recipe(lib):
    x = lib.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    w = lib.tensor([2.0, -1.0, 0.5], requires_grad=True)
    y = x * w
    y += 1
    y *= x
    y[0] = y[0] * 3
    y[:, 1] = 0
    v = y.view(3, 2)
    v.mul_(w.sum())
    y.t()[2].sub_(x[:, 0])
    out = (y * y).sum() + v.sum()
    out.backward()
    return out, x.grad, w.grad


def test_in_place_ops_on_non_leaves_and_views_keep_gradients_right(torch):
    assert_same(_inplace_recipe(core), _inplace_recipe(torch), rtol=1e-5)


def test_backward_with_inputs_only_fills_those_tensors(torch):
    def run(lib):
        x, w = lib.tensor([1.0, 2.0], requires_grad=True), lib.tensor([3.0, 4.0], requires_grad=True)
        y = x * w
        z = (y * y).sum()
        z.backward(inputs=[w, y])
        return x.grad, w.grad, y.grad
    ours, theirs = run(core), run(torch)
    assert ours[0] is None and theirs[0] is None
    assert_same(ours[1:], theirs[1:])


def test_autograd_backward_takes_several_roots_with_their_gradients():
    x = _leaf([1.0, 2.0])
    torch.autograd.backward([x * 2, (x * x).sum()], [torch.tensor([1.0, 1.0]), None])
    assert x.grad.tolist() == [4.0, 6.0]
    with pytest.raises(RuntimeError, match="got 1 tensors and 2 gradients"):
        torch.autograd.backward([(x * 2).sum()], [torch.tensor(1.0), torch.tensor(1.0)])


def test_create_graph_gives_differentiable_leaf_gradients():
    x = _leaf([1.0, 2.0])
    (x * x * x).sum().backward(create_graph=True)
    assert x.grad.requires_grad and x.grad.grad_fn is not None
    g = x.grad
    x.grad = None
    g.sum().backward()
    assert x.grad.tolist() == [6.0, 12.0]


def test_grad_mode_inside_backward_is_create_graph():
    seen = []

    class Probe(torch.autograd.Function):
        @staticmethod
        def forward(ctx, a):
            return a * 1

        @staticmethod
        def backward(ctx, g):
            seen.append(torch.is_grad_enabled())
            return g

    x = _leaf([1.0])
    Probe.apply(x).sum().backward(retain_graph=True)
    Probe.apply(x).sum().backward(create_graph=True)
    assert seen == [False, True] and torch.is_grad_enabled()


# ----- long graphs and memory ---------------------------------------------------------------------------

def test_a_chain_of_100000_ops_backpropagates_and_frees_without_recursion():
    limit = sys.getrecursionlimit()
    x = _leaf([1.0])
    h = x
    for _ in range(100_000):
        h = h + 1.0
    sys.setrecursionlimit(200)
    try:
        h.backward()
        assert x.grad.tolist() == [1.0]
        node = weakref.ref(h.grad_fn)
        del h
        gc.collect()
        assert node() is None
    finally:
        sys.setrecursionlimit(limit)


def test_saved_tensors_of_a_finished_backward_are_released():
    x = _leaf(np.ones(1000).tolist())
    y = x * 2
    z = (y * y).sum()
    probe = weakref.ref(y)
    mul = z.grad_fn.next_functions[0][0].next_functions[0][0]
    del y
    assert probe() is not None  # held by the graph as a saved tensor
    z.backward()
    assert mul.is_released and probe() is None


# ----- core.autograd.grad --------------------------------------------------------------------------------

def test_grad_returns_gradients_without_touching_dot_grad():
    x, w = _leaf([1.0, 2.0]), _leaf([3.0, 4.0])
    y = x * w
    gx, gw = torch.autograd.grad(y.sum(), (x, w))
    assert gx.tolist() == [3.0, 4.0] and gw.tolist() == [1.0, 2.0]
    assert x.grad is None and w.grad is None and not gx.requires_grad


def test_grad_of_a_non_leaf_and_with_grad_outputs():
    x = _leaf([1.0, 2.0])
    y = x * 2
    z = y * y
    (gy,) = torch.autograd.grad(z, y, grad_outputs=torch.tensor([1.0, 0.5]))
    assert gy.tolist() == [4.0, 4.0]


def test_grad_of_an_unused_input_raises_unless_allowed(torch):
    def run(lib, **kwargs):
        x, u = lib.tensor([1.0], requires_grad=True), lib.tensor([1.0], requires_grad=True)
        return lib.autograd.grad((x * 2).sum(), (x, u), **kwargs)

    err = pytest.raises(RuntimeError, match="The differentiated Tensor at index 1 appears to not have been used in "
                                            "the graph. Set allow_unused=True")
    with err:
        run(core)
    gx, gu = run(core, allow_unused=True)
    assert gx.tolist() == [2.0] and gu is None
    assert_same(run(core, materialize_grads=True), run(torch, materialize_grads=True))
    with pytest.raises(ValueError, match="Expected allow_unused to be True or not passed when materialize_grads=True"):
        run(core, allow_unused=False, materialize_grads=True)


def test_grad_needs_inputs_that_require_grad():
    x = _leaf([1.0])
    with pytest.raises(RuntimeError, match="One of the differentiated Tensors does not require grad"):
        torch.autograd.grad((x * 2).sum(), torch.ones(1))


def test_grad_with_the_same_input_twice_gives_it_twice():
    x = _leaf([1.0, 2.0])
    a, b = torch.autograd.grad((x * x).sum(), [x, x])
    assert a.tolist() == b.tolist() == [2.0, 4.0]


def test_grad_with_create_graph_allows_second_derivatives(torch):
    def run(lib):
        x = lib.tensor([0.5, -1.0, 2.0], dtype=lib.float64, requires_grad=True)
        y = (x * x * x / (x * x + 1)).sum()
        (g,) = lib.autograd.grad(y, x, create_graph=True)
        (h,) = lib.autograd.grad(g.sum(), x)
        return y, g, h

    assert_same(run(core), run(torch), rtol=1e-12)


def test_grad_frees_the_graph_unless_retained():
    x = _leaf([1.0, 2.0])
    y = (x * x).sum()
    torch.autograd.grad(y, x, retain_graph=True)
    torch.autograd.grad(y, x)
    with pytest.raises(RuntimeError, match="Trying to backward through the graph a second time"):
        torch.autograd.grad(y, x)
