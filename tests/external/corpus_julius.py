"""Drivers for julius' scripts (``recipes_julius.py``): each transform on seeded signals, its output and the
gradient of a weighted sum printed with every digit."""

from __future__ import annotations

import math

import torch


def _show(name, t):
    print(name, tuple(t.shape), [float(v) for v in t.detach().reshape(-1)[:10].tolist()],
          float(t.detach().double().abs().sum()))


def _signal(dtype, shape=(2, 3, 300)):
    torch.manual_seed(0)
    time = torch.arange(shape[-1], dtype=dtype) / 100
    return (torch.cos(2 * math.pi * 7 * time) + 0.5 * torch.randn(*shape, dtype=dtype)).requires_grad_()


def _both(name, fn, x):
    y = fn(x)
    w = torch.randn(y.shape, dtype=y.dtype)
    (g,) = torch.autograd.grad((y * w).sum(), x)
    _show(name, y)
    _show("  grad", g)


def resample(julius, dtype):
    """resample_frac up and down (rolloff, zeros, an output length, full), ResampleFrac as a module."""
    x = _signal(dtype)
    for old, new, kw in ((4, 5, {}), (5, 4, {}), (3, 2, {"zeros": 8}), (2, 3, {"rolloff": 0.8}),
                         (7, 3, {"output_length": 120}), (1, 2, {"full": True})):
        _both(f"resample {old}->{new} {kw}", lambda t, o=old, n=new, k=kw: julius.resample_frac(t, o, n, **k), x)
    module = julius.ResampleFrac(6, 5)
    print(repr(module))
    _both("ResampleFrac", module, x)


def filters(julius, dtype):
    """lowpass/highpass/bandpass filters, direct and FFT, strided, several cutoffs at once."""
    x = _signal(dtype)
    for fft in (False, True):
        _both(f"lowpass fft={fft}", lambda t, f=fft: julius.lowpass_filter(t, 0.1, fft=f), x)
        _both(f"highpass fft={fft}", lambda t, f=fft: julius.highpass_filter(t, 0.05, fft=f), x)
        _both(f"bandpass fft={fft}", lambda t, f=fft: julius.bandpass_filter(t, 0.02, 0.2, fft=f), x)
        _both(f"lowpass_filters fft={fft}", lambda t, f=fft: julius.lowpass_filters(t, [0.05, 0.1, 0.3], fft=f), x)
    _both("lowpass stride 3 zeros 4", julius.LowPassFilter(0.2, stride=3, zeros=4), x)
    _both("highpass_filters pad=False", julius.HighPassFilters([0.1, 0.2], pad=False), x)
    print(repr(julius.LowPassFilters([0.1, 0.25])), repr(julius.BandPassFilter(0.1, 0.3)))


def fftconv(julius, dtype):
    """fft_conv1d against conv1d's shapes: strides, padding, bias, block ratios; FFTConv1d as a module."""
    torch.manual_seed(1)
    x = torch.randn(2, 3, 257, dtype=dtype, requires_grad=True)
    weight = torch.randn(4, 3, 33, dtype=dtype)
    bias = torch.randn(4, dtype=dtype)
    for kw in ({}, {"stride": 2}, {"padding": 7}, {"bias": bias}, {"block_ratio": 3}, {"stride": 3, "padding": 5}):
        _both(f"fft_conv1d {sorted(kw)}", lambda t, k=kw: julius.fft_conv1d(t, weight, **k), x)
    torch.manual_seed(2)
    module = julius.FFTConv1d(3, 2, 17, stride=2).to(dtype)
    print(repr(module))
    _both("FFTConv1d", module, x)


def bands(julius):
    """split_bands into fixed and mel-spaced bands, and summed back."""
    x = _signal(torch.float32, (2, 1, 400))
    _both("split_bands 16k 4", lambda t: julius.split_bands(t, 16000, n_bands=4), x)
    _both("split_bands cutoffs", lambda t: julius.split_bands(t, 16000, cutoffs=[500, 2000, 4000], fft=True), x)
    module = julius.SplitBands(8000, n_bands=3, zeros=4)
    print(repr(module))
    out = module(x)
    _show("SplitBands", out)
    _show("  sum back minus x", out.sum(0) - x)
