"""Counting, membership and pairing ops: ``bincount``, ``histc``, ``histogram``, ``isin``, ``tril_indices``,
``triu_indices``, ``combinations``, ``cov``, ``corrcoef`` and ``frexp``, with PyTorch's dtypes and errors.

Counts and indices are computed on the host (they carry no gradient). ``combinations``, ``cov``,
``corrcoef`` and ``frexp``'s mantissa are composed from differentiable core ops, so they backpropagate.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

import core
from core._backend import to_numpy_array
from core._user_warning import warn_user
from core.ops._recorded import data_dependent, recorded
from core.ops.reduction import _return_type

__all__ = ["bincount", "histc", "histogram", "isin", "tril_indices", "triu_indices", "combinations", "cov",
           "corrcoef", "frexp"]

_histogram_result = _return_type("histogram", "hist bin_edges")
_frexp_result = _return_type("frexp", "mantissa exponent")
_WORDS = {"float32": "Float", "float64": "Double", "float16": "Half", "int64": "Long", "int32": "Int",
          "int16": "Short", "int8": "Char", "uint8": "Byte", "bool": "Bool"}


def _word(dtype) -> str:
    name = str(dtype).replace("torch.", "")
    return _WORDS.get(name, name)


def _host(t):
    return np.asarray(to_numpy_array(t.detach()._data))  # (bfloat16 too, which Tensor.numpy() refuses)


def _on(t, arr, dtype):
    return core.tensor(arr, dtype=dtype, device=t.device)


@data_dependent
def bincount(input, weights=None, minlength=0):
    """Occurrences of each non-negative integer in a 1-D tensor (weighted sums with ``weights``)."""
    if input.is_floating_point() or str(input.dtype) == "torch.bool":
        raise NotImplementedError(f'"bincount_cpu" not implemented for \'{_word(input.dtype)}\'')
    if minlength < 0:
        raise RuntimeError("minlength should be >= 0")
    values = _host(input)
    if values.ndim != 1 or (values.size and values.min() < 0):
        raise RuntimeError("bincount only supports 1-d non-negative integral inputs.")
    if weights is None:
        return _on(input, np.bincount(values, minlength=minlength).astype(np.int64), core.int64)
    if weights.ndim != 1 or weights.shape[0] != values.shape[0]:
        raise RuntimeError("weights should be 1-d and have the same length as input")
    dtype = core.float32 if weights.dtype == core.float32 else core.float64
    counts = np.bincount(values, weights=_host(weights).astype(np.float64), minlength=minlength)
    return _on(input, counts, dtype)


def _range_of(values, low, high):
    """PyTorch's histogram range: the data's extent when low == high, widened by one when that is empty."""
    if low == high and values.size:
        low, high = values.min().item(), values.max().item()
    if low == high:
        low, high = low - 1, high + 1
    return low, high


def histogram_range(values, bounds, dim: int = 0):
    """``histogram``/``histogramdd``'s outer edges (PyTorch's ``select_outer_bin_edges``): the given range, else
    the data's extent, else [0, 1] for no data; an empty range widened by a half on each side (histc's by one)."""
    if bounds is not None:
        low, high = float(bounds[0]), float(bounds[1])
    elif values.size:
        low, high = float(values.min()), float(values.max())
    else:
        low, high = 0.0, 1.0
    if not (math.isfinite(low) and math.isfinite(high)):
        raise RuntimeError(f"torch.histogramdd: dimension {dim}'s range [{low:g}, {high:g}] is not finite")
    if low > high:
        raise RuntimeError(f"torch.histogramdd: min should not exceed max, but got min {low:g} max {high:g} for "
                           f"dimension {dim}")
    return (low - 0.5, high + 0.5) if low == high else (low, high)


def _counts(values, edges, weights=None, search="linear"):
    """Counts of ``values`` in the bins of ``edges`` (the last bin includes its right edge).

    PyTorch's kernel places a value by linear interpolation between the outer edges (``histc``), then
    corrects by one bin against the edges (``histogram`` with a bin count), or binary-searches given edges.
    """
    inside = (values >= edges[0]) & (values <= edges[-1])
    kept, bins = values[inside], edges.size - 1
    if search == "binary":
        pos = np.searchsorted(edges, kept, side="right") - 1
    else:
        span = edges[-1] - edges[0]
        pos = ((kept - edges[0]) * kept.dtype.type(bins) / span).astype(np.int64)
        if search == "local":
            pos = np.clip(pos, 0, bins - 1)
            pos = pos - (kept < edges[pos]) + (kept >= edges[np.minimum(pos + 1, bins)]) * (pos + 1 < bins)
    pos = np.minimum(pos, bins - 1)
    w = None if weights is None else weights[inside]
    return np.bincount(pos, weights=w, minlength=bins)[:bins]


@recorded
def histc(input, bins=100, min=0, max=0):  # PyTorch's names
    """Counts in ``bins`` equal-width bins over [min, max] (the data's extent when min == max)."""
    if not input.is_floating_point():
        raise NotImplementedError(f'"histogram_cpu" not implemented for \'{_word(input.dtype)}\'')
    if bins <= 0:
        raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
    if min > max:
        raise RuntimeError("torch.histc: max must be larger than min")
    values = _host(input).ravel()
    low, high = _range_of(values, min, max)
    edges = _host(core.linspace(low, high, bins + 1, dtype=input.dtype))
    return _on(input, _counts(values, edges).astype(values.dtype), input.dtype)


@recorded
def histogram(input, bins=100, *, range=None, weight=None, density=False):  # PyTorch's names
    """``(hist, bin_edges)``: counts (or weights, or a density) in ``bins`` bins or between given edges."""
    if not input.is_floating_point():
        raise NotImplementedError(f'"histogramdd" not implemented for \'{_word(input.dtype)}\'')
    values = _host(input).ravel()
    if isinstance(bins, core.Tensor):
        edges, search = _host(bins).astype(values.dtype), "binary"
    else:
        if bins <= 0:
            raise RuntimeError(f"torch.histogram(): bins must be > 0, but got {bins} for dimension 0")
        low, high = histogram_range(values, range)
        edges, search = _host(core.linspace(low, high, bins + 1, dtype=input.dtype)), "local"
    w = None if weight is None else _host(weight).ravel().astype(np.float64)
    hist = _counts(values, edges, w, search).astype(np.float64)
    if density:
        hist = hist / (hist.sum() * np.diff(edges.astype(np.float64)))
    return _histogram_result(_on(input, hist.astype(values.dtype), input.dtype), _on(input, edges, input.dtype))


def isin(elements, test_elements, *, assume_unique=False, invert=False):
    """A bool tensor: whether each of ``elements`` occurs in ``test_elements`` (either may be a number)."""
    like = elements if isinstance(elements, core.Tensor) else test_elements
    a = _host(elements) if isinstance(elements, core.Tensor) else np.asarray(elements)
    b = _host(test_elements) if isinstance(test_elements, core.Tensor) else np.asarray(test_elements)
    return _on(like, np.isin(a, b, invert=invert), core.bool)


def _indices(fn, name, row, col, offset, dtype, device):
    if dtype not in (core.int64, core.int32):
        raise NotImplementedError(f'"{name}" not implemented for \'{_word(dtype)}\'')
    rows, cols = fn(row, offset, col) if row > 0 and col > 0 else (np.zeros(0, int), np.zeros(0, int))
    return core.tensor(np.stack([rows, cols]), dtype=dtype, device=device)


def tril_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (2, N) row and column indices of a row x col matrix's lower triangle, row by row."""
    return _indices(np.tril_indices, "tril_indices", row, col, offset, dtype or core.int64, device)


def triu_indices(row, col, offset=0, *, dtype=None, device=None, layout=None):
    """The (2, N) row and column indices of a row x col matrix's upper triangle, row by row."""
    return _indices(np.triu_indices, "triu_indices", row, col, offset, dtype or core.int64, device)


def combinations(input, r=2, with_replacement=False):
    """All length-``r`` combinations of a 1-D tensor's elements, one per row (as itertools orders them)."""
    if input.ndim != 1:
        raise RuntimeError(f"Expect a 1D vector, but got shape {list(input.shape)}")
    if r < 0:
        raise RuntimeError(f"Expect a non-negative number, but got {r}")
    if r == 0:
        return core.empty(0, dtype=input.dtype, device=input.device)
    pick = itertools.combinations_with_replacement if with_replacement else itertools.combinations
    idx = np.array(list(pick(range(input.shape[0]), r)), dtype=np.int64).reshape(-1, r)
    return input[core.tensor(idx, device=input.device)]


def _degrees_of_freedom(n_obs, w, aweights, correction):
    if w is None:
        return n_obs - correction
    w_sum = w.sum()
    if aweights is None or correction == 0:
        return w_sum - correction
    return w_sum - correction * (w * aweights).sum() / w_sum


def _weights(n_obs, fweights, aweights):
    """fweights times aweights, after PyTorch's checks of each: at most 1-d, its dtype, one per observation, >= 0."""
    w = None
    for name, given, integral in (("fweights", fweights, True), ("aweights", aweights, False)):
        if given is None:
            continue
        if given.ndim > 1:
            raise RuntimeError(f"cov(): expected {name} to have one or fewer dimensions but got {name} with "
                               f"{given.ndim} dimensions")
        if given.is_floating_point() == integral or given.is_complex() or given.dtype is core.bool:
            kind = "integral" if integral else "floating point"
            raise RuntimeError(f"cov(): expected {name} to have {kind} dtype but got {name} with "
                               f"{_word(given.dtype)} dtype")
        if given.numel() != n_obs:
            raise RuntimeError(f"cov(): expected {name} to have the same numel as there are observations in the "
                               f"input but got {given.numel()} != {n_obs}")
        if n_obs and bool((given < 0).any()):
            raise RuntimeError(f"cov(): {name} cannot be negative")
        w = given if w is None else w * given
    return w


def cov(input, *, correction=1, fweights=None, aweights=None):
    """The covariance matrix of ``input``'s rows (variables) over its columns (observations)."""
    if input.ndim > 2:
        raise RuntimeError(f"cov(): expected input to have two or fewer dimensions but got an input with "
                           f"{input.ndim} dimensions")
    x = input if input.is_floating_point() else input.to(core.get_default_dtype())
    x = x.reshape(1, -1) if x.ndim < 2 else x
    n_obs = x.shape[1]
    w = _weights(n_obs, fweights, aweights)
    if w is None:
        avg = x.mean(1)
    else:
        w = w.to(x.dtype)
        if not bool(w.sum() != 0):
            raise RuntimeError("cov(): weights sum to zero, can't be normalized")
        avg = (x * w).sum(1) / w.sum()
    dof = _degrees_of_freedom(n_obs, w, aweights, correction)
    if float(dof) <= 0:
        warn_user("cov(): degrees of freedom is <= 0. Correction should be strictly less than the number of "
                  "observations.")
        dof = 0
    centred = x - avg.unsqueeze(1)
    weighted = centred if w is None else centred * w
    out = weighted.matmul(centred.t()) / dof
    return out.squeeze()


def corrcoef(input):
    """Pearson correlation coefficients of ``input``'s rows, clipped to [-1, 1]."""
    c = cov(input)
    if c.ndim == 0:
        return c / c
    std = c.diagonal().sqrt()
    c = c / std.unsqueeze(1)
    c = c / std.unsqueeze(0)
    return c.clamp(-1, 1)


@recorded
def frexp(input):
    """``(mantissa, exponent)`` with ``input = mantissa * 2 ** exponent`` and 0.5 <= |mantissa| < 1."""
    if not input.is_floating_point():
        raise RuntimeError("torch.frexp() only supports floating-point dtypes")
    values = _host(input.float() if input.dtype == core.bfloat16 else input)  # (NumPy's frexp lacks bfloat16)
    _, exponent = np.frexp(values)
    exponent = exponent.astype(np.int32)
    scale = _on(input, np.ldexp(np.ones_like(values), -exponent), input.dtype)
    return _frexp_result(input * scale, _on(input, exponent, core.int32))
