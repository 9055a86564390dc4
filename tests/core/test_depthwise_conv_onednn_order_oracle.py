"""A float32 depthwise convolution (``groups == in_channels == out_channels``) gives PyTorch's bits: its CPU
convolution runs oneDNN's depthwise kernel, whose accumulator starts from the bias and takes each kernel tap's
product with a fused multiply-add in the kernel's row-major order; core summed NumPy's GEMM then added the bias, and
about one output in ten differed in the last bit (xLSTM's causal conv1d, found by corpus helper s28 SEQ)."""

import numpy as np
import pytest

import core

SHAPES = [  # (input shape, kernel, conv keywords)
    ((2, 6, 5), (3,), dict(padding=2)),  # xLSTM's CausalConv1d: padded by kernel - 1
    ((3, 64, 12), (4,), dict(padding=3)),
    ((2, 16, 9), (4,), {}),
    ((2, 6, 5, 7), (3, 3), dict(padding=1)),
    ((2, 4, 9, 9), (5, 5), dict(padding=2, stride=2)),
    ((1, 8, 10, 10), (3, 3), dict(padding=2, dilation=2)),
    ((2, 12, 7, 7), (7, 7), dict(padding=3)),  # ConvNeXt's block
    ((1, 32, 8, 8), (3, 3), dict(padding=1, stride=(2, 1))),
]


def _conv(lib, x, w, b, kw):
    f = lib.nn.functional.conv1d if x.ndim == 3 else lib.nn.functional.conv2d
    return f(x, w, b, groups=x.shape[1], **kw)


@pytest.mark.parametrize("bias", [True, False])
@pytest.mark.parametrize("shape, kernel, kw", SHAPES)
def test_float32_depthwise_convolution_matches_torch_bit_for_bit(torch, shape, kernel, kw, bias):
    rng = np.random.default_rng(len(shape) * 100 + shape[1])
    x = rng.standard_normal(shape).astype(np.float32)
    w = rng.standard_normal((shape[1], 1, *kernel)).astype(np.float32)
    b = rng.standard_normal(shape[1]).astype(np.float32) if bias else None
    ours, theirs = (_conv(lib, lib.tensor(x), lib.tensor(w), None if b is None else lib.tensor(b), kw).numpy()
                    for lib in (core, torch))
    assert ours.shape == theirs.shape
    assert np.array_equal(ours.view(np.int32), theirs.view(np.int32))


def test_a_depthwise_conv1d_layer_trains_as_torch_does(torch):
    """A Conv1d(groups=channels) layer's outputs over three SGD steps (its gradients: core's GEMM, within an ulp)."""
    outs = []
    for lib in (core, torch):
        lib.manual_seed(0)
        layer = lib.nn.Conv1d(8, 8, 4, padding=3, groups=8)
        x = lib.tensor(np.random.default_rng(1).standard_normal((2, 8, 10)).astype(np.float32))
        opt = lib.optim.SGD(layer.parameters(), lr=0.1)
        seen = []
        for _ in range(3):
            y = layer(x)
            seen.append(y.detach().numpy().copy())
            opt.zero_grad()
            (y ** 2).mean().backward()
            opt.step()
        outs.append(seen)
    assert np.array_equal(outs[0][0], outs[1][0])  # the first forward: the same bits
    for ours, theirs in zip(*outs):
        np.testing.assert_allclose(ours, theirs, rtol=1e-5, atol=1e-6)


def test_channel_multiplier_and_float64_keep_core_gemm_within_rounding(torch):
    """Depthwise with two outputs per channel, and float64: other kernels in PyTorch, core's GEMM here (close)."""
    rng = np.random.default_rng(3)
    for dtype, out_channels in ((np.float32, 12), (np.float64, 6)):
        x = rng.standard_normal((2, 6, 9, 9)).astype(dtype)
        w = rng.standard_normal((out_channels, 1, 3, 3)).astype(dtype)
        ours, theirs = (lib.nn.functional.conv2d(lib.tensor(x), lib.tensor(w), groups=6).numpy()
                        for lib in (core, torch))
        np.testing.assert_allclose(ours, theirs, rtol=1e-6 if dtype == np.float32 else 1e-13, atol=1e-6)
