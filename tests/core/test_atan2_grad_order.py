"""atan2's gradients as PyTorch's ``atan2_backward``: ``recip = (self * self + other * other).reciprocal()``, then
``grad * other * recip`` and ``grad * -self * recip`` (core divided ``grad * other / den``: a quarter of the
gradients differed by an ulp)."""

from __future__ import annotations

import numpy as np
import pytest

import core


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [7, 700, 5000])
def test_atan2_gradients_match_torch_bit_for_bit(torch, n, dtype):
    a, b, g = np.random.default_rng(n).standard_normal((3, n))
    grads = []
    for lib in (core, torch):
        dt = getattr(lib, dtype)
        x, y = lib.tensor(a, dtype=dt, requires_grad=True), lib.tensor(b, dtype=dt, requires_grad=True)
        lib.atan2(x, y).backward(lib.tensor(g, dtype=dt))
        grads.append((x.grad.numpy(), y.grad.numpy()))
    for ours, theirs in zip(*grads):
        np.testing.assert_array_equal(ours.view(np.uint8), theirs.view(np.uint8))
