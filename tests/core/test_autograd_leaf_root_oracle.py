"""A backward whose root sends its gradients straight to leaves (``x.dot(w)``, ``a.sum()``, a core.compile replay's
one node) takes the engine's short route (``engine._straight_to_leaves``): each case runs in core and in PyTorch
and must leave the same ``.grad`` values, hook calls and errors."""

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same, raised


def _leaves(lib):
    return lib.tensor([1.5, -2.0, 0.25], requires_grad=True), lib.tensor([0.5, 3.0, -1.0], requires_grad=True)


def _dot_twice_retained(lib):
    x, w = _leaves(lib)
    z = x.dot(w)
    z.backward(retain_graph=True)
    z.backward()
    return x.grad, w.grad


def _sum_twice_without_saved_tensors(lib):
    x, _ = _leaves(lib)
    z = x.sum()
    z.backward()
    z.backward()
    return x.grad


def _same_leaf_on_both_edges(lib):
    x, _ = _leaves(lib)
    x.dot(x).backward()
    return x.grad


def _a_constant_operand(lib):
    x, _ = _leaves(lib)
    x.dot(lib.tensor([1.0, 2.0, 3.0])).backward()
    return x.grad


def _hooks_on_a_leaf(lib):
    x, w = _leaves(lib)
    seen = []
    x.register_hook(lambda g: g * 2)
    w.register_post_accumulate_grad_hook(lambda t: seen.append(t.grad.clone()))
    x.dot(w).backward()
    return x.grad, w.grad, seen[0]


def _retained_root(lib):
    x, w = _leaves(lib)
    z = x.dot(w)
    z.retain_grad()
    z.backward()
    return x.grad, w.grad, z.grad


def _accumulates_into_existing_grads(lib):
    x, w = _leaves(lib)
    x.grad = lib.ones(3)
    x.dot(w).backward()
    (x * 1).dot(w).backward()
    return x.grad, w.grad


def _multi_grad_hook_on_the_leaves(lib):
    x, w = _leaves(lib)
    seen = []
    lib.autograd.graph.register_multi_grad_hook((x, w), lambda grads: seen.append([g.clone() for g in grads]))
    x.dot(w).backward()
    return x.grad, w.grad, *seen[0]


@pytest.mark.parametrize("case", [_dot_twice_retained, _sum_twice_without_saved_tensors, _same_leaf_on_both_edges,
                                  _a_constant_operand, _hooks_on_a_leaf, _retained_root,
                                  _accumulates_into_existing_grads, _multi_grad_hook_on_the_leaves])
def test_a_root_with_only_leaf_edges_leaves_pytorchs_gradients(torch, case):
    assert_same(case(core), case(torch))


def test_a_second_backward_through_freed_saved_tensors_raises_as_in_pytorch(torch):
    def run(lib):
        x, w = _leaves(lib)
        z = x.dot(w)
        z.backward()
        return raised(z.backward)
    assert run(core) == run(torch)


def test_a_compiled_step_gives_the_leaves_the_eager_gradients_with_hooks_on_them():
    """A replay's one node has only leaf edges: a hook on a parameter still doubles its gradient and the same
    parameter passed twice still gets both gradients summed."""
    def f(x, w):
        return (x * w).sum() + x.dot(x)

    got = []
    for fn in (f, core.compile(f)):
        x, w = core.tensor([1.0, 2.0], requires_grad=True), core.tensor([0.5, -1.5], requires_grad=True)
        w.register_hook(lambda g: g * 2)
        for _ in range(3):
            fn(x, w).backward()
        same = core.tensor([0.5, 1.0], requires_grad=True)
        for _ in range(3):
            fn(same, same).backward()
        got.append([x.grad.numpy().copy(), w.grad.numpy().copy(), same.grad.numpy().copy()])
    assert fn.captures == 1 and fn.replays == 5  # (same, same) has the key of (x, w)
    for a, b in zip(*got):
        np.testing.assert_array_equal(a, b)
