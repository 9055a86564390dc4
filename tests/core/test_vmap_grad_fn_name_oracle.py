"""A vmapped function's output that requires grad prints the ``grad_fn`` of its last op (``ReluBackward0``), as
PyTorch's batched op records it, and backward through it reaches the weights the samples used."""

from __future__ import annotations

import numpy as np
import pytest

import core
from tests.core.oracle import assert_same

W = np.array([0.5, -1.0, 2.0, 0.25, 1.5], dtype=np.float32)
X = np.arange(15, dtype=np.float32).reshape(3, 5) / 7 - 1


def _linear_relu(w):
    return lambda v: v.dot(w).relu()


def _scaled_sin(w):
    return lambda v: (v * w).sin()


def _weighted_sum(w):
    return lambda v: (v * w).sum()


def _weighted_mean(w):
    return lambda v: (v * w).mean()


def _weighted_max(w):
    return lambda v: (v * w).max()


@pytest.mark.parametrize("make", [_linear_relu, _scaled_sin, _weighted_sum, _weighted_mean, _weighted_max],
                         ids=["relu", "sin", "sum", "mean", "max"])
def test_a_vmapped_output_has_the_last_ops_grad_fn_name_and_backward_reaches_the_weights(make, torch):
    results = []
    for lib in (core, torch):
        w = lib.tensor(W, requires_grad=True)
        out = lib.func.vmap(make(w))(lib.tensor(X))
        out.sum().backward()
        results.append((out.grad_fn.name(), out, w.grad))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1:], results[1][1:])


def test_per_sample_gradients_of_weights_that_require_grad_print_the_last_ops_grad_fn(torch):
    results = []
    for lib in (core, torch):
        w = lib.tensor(W, requires_grad=True)

        def loss(w, v, t):
            return ((v.dot(w).relu() - t) ** 2).mean()

        out = lib.func.vmap(lib.func.grad(loss), in_dims=(None, 0, 0))(w, lib.tensor(X), lib.tensor(X[:, 0]))
        results.append((out.grad_fn.name(), out))
    assert results[0][0] == results[1][0]
    assert_same(results[0][1], results[1][1])


def test_a_vmapped_output_that_needs_no_grad_has_no_grad_fn(torch):
    names = [lib.func.vmap(lambda v: v.sin())(lib.tensor(X)).grad_fn for lib in (core, torch)]
    assert names == [None, None]
