"""Helpers of the kernel bit tests: one op's forward and backward as raw float32 bits, and seeded inputs."""

from __future__ import annotations

import numpy as np


def run_bits(lib, fn, x, g):
    """``fn(lib, t)`` and the gradient ``g`` sends back to ``t``, both viewed as uint32 bit patterns."""
    t = lib.tensor(x, requires_grad=True)
    y = fn(lib, t)
    y.backward(lib.tensor(g))
    return y.detach().numpy().view(np.uint32), t.grad.numpy().view(np.uint32)


def inputs_and_grads(shape, seed):
    """float32 inputs (scale 3, so exp's range is covered) and incoming gradients of ``shape``."""
    rng = np.random.default_rng(seed)
    return (rng.standard_normal(shape) * 3).astype(np.float32), rng.standard_normal(shape).astype(np.float32)
