"""Batched matmuls with an empty dim, with and without grad, give PyTorch's shapes and values.

The no-grad per-matrix route (MKL's order, 18b591ba) reshaped an empty batch to ``(-1, 0, 0)``, which has no size to
infer: ``torch.linalg.eig`` of a (0, 0, 0) input failed in its backward (the OpInfo sweep's empty sample)."""

import numpy as np
import pytest

import core

SHAPES = [((0, 0, 0), (0, 0, 0)), ((2, 0, 3), (2, 3, 4)), ((2, 3, 0), (2, 0, 4)), ((2, 3, 4), (2, 4, 0)),
          ((0, 3, 4), (0, 4, 5)), ((2, 2, 0, 0), (2, 2, 0, 0)), ((1, 0, 2), (1, 2, 0))]


@pytest.mark.parametrize(("a", "b"), SHAPES)
@pytest.mark.parametrize("grad", [False, True])
def test_an_empty_batched_product_is_torchs(torch, a, b, grad):
    results = []
    for lib in (core, torch):
        x = lib.ones(*a, dtype=lib.float64, requires_grad=grad)
        y = lib.ones(*b, dtype=lib.float64, requires_grad=grad)
        out = x @ y
        if grad:
            out.sum().backward()
            results.append((tuple(out.shape), out.detach().numpy(), x.grad.numpy(), y.grad.numpy()))
        else:
            results.append((tuple(out.shape), out.numpy()))
    ours, theirs = results
    assert ours[0] == theirs[0]
    for mine, torchs in zip(ours[1:], theirs[1:], strict=True):
        np.testing.assert_array_equal(mine, torchs)


def test_eig_of_an_empty_batch_has_an_empty_gradient(torch):
    for lib in (core, torch):
        x = lib.zeros(0, 0, 0, dtype=lib.float64, requires_grad=True)
        w, v = lib.linalg.eig(x)
        (w.abs().sum() + v.abs().sum()).backward()
        assert tuple(x.grad.shape) == (0, 0, 0)
