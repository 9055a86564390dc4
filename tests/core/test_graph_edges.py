"""A node's edges (``grad_fn.next_functions``) are PyTorch's: a number operand is an input of some ops (``x + 1``:
``AddBackward0`` has two edges, the second ``None``) and not of others (``x ** 2``: ``PowBackward0`` has one);
oracle tests that walk the graph as autograd tutorials print it."""

from __future__ import annotations

import pytest

import core


def _edges(fn):
    """The graph below ``fn``'s result, as names: ``[(node, [edge names])...]`` depth first."""
    out, todo = [], [fn.grad_fn]
    while todo:
        node = todo.pop()
        if node is None or not hasattr(node, "next_functions"):
            continue
        names = [type(n).__name__ if n is not None else None for n, _ in node.next_functions]
        out.append((type(node).__name__, names))
        todo.extend(n for n, _ in node.next_functions)
    return out


@pytest.mark.parametrize("expr", [lambda lib, x, w: x ** 2, lambda lib, x, w: (x ** 0.5).sum(),
                                  lambda lib, x, w: x.pow(3) + 1, lambda lib, x, w: 2 ** x, lambda lib, x, w: x ** w,
                                  lambda lib, x, w: ((x * w - 1) ** 2).mean(), lambda lib, x, w: lib.pow(x, 2)],
                         ids=["square", "sqrt_sum", "pow_add", "rpow", "tensor_exponent", "mse", "torch_pow"])
def test_pow_nodes_have_torchs_edges(torch, expr):
    def graph(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        w = lib.tensor([0.5, 1.0, 2.0], requires_grad=True)
        return _edges(expr(lib, x, w))
    assert graph(core) == graph(torch)


def test_a_scalar_pow_still_differentiates_twice_as_torch(torch):
    def grads(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        g, = lib.autograd.grad((x ** 3).sum(), x, create_graph=True)
        h, = lib.autograd.grad(g.sum(), x)
        return g.tolist(), h.tolist(), (x ** 2).grad_fn._saved_exponent
    assert grads(core) == grads(torch)


def test_an_in_place_pow_has_torchs_edges_and_gradient(torch):
    def graph(lib):
        x = lib.tensor([1.0, 2.0, 3.0], requires_grad=True)
        y = x * 1
        y.pow_(2)
        y **= 0.5
        z = x * 1
        z.pow_(x)
        (y.sum() + z.sum()).backward()
        return _edges(y), _edges(z), x.grad.tolist()
    assert graph(core) == graph(torch)


@pytest.mark.parametrize("pick", [lambda lib, c, x, y: lib.where(c, x, y), lambda lib, c, x, y: lib.where(c, x, 0.0),
                                  lambda lib, c, x, y: lib.where(c, 1.5, y), lambda lib, c, x, y: x.where(c, y)],
                         ids=["tensors", "number_other", "number_input", "method"])
def test_where_has_an_edge_per_value_not_for_its_condition(torch, pick):
    def graph(lib):
        x = lib.tensor([1.0, -2.0, 3.0], requires_grad=True)
        y = lib.tensor([0.5, 1.0, -2.0], requires_grad=True)
        out = pick(lib, x > 0, x, y)
        out.sum().backward()
        return _edges(out), [None if t.grad is None else t.grad.tolist() for t in (x, y)]
    assert graph(core) == graph(torch)
