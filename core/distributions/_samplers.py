"""Samplers that PyTorch has as native kernels: standard gamma (reparameterised) and Poisson.

Every random number comes from ``core.rand``/``core.randn`` (so ``core.manual_seed`` makes the
draws reproducible), transformed on the host in float64:

- ``standard_gamma``: Marsaglia and Tsang's squeeze-and-reject method, boosted for shapes below
  one. Its gradient is the implicit reparameterisation ``dx/da = -dP(a, x)/da / p(x; a)``, with
  ``P`` the regularised lower incomplete gamma function, so it is exact for any sampler.
- ``gammainc``: ``P(a, x)`` by its power series below ``x = a + 1`` and by Lentz's continued
  fraction above (as in Numerical Recipes); ``Gamma.cdf`` is built on it.
- ``poisson``: multiplying uniforms below rate 10, Hoermann's PTRS rejection above.

The algorithms differ from PyTorch's kernels, so the draws differ from torch's for one seed;
their distributions agree (the tests check moments with fixed seeds).
"""

from __future__ import annotations

import numpy as np

import core
from core.autograd import Function, once_differentiable
from core.ops import _special

__all__ = ["standard_gamma", "gammainc", "standard_gamma_grad", "poisson"]

_MAX_ITER = 20000


def _uniform(n: int) -> np.ndarray:
    return core.rand(n, dtype=core.float64).numpy()


def _normal(n: int) -> np.ndarray:
    return core.randn(n, dtype=core.float64).numpy()


def _host(t) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float64)


def _marsaglia_tsang(alpha: np.ndarray) -> np.ndarray:
    """Standard gamma draws for a flat float64 array of shapes (> 0)."""
    shape = np.where(alpha < 1, alpha + 1, alpha)
    d = shape - 1.0 / 3.0
    c = 1.0 / np.sqrt(9.0 * d)
    out = np.empty_like(alpha)
    pending = np.arange(alpha.size)
    while pending.size:
        z, u = _normal(pending.size), _uniform(pending.size)
        v = (1 + c[pending] * z) ** 3
        dp = d[pending]
        with np.errstate(invalid="ignore", divide="ignore"):
            ok = (v > 0) & (np.log(u) < 0.5 * z * z + dp - dp * v + dp * np.log(v))
        out[pending[ok]] = dp[ok] * v[ok]
        pending = pending[~ok]
    small = np.flatnonzero(alpha < 1)
    if small.size:  # boost: Gamma(a) = Gamma(a + 1) * U ** (1 / a)
        out[small] *= _uniform(small.size) ** (1.0 / alpha[small])
    return out


def _lgamma(a: np.ndarray) -> np.ndarray:
    """``lgamma`` of each distinct value once: draws share their distribution's few parameters."""
    values, where = np.unique(a, return_inverse=True)
    return np.asarray(_special.lgamma(values), dtype=np.float64)[where].reshape(np.shape(a))


def _log_gamma_pdf(a, x):
    with np.errstate(divide="ignore", invalid="ignore"):
        return (a - 1) * np.log(x) - x - _lgamma(a)


def _series(a, x):
    """``P(a, x)`` by its power series (converges fast for x < a + 1)."""
    term = 1.0 / a
    total = term.copy()
    ap = a.copy()
    live = np.arange(a.size)  # the elements still converging: each stops on its own
    for _ in range(_MAX_ITER):
        ap[live] += 1
        term[live] *= x[live] / ap[live]
        total[live] += term[live]
        live = live[np.abs(term[live]) > np.abs(total[live]) * 1e-16]
        if not live.size:
            break
    with np.errstate(divide="ignore"):
        return total * np.exp(a * np.log(x) - x - _lgamma(a))


def _continued_fraction(a, x):
    """``P(a, x) = 1 - Q(a, x)``, Q by Lentz's continued fraction (converges fast for x > a + 1)."""
    tiny = 1e-300
    b = x + 1 - a
    c = np.full_like(x, 1 / tiny)
    d = 1 / b
    h = d.copy()
    live = np.arange(a.size)
    for i in range(1, _MAX_ITER):
        an = -i * (i - a[live])
        b[live] += 2
        dl = an * d[live] + b[live]
        dl = 1 / np.where(np.abs(dl) < tiny, tiny, dl)
        cl = b[live] + an / c[live]
        cl = np.where(np.abs(cl) < tiny, tiny, cl)
        delta = dl * cl
        d[live], c[live] = dl, cl
        h[live] *= delta
        live = live[np.abs(delta - 1) > 2e-16]
        if not live.size:
            break
    return 1 - np.exp(a * np.log(x) - x - _lgamma(a)) * h


def gammainc(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """The regularised lower incomplete gamma function ``P(a, x)`` of broadcast float64 arrays."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.where(x > 0, np.nan, 0.0)
    out[np.isinf(x) & (x > 0)] = 1.0
    out[np.isnan(a) | np.isnan(x) | (a <= 0)] = np.nan
    live = np.isfinite(x) & (x > 0) & (a > 0)
    low = live & (x < a + 1)
    high = live & ~low
    if low.any():
        out[low] = _series(a[low], x[low])
    if high.any():
        out[high] = _continued_fraction(a[high], x[high])
    return out


def standard_gamma_grad(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """``dx/da`` of a standard gamma draw ``x`` held at its quantile (implicit reparameterisation)."""
    # NOTE: dP/da by a central difference with a step relative to a: P is smooth in a, and in float64
    # the truncation (~1e-10) and rounding (~1e-11) errors stay far below float32's resolution.
    h = 1e-5 * a
    dp_da = (gammainc(a + h, x) - gammainc(a - h, x)) / (2 * h)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        return -dp_da / np.exp(_log_gamma_pdf(a, x))


class _StandardGamma(Function):
    """Standard gamma draws of shape ``concentration.shape``; backward by implicit reparameterisation."""

    @staticmethod
    def forward(ctx, concentration):
        alpha = _host(concentration)
        draws = _marsaglia_tsang(alpha.ravel()).reshape(alpha.shape)
        tiny = core.finfo(concentration.dtype).tiny
        out = core.tensor(np.maximum(draws, tiny), dtype=concentration.dtype, device=concentration.device)
        ctx.save_for_backward(concentration, out)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        concentration, x = ctx.saved_tensors
        dx = standard_gamma_grad(_host(concentration), _host(x))
        return grad * core.tensor(dx, dtype=grad.dtype, device=grad.device)


def standard_gamma(concentration):
    """``Gamma(concentration, 1)`` draws of the same shape, differentiable with respect to concentration."""
    return _StandardGamma.apply(concentration)


class _GammaCdf(Function):
    """``P(a, x)`` on tensors; d/dx is the gamma density, d/da the finite difference of ``P``."""

    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a, x)
        return core.tensor(gammainc(_host(a), _host(x)), dtype=x.dtype, device=x.device)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        a, x = ctx.saved_tensors
        an, xn = np.broadcast_arrays(_host(a), _host(x))
        h = 1e-5 * an
        da = (gammainc(an + h, xn) - gammainc(an - h, xn)) / (2 * h)
        with np.errstate(over="ignore"):
            dx = np.where(xn > 0, np.exp(_log_gamma_pdf(an, xn)), 0.0)
        as_tensor = lambda arr: core.tensor(arr, dtype=grad.dtype, device=grad.device)  # noqa: E731
        return grad * as_tensor(da), grad * as_tensor(dx)


def gamma_cdf(a, x):
    """The regularised lower incomplete gamma function of two broadcast tensors (``special.gammainc``)."""
    a, x = core.broadcast_tensors(a, x)
    return _GammaCdf.apply(a, x)


def _knuth_poisson(rate: np.ndarray) -> np.ndarray:
    """Poisson draws for small rates: count uniforms until their product falls below exp(-rate)."""
    limit = np.exp(-rate)
    count = np.zeros_like(rate)
    prod = np.ones_like(rate)
    pending = np.arange(rate.size)
    while pending.size:
        prod[pending] *= _uniform(pending.size)
        going = prod[pending] > limit[pending]
        count[pending[going]] += 1
        pending = pending[going]
    return count


def _ptrs_poisson(lam: np.ndarray) -> np.ndarray:
    """Poisson draws for rates >= 10: Hoermann's transformed rejection with squeeze (PTRS)."""
    slam, loglam = np.sqrt(lam), np.log(lam)
    b = 0.931 + 2.53 * slam
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    vr = 0.9277 - 3.6224 / (b - 2)
    out = np.empty_like(lam)
    pending = np.arange(lam.size)
    while pending.size:
        p = pending
        u, v = _uniform(p.size) - 0.5, _uniform(p.size)
        us = 0.5 - np.abs(u)
        k = np.floor((2 * a[p] / us + b[p]) * u + lam[p] + 0.43)
        quick = (us >= 0.07) & (v <= vr[p])
        with np.errstate(divide="ignore", invalid="ignore"):
            lhs = np.log(v) + np.log(inv_alpha[p]) - np.log(a[p] / (us * us) + b[p])
            rhs = -lam[p] + k * loglam[p] - _lgamma(np.maximum(k, 0) + 1)
        ok = quick | ((k >= 0) & ~((us < 0.013) & (v > us)) & (lhs <= rhs))
        out[p[ok]] = k[ok]
        pending = p[~ok]
    return out


def poisson(rate):
    """Poisson counts of ``rate``'s shape and dtype (``torch.poisson``), outside the autograd graph."""
    lam = _host(rate).ravel()
    out = np.zeros_like(lam)
    small = np.flatnonzero((lam > 0) & (lam < 10))
    large = np.flatnonzero(lam >= 10)
    if small.size:
        out[small] = _knuth_poisson(lam[small])
    if large.size:
        out[large] = _ptrs_poisson(lam[large])
    return core.tensor(out.reshape(tuple(rate.shape)), dtype=rate.dtype, device=rate.device)
