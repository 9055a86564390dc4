"""Gradients of piecewise and reciprocal-type ops bit for bit as PyTorch's kernels give them, signed zeros included.

PyTorch's ``threshold_backward`` (relu), ``hardtanh_backward`` (relu6, hardtanh) and ``hardsigmoid_backward`` select
``0`` where the slope is 0, so a negative incoming gradient leaves ``+0``: core multiplied by a 0/1 mask and
printed ``-0.`` there (``x.grad`` after a ReLU). hardsigmoid's backward multiplies by the float32 constant
``1.0f / 6.0f`` (core divided by 6); reciprocal's is ``-grad * (result * result)`` and rsqrt's
``-0.5 * grad * result.pow(3)`` (core multiplied left to right): a fifth to a half of those gradients differed by
an ulp.
"""

from __future__ import annotations

import numpy as np
import pytest

import core

F = {"relu": lambda L, t: L.relu(t), "relu_module": lambda L, t: L.nn.ReLU()(t),
     "relu_inplace": lambda L, t: L.relu_(t * 1), "relu6": lambda L, t: L.nn.functional.relu6(t * 3),
     "hardtanh": lambda L, t: L.nn.functional.hardtanh(t, -0.5, 0.8),
     "threshold": lambda L, t: L.nn.functional.threshold(t, 0.1, 0.0),
     "hardsigmoid": lambda L, t: L.nn.functional.hardsigmoid(t * 4), "reciprocal": lambda L, t: L.reciprocal(t),
     "rdiv": lambda L, t: 1.7 / (t.abs() + 0.5), "rsqrt": lambda L, t: L.rsqrt(t.abs() + 0.1),
     "leaky": lambda L, t: L.nn.functional.leaky_relu(t, 0.2)}


def _grad(lib, fn, x, g, dtype):
    t = lib.tensor(x, dtype=getattr(lib, dtype), requires_grad=True)
    y = fn(lib, t)
    y.backward(lib.tensor(g, dtype=getattr(lib, dtype)))
    return y.detach().numpy(), t.grad.numpy()


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("name", list(F))
def test_gradients_match_torch_bit_for_bit(torch, name, dtype):
    rng = np.random.default_rng(0)
    x, g = rng.standard_normal(3000) * 2, rng.standard_normal(3000)
    x[:4] = [0.0, -0.0, 3.0, -3.0]  # the kinks
    ours, theirs = _grad(core, F[name], x, g, dtype), _grad(torch, F[name], x, g, dtype)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a.view(np.uint8), b.view(np.uint8))  # bits: signed zeros count


@pytest.mark.parametrize("dtype", ["float32", "float64", "float16", "bfloat16"])
@pytest.mark.parametrize("shape", [(), (5,), (64, 256), (3, 4, 33)])
def test_relu_passes_signed_zeros_infs_and_nans_of_the_gradient_as_torch(torch, dtype, shape):
    """Where the input is positive (or nan) the incoming gradient passes bit for bit, a -0, an inf and a nan
    included; where it is <= 0 the gradient is +0, whatever the incoming value."""
    rng = np.random.default_rng(1)
    x, g = rng.standard_normal(shape), rng.standard_normal(shape)
    flat_x, flat_g = x.reshape(-1), g.reshape(-1)
    flat_x[::7], flat_x[1::11], flat_x[2::13] = 0.0, -0.0, np.nan
    flat_g[::3], flat_g[1::5], flat_g[2::17], flat_g[3::19] = -0.0, np.inf, -np.inf, np.nan
    def relu_grad(lib, step):
        t = lib.tensor(x, dtype=getattr(lib, dtype), requires_grad=True)
        part = (..., slice(None, None, step)) if shape else ()
        lib.relu(t[part]).backward(lib.tensor(g[part], dtype=getattr(lib, dtype)))
        return t.grad.float().numpy().view(np.uint32)  # (exact from each dtype: signed zeros, infs and nans kept)

    for step in (1, 2) if shape else (1,):  # contiguous, and a strided gradient (the general route); 0-d
        ours, theirs = relu_grad(core, step), relu_grad(torch, step)
        nan = np.isnan(theirs.view(np.float32))  # (a nan's payload aside: torch's bfloat16 kernel gives its own)
        np.testing.assert_array_equal(np.isnan(ours.view(np.float32)), nan)
        np.testing.assert_array_equal(ours[~nan], theirs[~nan])


def test_relu_gradient_prints_as_torchs(torch):
    def text(lib):
        x = lib.tensor([-1.0, 2.0, -3.0], requires_grad=True)
        lib.relu(x).backward(lib.tensor([-1.0, -1.0, 1.0]))
        return str(x.grad)
    assert text(core) == text(torch) == "tensor([ 0., -1.,  0.])"  # (core printed -0. for the first)


def test_relu_double_backward_still_works(torch):
    def grads(lib):
        x = lib.tensor([-1.0, 2.0, 0.5], requires_grad=True)
        g = lib.tensor([-1.0, 3.0, -2.0], requires_grad=True)
        (gx,) = lib.autograd.grad(lib.nn.functional.hardtanh(x), x, g, create_graph=True)
        return lib.autograd.grad(gx.sum(), g)[0].numpy()
    np.testing.assert_array_equal(grads(core), grads(torch))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("n", [7, 12, 37, 80, 95, 1000])
@pytest.mark.parametrize("name", ["softshrink", "hardshrink"])
def test_shrinks_keep_nan_and_torchs_signed_zeros(torch, name, n, dtype):
    """nan passes through both (core gave 0); softshrink's scalar form (a tensor's tail, small tensors) computes
    ``x * 0`` in the dead zone, so -0.3 gives -0. there and +0. in the vector loop (torch's AVX2 build)."""
    x = np.random.default_rng(n).standard_normal(n)
    x[::9], x[1::11], x[2::5] = np.nan, -0.0, -0.3
    ours = getattr(core.nn.functional, name)(core.tensor(x, dtype=getattr(core, dtype))).numpy()
    theirs = getattr(torch.nn.functional, name)(torch.tensor(x, dtype=getattr(torch, dtype))).numpy()
    np.testing.assert_array_equal(ours.view(np.uint8), theirs.view(np.uint8))
