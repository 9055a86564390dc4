"""Gradients of the common ops bit for bit as PyTorch's CPU kernels round them.

A training loop prints losses whose last digits carry every one-ulp difference of a backward pass, so
these ops reproduce the order of operations and roundings of PyTorch's CPU kernels, forward and backward.
Each test runs the same code in ``core`` and ``torch`` on the same data and compares the output and every
input's gradient with ``assert_array_equal``, over shapes below, at and above the kernels' vector width
and not multiples of it.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

SHAPES = [(3, 5), (4, 16), (2, 37), (64, 10), (8, 64), (2, 3, 70)]


def _data(shape, dtype, seed):
    return np.random.default_rng(seed).standard_normal(shape).astype(dtype)


def _run(lib, fn, arrays, grad_seed):
    ts = [lib.tensor(a, requires_grad=True) for a in arrays]
    y = fn(lib, *ts)
    g = np.random.default_rng(grad_seed).standard_normal(tuple(y.shape)).astype(arrays[0].dtype)
    y.backward(lib.tensor(g))
    return [y.detach().numpy()] + [t.grad.numpy() for t in ts]


def assert_bits(torch, fn, shapes, dtype=np.float32, seed=0, output=True):
    """``fn(lib, *tensors)``'s input gradients (and output, unless ``output`` is False) are equal bit for bit
    in core and torch."""
    arrays = [_data(s, dtype, seed + i) for i, s in enumerate(shapes)]
    ours, theirs = _run(core, fn, arrays, seed + 99), _run(torch, fn, arrays, seed + 99)
    for i, (a, b) in enumerate(zip(ours, theirs)):
        if i == 0 and not output:
            continue
        np.testing.assert_array_equal(a, b, err_msg=f"item {i} (0 = output, then input gradients)")


@pytest.mark.parametrize("reduction", ["mean", "sum", "none"])
@pytest.mark.parametrize("shape", SHAPES)
def test_mse_loss_gradients_match_torch_bit_for_bit(torch, shape, reduction):
    assert_bits(torch, lambda L, x, t: L.nn.functional.mse_loss(x, t, reduction=reduction), [shape, shape])


def test_mse_loss_float64_gradients_match_torch_bit_for_bit(torch):
    assert_bits(torch, lambda L, x, t: L.nn.functional.mse_loss(x, t), [(7, 9), (7, 9)], np.float64,
                output=False)  # (a float64 sum keeps NumPy's order)
