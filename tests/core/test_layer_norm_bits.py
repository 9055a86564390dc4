"""layer_norm's values and gradients equal PyTorch's CPU kernel bit for bit (float32 and float64).

The shapes exercise the kernel's branches: normalized sizes below the vector width (all scalar Welford), not a
multiple of it (a scalar tail and a partial last vector in the backward's sums), one and several chunks of 16
vectors up the merge cascade, several leading and several normalized dims. Weight and bias gradients depend on
PyTorch's thread count, so both libraries run with the same one. Float64's reproduction is switched on for
these tests (layer_norm leaves it off by default for its cost).
"""

from __future__ import annotations

import numpy as np
import pytest

import core
from core.nn.functional import _layer_norm_kernel as ln_kernel

SHAPES = [((6, 1), (1,)), ((6, 5), (5,)), ((5, 7), (7,)), ((4, 16), (16,)), ((3, 13), (13,)),
          ((8, 10, 64), (64,)), ((4, 203), (203,)), ((32, 768), (768,)), ((3, 1024), (1024,)),
          ((2, 3, 8, 8), (8, 8)), ((2, 811), (811,))]


@pytest.fixture
def same_threads(torch, monkeypatch):
    """core set to PyTorch's thread count for the test (the weight and bias gradients' blocks follow it), with
    the float64 reproduction switched on."""
    monkeypatch.setattr(ln_kernel, "EXACT_FLOAT64", True)
    before = core.get_num_threads()
    core.set_num_threads(torch.get_num_threads())
    yield torch
    core.set_num_threads(before)


def _run(lib, x, g, shape, dtype, affine=True, bias=True):
    lib.manual_seed(0)
    ln = lib.nn.LayerNorm(shape, elementwise_affine=affine, bias=bias, dtype=getattr(lib, dtype))
    if affine:
        with lib.no_grad():  # weights away from 1 and 0, so that their arithmetic shows
            ln.weight.copy_(lib.tensor(np.linspace(-1.5, 2.0, ln.weight.numel()).reshape(shape)))
            if bias:
                ln.bias.copy_(lib.tensor(np.linspace(0.7, -0.3, ln.bias.numel()).reshape(shape)))
    xt = lib.tensor(x, requires_grad=True)
    y = ln(xt)
    y.backward(lib.tensor(g))
    params = [p.grad.numpy() for p in ln.parameters()]
    return [y.detach().numpy(), xt.grad.numpy(), *params]


def _data(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    x = (rng.standard_normal(shape) * 3 + 1).astype(dtype)
    return x, rng.standard_normal(shape).astype(dtype)


def _assert_bitwise(ours, theirs):
    assert len(ours) == len(theirs)
    for a, b in zip(ours, theirs):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,normalized", SHAPES)
def test_layer_norm_output_and_gradients_equal_torch_bit_for_bit(same_threads, shape, normalized, dtype):
    x, g = _data(shape, dtype)
    _assert_bitwise(_run(core, x, g, normalized, dtype), _run(same_threads, x, g, normalized, dtype))


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape,normalized", [((5, 7), (7,)), ((4, 203), (203,)), ((2, 3, 8, 8), (8, 8))])
def test_layer_norm_without_affine_or_bias_equals_torch_bit_for_bit(same_threads, shape, normalized, dtype):
    x, g = _data(shape, dtype, seed=1)
    for affine, bias in ((False, True), (True, False)):
        ours = _run(core, x, g, normalized, dtype, affine, bias)
        _assert_bitwise(ours, _run(same_threads, x, g, normalized, dtype, affine, bias))


@pytest.mark.parametrize("threads", [1, 3])
def test_layer_norm_weight_and_bias_gradients_follow_the_thread_count_as_torch(torch, threads):
    before_core, before_torch = core.get_num_threads(), torch.get_num_threads()
    x, g = _data((7, 40), "float32", seed=2)
    try:
        core.set_num_threads(threads)
        torch.set_num_threads(threads)
        _assert_bitwise(_run(core, x, g, (40,), "float32"), _run(torch, x, g, (40,), "float32"))
    finally:
        core.set_num_threads(before_core)
        torch.set_num_threads(before_torch)


def test_layer_norm_double_backward_still_builds_a_graph(torch):
    x, g = _data((3, 6), "float64", seed=3)
    results = []
    for lib in (core, torch):
        xt = lib.tensor(x, requires_grad=True)
        w = lib.tensor(np.linspace(0.5, 1.5, 6), requires_grad=True)
        y = lib.nn.functional.layer_norm(xt, (6,), w, None)
        (gx,) = lib.autograd.grad((y * lib.tensor(g)).sum(), xt, create_graph=True)
        assert gx.grad_fn is not None
        (gx * gx).sum().backward()
        results.append((gx.detach().numpy(), xt.grad.numpy(), w.grad.numpy()))
    for a, b in zip(*results):
        np.testing.assert_allclose(a, b, rtol=1e-10, atol=1e-12)


def test_layer_norm_keeps_its_node_name():
    y = core.nn.functional.layer_norm(core.ones(2, 3, requires_grad=True), (3,))
    assert type(y.grad_fn).__name__ == "NativeLayerNormBackward0"


def test_float64_layer_norm_stays_within_rounding_of_torch_by_default(torch):
    x, g = _data((4, 203), "float64", seed=5)
    for a, b in zip(_run(core, x, g, (203,), "float64"), _run(torch, x, g, (203,), "float64")):
        np.testing.assert_allclose(a, b, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_native_layer_norm_mean_and_rstd_equal_torch_bit_for_bit(same_threads, dtype):
    torch = same_threads
    x, _ = _data((4, 5, 203), dtype, seed=4)
    ours = core.native_layer_norm(core.tensor(x), [5, 203], None, None, 1e-5)
    theirs = torch.native_layer_norm(torch.tensor(x), [5, 203], None, None, 1e-5)
    for a, b in zip(ours, theirs):
        assert tuple(a.shape) == tuple(b.shape)
        np.testing.assert_array_equal(a.numpy(), b.numpy())
