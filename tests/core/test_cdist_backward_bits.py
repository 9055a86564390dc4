"""``torch.cdist``'s gradient on its direct route (p = 2, at most 25 rows a side) bit for bit as ATen's backward
kernel computes it: each pair's term ``(grad * diff) / dist`` (0 where the rows coincide), added into a row's
gradient pair after pair in order. float32 with fewer than 16 features, where the forward (the distances the terms
divide by) already matches torch's; float64's forward and float32's over 16+ features add the squares in another
order (not this file's)."""

import numpy as np
import pytest
import torch

import core


def _same_bits(c, t):
    c, t = c.detach().numpy(), t.detach().numpy()
    assert c.dtype == t.dtype and c.shape == t.shape
    assert np.array_equal(c, t) and np.array_equal(np.signbit(c), np.signbit(t))


def _grads(lib, a, b, g):
    x1, x2 = lib.tensor(a, requires_grad=True), lib.tensor(b, requires_grad=True)
    out = lib.cdist(x1, x2)
    out.backward(lib.tensor(g))
    return out, x1.grad, x2.grad


@pytest.mark.parametrize("p,r,m", [(24, 24, 6), (5, 7, 3), (12, 9, 1), (3, 20, 9), (25, 2, 15)])
def test_cdist_gradients_match_torch_bitwise(p, r, m):
    dtype = np.float32
    rng = np.random.default_rng(p * 100 + r * 10 + m)
    a, b = rng.standard_normal((p, m)).astype(dtype), rng.standard_normal((r, m)).astype(dtype)
    g = rng.standard_normal((p, r)).astype(dtype)
    for c, t in zip(_grads(core, a, b, g), _grads(torch, a, b, g)):
        _same_bits(c, t)


def test_cdist_gradient_of_batches_and_coinciding_rows_matches_torch_bitwise():
    """A batch broadcast against one set of rows, and a pair at distance 0 (its term is 0, not NaN)."""
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((2, 6, 4)).astype(np.float32), rng.standard_normal((5, 4)).astype(np.float32)
    b[3] = a[1, 2]
    g = rng.standard_normal((2, 6, 5)).astype(np.float32)
    for c, t in zip(_grads(core, a, b, g), _grads(torch, a, b, g)):
        _same_bits(c, t)
