"""``torch.autograd.grad(..., materialize_grads=True, create_graph=True)`` gives an unused input's gradient as zeros
that require grad (a leaf), as torch does (without ``create_graph`` they do not): BackPACK's R-operator differentiates
those gradients again (``grad(gs, ws)``), which must not raise for a parameter the output does not depend on."""

from __future__ import annotations

import pytest

import core
from tests.core.oracle import assert_same


def _unused_bias(lib):
    x = lib.zeros(1, requires_grad=True)
    layer = lib.nn.Linear(1, 1)
    (dy_dx,) = lib.autograd.grad(layer(x), x, create_graph=True)  # d(wx + b)/dx = w: the bias is unused
    return layer, dy_dx


@pytest.mark.parametrize("create_graph", [True, False])
def test_materialized_zeros_require_grad_under_create_graph(create_graph, torch):
    results = []
    for lib in (core, torch):
        a, b = lib.ones(2, requires_grad=True), lib.ones(3, requires_grad=True)
        grads = lib.autograd.grad((a * 2).sum(), [a, b], create_graph=create_graph, materialize_grads=True)
        results.append([(g, g.requires_grad, g.is_leaf, g.grad_fn is None) for g in grads])
    assert_same(results[0], results[1])


def test_materialized_gradient_is_differentiated_again_as_backpacks_r_op_does(torch):
    results = []
    for lib in (core, torch):
        layer, dy_dx = _unused_bias(lib)
        params = list(layer.parameters())
        w = lib.zeros_like(dy_dx).requires_grad_(True)
        gs = lib.autograd.grad(dy_dx, params, grad_outputs=w, create_graph=True, allow_unused=True,
                               materialize_grads=True)
        vs = [lib.full_like(p, 0.5) for p in params]
        jv = lib.autograd.grad(gs, w, grad_outputs=vs, allow_unused=True, materialize_grads=True)
        results.append([(g.detach(), g.requires_grad) for g in (*gs, *jv)])
    assert_same(results[0], results[1])
