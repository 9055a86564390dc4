"""Signal windows as PyTorch builds them: ``hann_window``, ``hamming_window``, ``blackman_window``,
``bartlett_window`` and ``kaiser_window`` (periodic by default), computed in the requested dtype with
PyTorch's operation order so float32 windows agree with torch's to the last bits or nearly.
"""

from __future__ import annotations

import math

import numpy as np

import core

__all__ = ["hann_window", "hamming_window", "blackman_window", "bartlett_window", "kaiser_window"]


def _start(name, window_length, periodic, dtype):
    """The working length and dtype after PyTorch's checks; None when the result is trivial."""
    dtype = dtype or core.get_default_dtype()
    if window_length < 0:
        raise RuntimeError(f"{name} requires non-negative window_length, got window_length={window_length}")
    if not dtype.is_floating_point:
        raise RuntimeError(f"{name} expects floating point dtypes, got: {dtype}")
    return window_length + (1 if periodic else 0), np.dtype(str(dtype).replace("torch.", ""))


def _finish(values, window_length, periodic, dtype, device, requires_grad):
    if window_length == 0:
        values = np.zeros(0)
    elif window_length == 1:
        values = np.ones(1)
    elif periodic:
        values = values[:-1]
    out = core.tensor(values, dtype=dtype or core.get_default_dtype(), device=device)
    return out._set_requires_grad(requires_grad)


def _positions(n, scale, dt):
    return np.arange(n, dtype=dt) * dt.type(scale)


def hamming_window(window_length, periodic=True, alpha=0.54, beta=0.46, *, dtype=None, layout=None, device=None,
                   requires_grad=False):
    """``alpha - beta * cos(2 pi n / (N - 1))`` over N points (N + 1 and the last dropped when periodic)."""
    n, dt = _start("hamming_window", window_length, periodic, dtype)
    values = None
    if window_length > 1:
        values = dt.type(alpha) - dt.type(beta) * np.cos(_positions(n, 2 * math.pi / (n - 1), dt))
    return _finish(values, window_length, periodic, dtype, device, requires_grad)


def hann_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """``0.5 - 0.5 * cos(2 pi n / (N - 1))``: the Hamming window with alpha = beta = 0.5."""
    _start("hann_window", window_length, periodic, dtype)
    return hamming_window(window_length, periodic, 0.5, 0.5, dtype=dtype, device=device, requires_grad=requires_grad)


def blackman_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """``0.42 - 0.5 cos(2 pi n / (N - 1)) + 0.08 cos(4 pi n / (N - 1))``."""
    n, dt = _start("blackman_window", window_length, periodic, dtype)
    values = None
    if window_length > 1:
        x = _positions(n, math.pi / (n - 1), dt)
        values = np.cos(x * dt.type(4)) * dt.type(0.08) - np.cos(x * dt.type(2)) * dt.type(0.5) + dt.type(0.42)
    return _finish(values, window_length, periodic, dtype, device, requires_grad)


def bartlett_window(window_length, periodic=True, *, dtype=None, layout=None, device=None, requires_grad=False):
    """The triangular window ``1 - |2n / (N - 1) - 1|``."""
    n, dt = _start("bartlett_window", window_length, periodic, dtype)
    values = None
    if window_length > 1:
        values = _positions(n, 2.0 / (n - 1), dt)
        half = ((n - 1) >> 1) + 1
        values[half:] = dt.type(2) - values[half:]
    return _finish(values, window_length, periodic, dtype, device, requires_grad)


def kaiser_window(window_length, periodic=True, beta=12.0, *, dtype=None, layout=None, device=None,
                  requires_grad=False):
    """``I0(beta * sqrt(1 - ((n - a) / a) ** 2)) / I0(beta)`` with ``a = (N - 1) / 2``."""
    n, dt = _start("kaiser_window", window_length, periodic, dtype)
    values = None
    if window_length > 1:
        alpha = (n - 1) / 2.0
        ratio = (np.arange(n, dtype=np.float64) - alpha) / alpha
        values = (np.i0(beta * np.sqrt(np.maximum(1 - ratio * ratio, 0))) / np.i0(beta)).astype(dt)
    return _finish(values, window_length, periodic, dtype, device, requires_grad)
