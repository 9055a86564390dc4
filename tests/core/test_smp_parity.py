"""Oracle tests for what segmentation_models.pytorch (tests/external/recipes_smp.py) found different in core."""

from __future__ import annotations

import numpy as np
import pytest
import torch

import core


def _both(fn):
    """``fn(lib)`` for core and torch: their results, each as (strides, values)."""
    out = {}
    for lib in (core, torch):
        lib.manual_seed(0)
        y = fn(lib)
        out[lib.__name__] = (y.stride(), y.detach().numpy().copy())
    return out["core"], out["torch"]


@pytest.mark.parametrize("kwargs", [dict(stride=4, kernel=4, bias=True), dict(stride=1, kernel=3, bias=False),
                                    dict(stride=2, kernel=3, bias=True, output_padding=1)])
@pytest.mark.parametrize("layout", ["input", "weight", "neither"])
def test_conv_transpose2d_keeps_channels_last_as_a_convolution_does(kwargs, layout):
    """DPT's reassemble blocks upsample a channels-last feature map with ConvTranspose2d: torch's output is
    channels-last too, and a Dropout after it draws its mask in that memory order."""
    def run(lib):
        x = lib.randn(2, 8, 4, 4)
        w = lib.randn(8, 6, kwargs["kernel"], kwargs["kernel"])
        b = lib.randn(6) if kwargs["bias"] else None
        if layout == "input":
            x = x.to(memory_format=lib.channels_last)
        if layout == "weight":
            w = w.contiguous(memory_format=lib.channels_last)
        return lib.nn.functional.conv_transpose2d(x, w, b, stride=kwargs["stride"], padding=1,
                                                  output_padding=kwargs.get("output_padding", 0))
    (cs, cv), (ts, tv) = _both(run)
    assert cs == ts
    np.testing.assert_allclose(cv, tv, rtol=1e-5, atol=1e-5)


def test_dropout_after_channels_last_conv_transpose_draws_torchs_mask():
    def run(lib):
        m = lib.nn.ConvTranspose2d(8, 4, 2, stride=2)
        x = lib.randn(2, 8, 3, 3).to(memory_format=lib.channels_last).requires_grad_(True)
        y = lib.nn.functional.dropout(m(x), 0.5, True)
        y.sum().backward()
        return y + 0 * x.grad.sum()
    (cs, cv), (ts, tv) = _both(run)
    assert cs == ts
    np.testing.assert_allclose(cv, tv, rtol=1e-5, atol=1e-6)
    np.testing.assert_array_equal(cv == 0, tv == 0)


def test_conv_transpose2d_gradients_keep_their_layouts():
    def grads(lib):
        lib.manual_seed(0)
        m = lib.nn.ConvTranspose2d(8, 6, 3, padding=1)
        x = lib.randn(2, 8, 4, 4).to(memory_format=lib.channels_last).requires_grad_(True)
        y = m(x)
        y.backward(lib.randn(y.shape))
        return x.grad.stride(), m.weight.grad.stride(), x.grad.numpy().copy()
    c, t = grads(core), grads(torch)
    assert c[:2] == t[:2]
    np.testing.assert_allclose(c[2], t[2], rtol=1e-5, atol=1e-5)


def test_rrelu_training_output_is_contiguous_for_a_channels_last_input():
    (cs, cv), (ts, tv) = _both(lambda lib: lib.nn.functional.rrelu(
        lib.randn(2, 6, 4, 4).to(memory_format=lib.channels_last), training=True))
    assert cs == ts
    np.testing.assert_array_equal(cv, tv)
