"""``torch.poisson``, ``torch.binomial`` and ``torch._standard_gamma``: samplers PyTorch has as native kernels.

The random numbers come from core's default generator (``core.rand``/``core.randn``), so ``manual_seed``
makes the draws reproducible; the transforms differ from PyTorch's kernels, so the values differ from
torch's for one seed while the distributions agree. ``binomial`` follows the published algorithms PyTorch
uses too: inversion by geometric waiting times when ``count * min(p, 1 - p) < 10`` and Hoermann's BTRS
transformed rejection above. Poisson counts have a zero gradient (as torch's); ``_standard_gamma`` is
reparameterised.
"""

from __future__ import annotations

import math

import numpy as np

import core
from core.autograd.function import Function

__all__ = ["poisson", "binomial"]

_TYPE_NAMES = {"int64": "Long", "int32": "Int", "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _require_float(t, kernel):
    if not t.is_floating_point():
        name = _TYPE_NAMES.get(str(t.dtype).replace("torch.", ""), str(t.dtype))
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


class Poisson(Function):
    """Poisson counts of ``rate``; the gradient with respect to the rate is zero, as in PyTorch."""

    node_name = "PoissonBackward0"

    @staticmethod
    def forward(ctx, rate):
        from core.distributions import _samplers  # core.distributions imports core

        return _samplers.poisson(rate)._data

    @staticmethod
    def backward(ctx, grad):
        return core.zeros_like(grad)


def poisson(input, generator=None):
    """Counts drawn from ``Poisson(input)`` elementwise (same shape and dtype)."""
    _require_float(input, "poisson_cpu")
    host = input.detach().cpu().numpy()
    if bool(np.any(host < 0)) or bool(np.any(np.isnan(host))):
        raise RuntimeError("invalid Poisson rate, expected rate to be non-negative")
    return Poisson.apply(input)


_GAMMA = []


def _standard_gamma_function():
    """The distributions' reparameterised gamma sampler under PyTorch's node name (made on first use)."""
    if not _GAMMA:
        from core.distributions import _samplers  # core.distributions imports core

        _GAMMA.append(type("StandardGamma", (_samplers._StandardGamma,), {"node_name": "StandardGammaBackward0"}))
    return _GAMMA[0]


def _standard_gamma(input, generator=None):
    """``Gamma(input, 1)`` draws, differentiable with respect to ``input`` (implicit reparameterisation)."""
    _require_float(input, "gamma_cpu")
    return _standard_gamma_function().apply(input)


def _uniform(n):
    return core.rand(n, dtype=core.float64).numpy()


def _inversion(count, prob):
    """Count the geometric waiting times that fit into ``count`` trials (for small count * prob)."""
    out = np.zeros_like(count)
    total = np.zeros_like(count)
    pending = np.flatnonzero(prob > 0)
    log_q = np.log1p(-prob)
    while pending.size:
        with np.errstate(divide="ignore"):
            total[pending] += np.ceil(np.log(_uniform(pending.size)) / log_q[pending])
        going = total[pending] <= count[pending]
        out[pending[going]] += 1
        pending = pending[going]
    return out


def _stirling_tail(k):
    """log(k!) minus its Stirling approximation."""
    return np.vectorize(math.lgamma)(k + 1) - ((k + 0.5) * np.log(k + 1) - (k + 1) + 0.5 * math.log(2 * math.pi))


def _btrs(n, p):
    """Hoermann's BTRS rejection sampler for count * prob >= 10 (prob <= 1/2)."""
    spread = np.sqrt(n * p * (1 - p))
    b = 1.15 + 2.53 * spread
    a = -0.0873 + 0.0248 * b + 0.01 * p
    c = n * p + 0.5
    v_r = 0.92 - 4.2 / b
    r = p / (1 - p)
    alpha = (2.83 + 5.1 / b) * spread
    m = np.floor((n + 1) * p)
    out = np.empty_like(n)
    pending = np.arange(n.size)
    while pending.size:
        i = pending
        u, v = _uniform(i.size) - 0.5, _uniform(i.size)
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[i] / us + b[i]) * u + c[i])
        inside = (k >= 0) & (k <= n[i])
        quick = inside & (us >= 0.07) & (v <= v_r[i])
        kk = np.clip(k, 0, n[i])
        with np.errstate(divide="ignore", invalid="ignore"):
            lhs = np.log(v * alpha[i] / (a[i] / (us * us) + b[i]))
            bound = ((m[i] + 0.5) * np.log((m[i] + 1) / (r[i] * (n[i] - m[i] + 1)))
                     + (n[i] + 1) * np.log((n[i] - m[i] + 1) / (n[i] - kk + 1))
                     + (kk + 0.5) * np.log(r[i] * (n[i] - kk + 1) / (kk + 1))
                     + _stirling_tail(m[i]) + _stirling_tail(n[i] - m[i]) - _stirling_tail(kk)
                     - _stirling_tail(n[i] - kk))
        ok = quick | (inside & (lhs <= bound))
        out[i[ok]] = k[ok]
        pending = i[~ok]
    return out


def _binomial_host(count, prob):
    count, prob = np.broadcast_arrays(count, prob)
    n, p = count.ravel().astype(np.float64), prob.ravel().astype(np.float64)
    flip = p > 0.5
    q = np.where(flip, 1 - p, p)
    out = np.zeros_like(n)
    live = (n > 0) & (q > 0)
    big = live & (n * q >= 10)
    small = live & ~big
    if small.any():
        out[small] = _inversion(n[small], q[small])
    if big.any():
        out[big] = _btrs(n[big], q[big])
    out = np.where(flip, n - out, out)
    return np.where(p >= 1, n, out).reshape(count.shape)


class Binomial(Function):
    """Binomial counts; PyTorch defines no derivative for them."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, count, prob):
        draws = _binomial_host(count.detach().cpu().numpy(), prob.detach().cpu().numpy())
        return core.tensor(draws, dtype=count.dtype, device=count.device)._data

    @staticmethod
    def backward(ctx, grad):
        raise RuntimeError("the derivative for 'binomial' is not implemented.")


def binomial(count, prob, generator=None):
    """Successes out of ``count`` trials of probability ``prob`` (broadcast), as ``torch.binomial``."""
    if not count.is_floating_point():
        name = _TYPE_NAMES.get(str(count.dtype).replace("torch.", ""), str(count.dtype))
        raise ValueError(f"binomial only supports floating-point dtypes for count, got: {name}")
    if count.dtype != prob.dtype:
        raise RuntimeError(f"Found dtype {_dtype_word(prob)} but expected {_dtype_word(count)}")
    return Binomial.apply(count, prob)


def _dtype_word(t):
    return {"float32": "Float", "float64": "Double", "float16": "Half"}.get(str(t.dtype).replace("torch.", ""), "")
