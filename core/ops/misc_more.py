"""Small ``torch.*`` functions that real code calls: ``detach``, ``is_signed``, ``get_device``, ``i0``/``i0_``,
``igamma``/``igammac``, the in-place ``ldexp_``/``gcd_``/``lcm_``, ``histogramdd`` and ``empty_permuted``.

``igamma``/``igammac`` (the regularised incomplete gamma functions) differentiate only in their second
argument, as PyTorch's: a gradient asked of the first raises PyTorch's "not implemented" error in backward.
"""

from __future__ import annotations

import numpy as np

import core
from core._arg_types import require_tensors
from core._backend import to_numpy_array, xp_of
from core._dtype import SCALAR_NAMES
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad
from core.autograd.function import Function
from core.ops.counting import histogram_range
from core.ops.reduction import _return_type

__all__ = ["detach", "is_signed", "get_device", "i0", "i0_", "igamma", "igammac", "ldexp_", "gcd_", "lcm_",
           "histogramdd", "empty_permuted"]


def detach(input):
    return input.detach()


def is_signed(input) -> bool:
    return input.is_signed()


def get_device(input) -> int:
    """-1 for a CPU tensor, else its CUDA device's index."""
    return input.get_device()


def i0(input, *, out=None):
    return core.special.i0(input, out=out)


def i0_(input):
    if not input.is_floating_point() and not input.is_complex():  # (the float result can't be written back)
        raise RuntimeError(f"result type {SCALAR_NAMES[core.get_default_dtype().name]} can't be cast to the desired "
                           f"output type {SCALAR_NAMES[input.dtype.name]}")
    return input.copy_(core.special.i0(input.detach() if not input.requires_grad else input))


class _Igamma(Function):
    """P(a, x) (``upper=False``) or Q(a, x); the gradient in x is ``∓ x^(a-1) e^(-x) / Γ(a)``."""

    @staticmethod
    def forward(ctx, a, x, *, upper):
        from core.distributions._samplers import gamma_cdf  # rare and heavy: loads core.distributions

        ctx.upper = upper
        ctx.save_for_backward(a, x)
        p = _igamma_bounds(a._data, x._data, gamma_cdf(a, x)._data)
        return 1 - p if upper else p

    @staticmethod
    def backward(ctx, grad):
        a, x = ctx._unpacked
        if ctx.needs_input_grad[0]:
            raise RuntimeError(f"the derivative for '{'igammac' if ctx.upper else 'igamma'}: input' is not "
                               "implemented.")
        density = core.exp((a - 1) * core.log(x) - x - core.lgamma(a))
        return None, (-grad if ctx.upper else grad) * density


def _igamma_bounds(a, x, p):
    """P(a, x) at PyTorch's (SciPy's) boundary values: NaN for a negative a or x, or a = 0 with x <= 0, or both
    infinite; 1 for a = 0 < x or an infinite x; 0 for x = 0 < a or an infinite a."""
    xp, dtype = xp_of(p), p.dtype  # (np.where of a bfloat16 array and a Python float gives float64)
    with np.errstate(invalid="ignore"):
        p = xp.where((a == 0) & (x > 0) | xp.isinf(x) & (a > 0), 1.0, p)
        p = xp.where((x == 0) & (a > 0) | xp.isinf(a) & (x > 0), 0.0, p)
        bad = (x < 0) | (a < 0) | (a == 0) & (x <= 0) | xp.isinf(a) & xp.isinf(x)
        return xp.where(bad, xp.nan, p).astype(dtype, copy=False)


def _igamma(input, other, upper, out):
    require_tensors("igammac" if upper else "igamma", input=(1, input), other=(2, other))
    dtype = core.result_type(input, other)  # (a Python number takes the tensor's dtype, as in torch)
    a, x = core.broadcast_tensors(*(t if isinstance(t, core.Tensor) else core.tensor(t) for t in (input, other)))
    if not dtype.is_floating_point:
        dtype = core.get_default_dtype()
    result = _Igamma.apply(a.to(dtype), x.to(dtype), upper=upper)
    return result if out is None else out.copy_(result.detach())


def igamma(input, other, *, out=None):
    return _igamma(input, other, False, out)


def igammac(input, other, *, out=None):
    return _igamma(input, other, True, out)


def ldexp_(input, other):
    return input.ldexp_(other)


def gcd_(input, other):
    return input.gcd_(other)


def lcm_(input, other):
    return input.lcm_(other)


histogramdd_result = _return_type("histogramdd", "hist bin_edges")


def histogramdd(input, bins=10, *, range=None, weight=None, density=False):
    """``(hist, bin_edges)`` of the N-dimensional points in ``input``'s rows (last dim: coordinates)."""
    if not input.is_floating_point():
        raise NotImplementedError(f"\"histogramdd\" not implemented for '{str(input.dtype)[6:].title()}'")
    points = to_numpy_array(input.detach()._data).reshape(-1, input.shape[-1])
    dims = points.shape[1]
    if isinstance(bins, int):
        bins = [bins] * dims
    elif len(bins) != dims:
        raise RuntimeError("histogramdd: The size of bins must be equal to the innermost dimension of the input.")
    edges = []
    for d in builtin_range(dims):
        if isinstance(bins[d], core.Tensor):
            edges.append(to_numpy_array(bins[d]._data).astype(points.dtype))
            continue
        low, high = histogram_range(points[:, d], None if range is None else range[2 * d:2 * d + 2], d)
        edges.append(to_numpy_array(core.linspace(float(low), float(high), bins[d] + 1, dtype=input.dtype)._data))
    w = None if weight is None else to_numpy_array(weight.detach()._data).reshape(-1).astype(np.float64)
    hist = _counts_dd(points, edges, w)
    if density:
        widths = np.ix_(*[np.diff(e.astype(np.float64)) for e in edges])
        volume = np.ones(hist.shape)
        for width in widths:
            volume = volume * width
        hist = hist / hist.sum() / volume
    out = core.tensor(hist.astype(points.dtype), device=input.device)
    return histogramdd_result(out, tuple(core.tensor(e, device=input.device) for e in edges))


builtin_range = range


def _counts_dd(points, edges, weight):
    """Counts (or summed weights) per cell; a point on a last edge falls in the last bin, outside ones nowhere."""
    cells, inside = [], np.ones(points.shape[0], dtype=bool)
    for d, e in enumerate(edges):
        v = points[:, d]
        index = np.searchsorted(e, v, side="right") - 1
        index[v == e[-1]] = len(e) - 2
        inside &= (v >= e[0]) & (v <= e[-1])
        cells.append(index)
    hist = np.zeros([len(e) - 1 for e in edges])
    np.add.at(hist, tuple(c[inside] for c in cells), 1.0 if weight is None else weight[inside])
    return hist


def empty_permuted(size, physical_layout, *, dtype=None, layout=None, device=None, requires_grad=False,
                   pin_memory=False):
    """An uninitialised tensor of ``size`` whose memory runs over the dims in ``physical_layout``'s order."""
    size, order = tuple(size), tuple(physical_layout)
    if sorted(order) != list(builtin_range(len(size))):
        raise RuntimeError("Dimension out of range")
    stored = core.empty([size[d] for d in order], dtype=dtype, device=device)
    inverse = [order.index(d) for d in builtin_range(len(size))]
    return _set_requires_grad(stored.permute(inverse), requires_grad)
