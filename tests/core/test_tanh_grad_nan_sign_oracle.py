"""tanh's gradient at a NaN keeps the NaN's sign as PyTorch's ``tanh_backward`` kernel does: its ``1 - o * o`` is a
fused multiply-add, and the FMA instruction passes a NaN ``o`` on with its own sign (the negation it applies to
the product leaves a NaN as it is), then ``grad * that`` passes it on again (a finite ``grad``)."""

import numpy as np
import pytest

import core


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("size", [2, 9, 16, 37, 200])
@pytest.mark.parametrize("reduce", ["sum", "weighted"])
def test_tanh_gradient_keeps_the_sign_of_a_nan_as_torch(torch, dtype, size, reduce):
    rng = np.random.default_rng(size)
    x_np = rng.standard_normal(size)
    x_np[rng.random(size) < 0.4] = np.nan
    x_np[rng.random(size) < 0.5] *= -1  # (NaNs of both signs: a multiplication by -1 flips the sign bit)
    x_np = x_np.astype(dtype)
    grads = []
    for lib in (core, torch):
        x = lib.tensor(x_np, requires_grad=True)
        y = x.tanh()
        if reduce == "sum":
            y.sum().backward()
        else:
            y.backward(lib.linspace(-2, 3, size, dtype=x.dtype))
        grads.append(x.grad.numpy())
    ours, theirs = grads
    assert np.array_equal(np.signbit(ours), np.signbit(theirs))
    assert ours.tobytes() == theirs.tobytes()
