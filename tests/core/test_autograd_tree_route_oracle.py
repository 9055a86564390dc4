"""A plain ``loss.backward()`` over a tree-shaped graph (``(x * w).sum() + b``, an MLP's loss) takes the engine's
short route (``core.autograd.engine_tree``): each case must leave PyTorch's ``.grad`` values, hook calls and errors,
and the very bits the general loop leaves (the route switched off)."""

import numpy as np
import pytest

import core
from core.autograd import engine
from tests.core.oracle import assert_same, raised


def _leaves(lib):
    return (lib.tensor([2.0, 3.0, -0.5], requires_grad=True), lib.tensor([1.5, -0.5, 0.25], requires_grad=True),
            lib.tensor(0.1, requires_grad=True))


def _z_three_times(lib):
    x, w, b = _leaves(lib)
    for _ in range(3):
        ((x * w).sum() + b).backward()
    return x.grad, w.grad, b.grad


def _tanh_mlp_steps(lib):
    lib.manual_seed(0)
    model = lib.nn.Sequential(lib.nn.Linear(2, 8), lib.nn.Tanh(), lib.nn.Linear(8, 8), lib.nn.Tanh(),
                              lib.nn.Linear(8, 1))
    x = lib.tensor(np.linspace(-1, 1, 40, dtype=np.float32).reshape(20, 2))
    y = lib.tensor((np.arange(20) % 2).astype(np.float32).reshape(20, 1))
    opt = lib.optim.Adam(model.parameters(), lr=0.01)
    for _ in range(3):
        opt.zero_grad()
        lib.nn.functional.binary_cross_entropy_with_logits(model(x), y).backward()
        opt.step()
    return [p.grad for p in model.parameters()] + [p.detach() for p in model.parameters()]


def _retained_then_freed(lib):
    x, w, b = _leaves(lib)
    z = (x * w).sum() * b
    z.backward(retain_graph=True)
    z.backward()
    return x.grad, w.grad, b.grad, raised(z.backward)


def _a_constant_operand_and_a_detached_branch(lib):
    x, w, _ = _leaves(lib)
    ((x * lib.tensor([1.0, 2.0, 3.0])).sum() + (w.detach() * 2).sum()).backward()
    return x.grad, w.grad


def _leaf_used_twice(lib):  # not a tree: the general loop sums the leaf's two gradients
    x, w, b = _leaves(lib)
    ((x * w).sum() + (x * b).sum()).backward()
    return x.grad, w.grad, b.grad


def _hooks_on_a_leaf_and_an_inner_tensor(lib):
    x, w, b = _leaves(lib)
    seen = []
    x.register_hook(lambda g: g * 2)
    w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
    inner = x * w
    inner.register_hook(lambda g: g + 1)
    (inner.sum() + b).backward()
    return x.grad, w.grad, b.grad, seen[0]


def _a_hook_registered_during_the_backward(lib):
    x, w, b = _leaves(lib)
    seen = []

    class Tap(lib.autograd.Function):
        @staticmethod
        def forward(ctx, t):
            return t.clone()

        @staticmethod
        def backward(ctx, g):
            w.register_hook(lambda gw: seen.append(gw.clone()) or gw * 3)
            return g

    (Tap.apply(x * w).sum() + b).backward()
    return x.grad, w.grad, b.grad, seen[0]


def _a_retained_inner_gradient(lib):
    x, w, b = _leaves(lib)
    inner = x * w
    inner.retain_grad()
    (inner.sum() + b).backward()
    return x.grad, w.grad, inner.grad


CASES = [_z_three_times, _tanh_mlp_steps, _retained_then_freed, _a_constant_operand_and_a_detached_branch,
         _leaf_used_twice, _hooks_on_a_leaf_and_an_inner_tensor, _a_hook_registered_during_the_backward,
         _a_retained_inner_gradient]


@pytest.mark.parametrize("case", CASES)
def test_a_backward_over_a_tree_leaves_pytorchs_gradients(torch, case):
    assert_same(case(core), case(torch))


@pytest.mark.parametrize("case", CASES)
def test_the_tree_route_leaves_the_general_loops_bits(monkeypatch, case):
    fast = case(core)
    monkeypatch.setattr(engine, "tree_backward", lambda t, retain_graph: False)
    general = case(core)
    for a, b in zip(fast, general):
        if isinstance(a, core.Tensor):
            np.testing.assert_array_equal(a.numpy().reshape(-1).view(np.uint8), b.numpy().reshape(-1).view(np.uint8))
        else:
            assert a == b


def test_a_tree_takes_the_short_route_and_a_diamond_does_not(monkeypatch):
    taken = []
    route = engine.tree_backward
    monkeypatch.setattr(engine, "tree_backward", lambda t, r: taken.append(route(t, r)) or taken[-1])
    _z_three_times(core)
    _leaf_used_twice(core)
    assert taken == [True, True, True, False]
