"""GELU of a contiguous float32 tensor equals torch's bit for bit: PyTorch sends it to oneDNN, whose kernel (its
minimax polynomials with AVX-512, its Abramowitz and Stegun form with AVX2: core.nn.functional._gelu_onednn) differs
from the correctly rounded value on about a third to a half of the elements. Other layouts and dtypes keep the erf
formula (within rounding of torch's)."""

import numpy as np
import pytest

from tests.core.oracle import check


def _samples(scale):
    rng = np.random.default_rng(7)
    x = (rng.standard_normal(20000) * scale).astype(np.float32)
    x[:7] = [0.0, -0.0, np.inf, -np.inf, np.nan, 1e-40, -5.6]
    return x


@pytest.mark.parametrize("scale", [1e-3, 1.0, 3.0, 12.0])
def test_contiguous_float32_gelu_is_torchs_bit_for_bit(torch, scale):
    check(lambda lib, t: lib.nn.functional.gelu(t), [_samples(scale)], torch, rtol=0, atol=0)
    check(lambda lib, t: lib.nn.GELU()(t.reshape(100, 200)), [_samples(scale)], torch, rtol=0, atol=0)


def test_signs_of_zero_and_tiny_inputs_match(torch):
    check(lambda lib, t: lib.signbit(lib.nn.functional.gelu(t)), [_samples(1e-3)], torch)


def test_other_layouts_and_the_tanh_form_stay_close_to_torch(torch):
    x = _samples(2.0).reshape(200, 100)[:, ::2]
    finite = np.nan_to_num(x, nan=0.0, posinf=0.0, neginf=0.0)
    check(lambda lib, t: lib.nn.functional.gelu(t[:, ::2]), [finite], torch, rtol=1e-5, atol=1e-6)
    check(lambda lib, t: lib.nn.functional.gelu(t, approximate="tanh"), [finite], torch, rtol=1e-5, atol=1e-6)
    check(lambda lib, t: lib.nn.functional.gelu(t.double()), [finite], torch, rtol=1e-12, atol=1e-15)


@pytest.mark.parametrize("scale", [1e-3, 1.0, 3.0, 12.0])
def test_contiguous_float32_gelu_gradient_is_torchs_bit_for_bit(torch, scale):
    x = _samples(scale)
    g = np.random.default_rng(8).standard_normal(x.shape).astype(np.float32)

    def grad(lib, t, w):
        t.requires_grad_(True)
        lib.nn.functional.gelu(t).backward(w)
        return t.grad
    check(grad, [x, g], torch, rtol=0, atol=0)


def test_gelu_double_backward_still_matches_torch(torch):
    x = np.nan_to_num(_samples(2.0), nan=0.0, posinf=0.0, neginf=0.0)

    def second(lib, t):
        t.requires_grad_(True)
        (first,) = lib.autograd.grad(lib.nn.functional.gelu(t).sum(), t, create_graph=True)
        return lib.autograd.grad(first.sum(), t)[0]
    check(second, [x], torch, rtol=1e-5, atol=1e-6)


def test_the_block_size_leaves_every_value_as_it_was(monkeypatch):
    """The kernels run a block of ``_BLOCK`` elements at a time (16384 since the twenty-ninth session, 8192 before):
    every step is elementwise, so the bits do not depend on it, specials and a partial last block included."""
    from core.nn.functional import _gelu_onednn

    rng = np.random.default_rng(29)
    x = (rng.standard_normal(40_000) * 3).astype(np.float32)
    x[[0, 8191, 8192, 16383, 16384, 39_999]] = [np.nan, -np.nan, np.inf, -np.inf, -0.0, 6.0]
    kernels = (_gelu_onednn.gelu_erf_f32, _gelu_onednn.gelu_erf_as_f32, _gelu_onednn.gelu_erf_grad_f32)
    new = [kernel(x) for kernel in kernels]
    monkeypatch.setattr(_gelu_onednn, "_BLOCK", 8192)
    old = [kernel(x) for kernel in kernels]
    for a, b in zip(old, new):
        np.testing.assert_array_equal(a.view(np.uint32), b.view(np.uint32))
