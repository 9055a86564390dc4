"""Samplers that PyTorch has as native kernels: standard gamma and Dirichlet (reparameterised), and Poisson.

The draws are PyTorch's: ``core._rejection_kernels`` runs ATen's CPU kernels on core's generator, so
after the same ``manual_seed`` they equal torch's element for element and leave the generator where
torch leaves it. The gradients are implicit reparameterisations, with PyTorch's approximations of them
(``_reparam_grads``: its numbers, not the exact derivative's):

- ``standard_gamma``: ``dx/da = -dP(a, x)/da / p(x; a)``, with ``P`` the regularised lower incomplete
  gamma function (``torch._standard_gamma_grad``).
- ``dirichlet``: each component as a Beta draw (``torch._dirichlet_grad``), in PyTorch's form
  ``D * (grad - sum(x * grad))``.
- ``gammainc``: ``P(a, x)`` by its power series below ``x = a + 1`` and by Lentz's continued
  fraction above (as in Numerical Recipes); ``Gamma.cdf`` is built on it.
"""

from __future__ import annotations

import numpy as np

import core
from core import _random
from core import _rejection_kernels as kernels
from core._backend import to_numpy_array
from core.autograd.function import Function, once_differentiable
from core.distributions import _reparam_grads
from core.ops import _special

__all__ = ["standard_gamma", "dirichlet", "gammainc", "standard_gamma_grad", "dirichlet_grad", "poisson"]

_MAX_ITER = 20000


def _host(t) -> np.ndarray:
    return to_numpy_array(t.detach()._data).astype(np.float64)  # (bfloat16 too, which Tensor.numpy() refuses)


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


def standard_gamma_grad(concentration, x):
    """``torch._standard_gamma_grad``: ``dx/dconcentration`` of standard gamma draws ``x`` (PyTorch's
    approximation), broadcast, a tensor of their dtype."""
    concentration, x = _same_float(("_standard_gamma_grad_cpu", concentration, x))
    dx = _reparam_grads.standard_gamma_grad(_native(concentration), _native(x))
    return core.tensor(dx, dtype=x.dtype, device=x.device)


def dirichlet_grad(x, alpha, total):
    """``torch._dirichlet_grad``: each component ``x`` of a Dirichlet draw's derivative as a ``Beta(alpha, total -
    alpha)`` draw's, scaled by ``1 / (1 - x)`` (PyTorch's approximation), broadcast."""
    x, alpha, total = _same_float(("_dirichlet_grad_cpu", x, alpha, total))
    grad = _reparam_grads.dirichlet_grad(_native(x), _native(alpha), _native(total))
    return core.tensor(grad, dtype=x.dtype, device=x.device)


def _same_float(call):
    """The tensors of ``(kernel, *tensors)`` broadcast, after torch's checks: float32 or float64 (the kernel's
    NotImplementedError), all of the first one's dtype."""
    kernel, first, *rest = call
    _require_single_or_double(first, kernel)
    for t in rest:
        if t.dtype != first.dtype:
            name = {"float64": "Double", "float32": "Float"}.get(str(t.dtype).split(".")[-1], str(t.dtype))
            raise RuntimeError(f"Found dtype {name} but expected {_NAMES[first.dtype]}")
    return core.broadcast_tensors(first, *rest)


_NAMES = {core.float32: "Float", core.float64: "Double"}


def _native(t) -> np.ndarray:
    return np.asarray(to_numpy_array(t.detach()._data))


def _require_single_or_double(t, kernel: str) -> None:
    if t.dtype not in (core.float32, core.float64):
        name = {"float16": "Half", "bfloat16": "BFloat16"}.get(str(t.dtype).replace("torch.", ""), str(t.dtype))
        raise NotImplementedError(f'"{kernel}" not implemented for \'{name}\'')


class _StandardGamma(Function):
    """Standard gamma draws of shape ``concentration.shape``; backward by implicit reparameterisation."""

    @staticmethod
    def forward(ctx, concentration, generator=None):
        _require_single_or_double(concentration, "gamma_cpu")
        alpha = concentration.detach().cpu().numpy()
        draws = kernels.standard_gamma(_random.generator_for(generator), alpha.reshape(-1))
        out = core.tensor(draws.reshape(alpha.shape), dtype=concentration.dtype, device=concentration.device)
        ctx.save_for_backward(concentration, out)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        concentration, x = ctx._unpacked
        return grad * standard_gamma_grad(concentration, x), None


def standard_gamma(concentration, generator=None):
    """``Gamma(concentration, 1)`` draws of the same shape, differentiable with respect to concentration."""
    return _StandardGamma.apply(concentration, generator)


class _Dirichlet(Function):
    """Dirichlet draws along the last dim; backward through the gamma draws they normalise."""

    @staticmethod
    def forward(ctx, concentration, generator=None):
        _require_single_or_double(concentration, "dirichlet")
        x, _ = kernels.dirichlet(_random.generator_for(generator), concentration.detach().cpu().numpy())
        out = core.tensor(x, dtype=concentration.dtype, device=concentration.device)
        ctx.save_for_backward(concentration, out)
        return out

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        concentration, x = ctx._unpacked
        total = concentration.sum(-1, True).expand_as(concentration)
        marginal = dirichlet_grad(x, concentration, total)
        return marginal * (grad - (x * grad).sum(-1, True)), None


def dirichlet(concentration, generator=None):
    """Dirichlet draws with the categories along the last dim, differentiable with respect to concentration."""
    return _Dirichlet.apply(concentration, generator)


class _GammaCdf(Function):
    """``P(a, x)`` on tensors; d/dx is the gamma density, d/da the finite difference of ``P``."""

    @staticmethod
    def forward(ctx, a, x):
        ctx.save_for_backward(a, x)
        return core.tensor(gammainc(_host(a), _host(x)), dtype=x.dtype, device=x.device)

    @staticmethod
    @once_differentiable
    def backward(ctx, grad):
        a, x = ctx._unpacked
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


def poisson(rate, generator=None):
    """Poisson counts of ``rate``'s shape and dtype (``torch.poisson``), outside the autograd graph."""
    lam = rate.detach().cpu().numpy()
    out = kernels.poisson(_random.generator_for(generator), lam.reshape(-1))
    return core.tensor(out.reshape(lam.shape), dtype=rate.dtype, device=rate.device)
