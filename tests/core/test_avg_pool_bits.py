"""avg_pool2d (and max_pool2d's backward) against PyTorch bit for bit, float32: the forward sums each window as
torch's CPU kernel does (a running sum, row by row), the backward adds each input cell's shares in the order of
the windows (fast.ai's ResNet pools with AvgPool2d(2, ceil_mode=True); overlapping windows round per order)."""

from __future__ import annotations

import numpy as np
import pytest

import core

CASES = [((2, 4, 7, 7), dict(kernel_size=2, ceil_mode=True)), ((2, 4, 8, 8), dict(kernel_size=2)),
         ((2, 4, 9, 9), dict(kernel_size=3, stride=2, padding=1)),
         ((2, 4, 7, 7), dict(kernel_size=3, stride=1, ceil_mode=True)),
         ((2, 4, 8, 8), dict(kernel_size=3, stride=1, padding=1, count_include_pad=False)),
         ((2, 4, 8, 8), dict(kernel_size=3, stride=1, padding=1, divisor_override=5))]


def _run(lib, pool, x, g, kw):
    t = lib.tensor(x, requires_grad=True)
    y = getattr(lib.nn.functional, pool)(t, **kw)
    y.backward(lib.tensor(g))
    return y.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("shape, kw", CASES)
def test_avg_pool2d_and_its_gradient_match_torch_bit_for_bit(torch, shape, kw):
    rng = np.random.default_rng(0)
    x = rng.standard_normal(shape).astype(np.float32)
    out_shape = tuple(torch.nn.functional.avg_pool2d(torch.tensor(x), **kw).shape)
    g = rng.standard_normal(out_shape).astype(np.float32)
    for ours, theirs in zip(_run(core, "avg_pool2d", x, g, kw), _run(torch, "avg_pool2d", x, g, kw)):
        np.testing.assert_array_equal(ours, theirs)


@pytest.mark.parametrize("shape, kw", CASES[2:4])
def test_max_pool2d_gradient_over_overlapping_windows_matches_torch_bit_for_bit(torch, shape, kw):
    rng = np.random.default_rng(1)
    x = rng.integers(-3, 3, shape).astype(np.float32)  # ties: one cell is the max of several windows
    out_shape = tuple(torch.nn.functional.max_pool2d(torch.tensor(x), **kw).shape)
    g = rng.standard_normal(out_shape).astype(np.float32)
    for ours, theirs in zip(_run(core, "max_pool2d", x, g, kw), _run(torch, "max_pool2d", x, g, kw)):
        np.testing.assert_array_equal(ours, theirs)
