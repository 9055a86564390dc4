"""Order statistics: median, nanmedian, mode, kthvalue, quantile, nanquantile.

Each picks elements by rank from a stable sort (NaN ranks last, so ``median`` sees it and
``nanmedian`` skips it). With a ``dim`` they return ``(values, indices)`` and the gradient goes
to the picked index; without one, ties share the gradient evenly, as in PyTorch.
"""

from __future__ import annotations

import numpy as np

from core import _backend, _dtype
from core._arg_types import refuse_bool_dim, require_bool
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.ops._std_order import torch_mode_index
from core.ops._util import ALL_DIMS, normalize_dim, xp_of
from core.ops.cumulative import running
from core.ops.reduction import accept_numpy_names, const, return_types
from core.ops.reduction import sum as _sum
from core.ops.reduction_extremes import MaxDim, _check_nonempty
from core.ops.views import reshape

__all__ = ["median", "nanmedian", "mode", "kthvalue", "quantile", "nanquantile"]


def sort_indices(x, dim: int, descending: bool = False):
    """Stable argsort along ``dim``; descending keeps equal values in their original order, NaN first."""
    xp = xp_of(x)
    if not descending:
        return xp.argsort(x, axis=dim, kind="stable")
    n = x.shape[dim]
    return xp.flip(n - 1 - xp.argsort(xp.flip(x, axis=dim), axis=dim, kind="stable"), axis=dim)


def _nth(x, dim, k):
    """Index (along ``dim``) of the element of rank ``k`` (an int or an array broadcast over slices)."""
    xp = xp_of(x)
    order = sort_indices(x, dim)
    k = xp.expand_dims(xp.asarray(k, dtype=np.int64) + xp.zeros(
        [s for i, s in enumerate(x.shape) if i != dim], dtype=np.int64), dim)
    return xp.take_along_axis(order, k, axis=dim).squeeze(dim)


class MedianDim(MaxDim):
    node_name = "MedianBackward1"

    @staticmethod
    def pick(x, dim, **kw):
        xp = xp_of(x)
        idx = _nth(x, dim, (x.shape[dim] - 1) // 2)
        if x.dtype.kind == "f":
            nan = xp.isnan(x)
            idx = xp.where(nan.any(axis=dim), xp.argmax(nan, axis=dim), idx)
        return idx


class NanmedianDim(MaxDim):
    node_name = "NanmedianBackward1"

    @staticmethod
    def pick(x, dim, **kw):
        xp = xp_of(x)
        valid = (~xp.isnan(x)).sum(axis=dim) if x.dtype.kind == "f" else x.shape[dim]
        return _nth(x, dim, xp.maximum((xp.asarray(valid) - 1) // 2, 0))


class KthvalueDim(MaxDim):
    node_name = "KthvalueBackward0"

    @staticmethod
    def pick(x, dim, k=1):
        """The stable rank's index, except in slices where the k-th value has ties: there the index
        PyTorch's CPU quickselect lands on (so indices match torch exactly)."""
        xp = xp_of(x)
        idx = _nth(x, dim, k - 1)
        v = xp.take_along_axis(x, xp.expand_dims(idx, dim), axis=dim)
        same = x == v
        if x.dtype.kind == "f":
            same |= xp.isnan(x) & xp.isnan(v)
        tied = xp.asarray(same.sum(axis=dim) > 1)  # NOTE: a 1-d input sums to a NumPy scalar
        if not bool(tied.any()):
            return idx
        rows = _backend.to_numpy_array(xp.moveaxis(x, dim, -1).reshape(-1, x.shape[dim]))
        flat = idx.reshape(-1).copy()
        for r in np.flatnonzero(_backend.to_numpy_array(tied).reshape(-1)):
            flat[int(r)] = _quick_select(rows[r].tolist(), k - 1)
        return flat.reshape(idx.shape)


def _gt_or_nan(a, b) -> bool:
    return (a != a and b == b) or a > b


def _quick_select(arr: list, k: int) -> int:
    """PyTorch's ``quick_select_template`` (median-of-three quickselect); returns the source index."""
    idx = list(range(len(arr)))

    def swap(i, j):
        arr[i], arr[j] = arr[j], arr[i]
        idx[i], idx[j] = idx[j], idx[i]

    lo, hi = 0, len(arr) - 1
    while hi > lo:
        if hi == lo + 1:
            if _gt_or_nan(arr[lo], arr[hi]):
                swap(lo, hi)
            break
        swap(lo + (hi - lo) // 2, lo + 1)
        for a, b in ((lo + 1, hi), (lo, hi), (lo + 1, lo)):
            if _gt_or_nan(arr[a], arr[b]):
                swap(a, b)
        i, j, piv = lo + 1, hi, arr[lo]
        while True:
            i += 1
            while _gt_or_nan(piv, arr[i]):
                i += 1
            j -= 1
            while _gt_or_nan(arr[j], piv):
                j -= 1
            if j < i:
                break
            swap(i, j)
        swap(lo, j)
        if j <= k:
            lo = i
        if j >= k:
            hi = j - 1
    return idx[k]


class ModeDim(MaxDim):
    node_name = "ModeBackward0"

    @staticmethod
    def pick(x, dim, **kw):
        """The most frequent value (the smallest among equally frequent ones), at its last index."""
        xp = xp_of(x)
        rows = xp.moveaxis(x, dim, -1)
        batch = rows.shape[:-1]
        n = rows.shape[-1]
        rows = rows.reshape(-1, n)
        order = xp.argsort(rows, axis=1, kind="stable")
        s = xp.take_along_axis(rows, order, axis=1)
        pos = xp.arange(n)
        new = xp.ones(s.shape, dtype=bool)
        new[:, 1:] = s[:, 1:] != s[:, :-1]
        last = xp.ones(s.shape, dtype=bool)
        last[:, :-1] = new[:, 1:]
        start = running("maximum", xp.where(new, pos, 0), 1)
        end = xp.flip(running("minimum", xp.flip(xp.where(last, pos, n), axis=1), 1), axis=1)
        best = xp.argmax(end - start, axis=1)
        r = xp.arange(rows.shape[0])
        picked = order[r, end[r, best]]
        if xp is np:  # NOTE: PyTorch's std::sort with a plain < is unstable past 16 elements and scatters NaNs
            redo = np.arange(len(rows)) if n > 16 else np.flatnonzero(np.isnan(rows).any(axis=1)) \
                if rows.dtype.kind == "f" else ()
            for i in redo:
                picked[i] = torch_mode_index(rows[i])
        return picked.reshape(batch)


class _EvenlyDistributed(Function):
    """A full reduction to one picked value; ties (or NaNs) share the gradient evenly."""

    saved_names = ("result", "self")

    @classmethod
    def forward(cls, ctx, a):
        x = a._data
        xp = xp_of(x)
        flat = x.reshape(-1)
        with np.errstate(invalid="ignore", divide="ignore"):
            out = cls.value(flat)
            if x.dtype.kind == "f":
                mask = xp.isnan(x) if bool(xp.isnan(out)) and cls.nan_wins else x == out
                ctx.weights = mask / mask.sum()
            result = new_tensor(xp.asarray(out).astype(x.dtype))  # an empty int input gives NaN cast, as PyTorch
        # (PyTorch saves the input and the result: a write to either before backward is refused)
        ctx.save_for_backward(result, a)
        return result

    @staticmethod
    def backward(ctx, g):
        _ = ctx._unpacked  # (the version check of the saved result)
        return g * const(ctx.weights, g)


class Median(_EvenlyDistributed):
    node_name = "MedianBackward0"
    nan_wins = True

    @staticmethod
    def value(flat):
        xp = xp_of(flat)
        if flat.size == 0 or flat.dtype.kind == "f" and bool(xp.isnan(flat).any()):
            return xp.asarray(np.nan)
        return xp.sort(flat)[(flat.size - 1) // 2]


class Nanmedian(_EvenlyDistributed):
    node_name = "NanmedianBackward0"
    nan_wins = True

    @staticmethod
    def value(flat):
        xp = xp_of(flat)
        valid = int((~xp.isnan(flat)).sum()) if flat.dtype.kind == "f" else flat.size
        if valid == 0:
            return xp.asarray(np.nan)
        return xp.sort(flat)[(valid - 1) // 2]


def _check_sortable(input: Tensor, op: str, when: bool = True) -> None:
    if (input.dtype is _dtype.bool or input.dtype.is_complex) and when:  # (complex numbers have no order)
        raise NotImplementedError(f'"{op}" not implemented for \'{_dtype.SCALAR_NAMES[input.dtype.name]}\'')


def _selecting(cls, name, input, dim, keepdim, op=None, **kw):
    d = normalize_dim(dim, input._data.ndim)
    _check_nonempty(input, (d,), op or name, False)
    if d != dim:
        kw["raw_dim"] = dim  # (the node's ``_saved_dim``: the dim as the call gave it, as PyTorch's)
    values, indices = cls.apply(input, dim=d, keepdim=bool(keepdim), **kw)
    return getattr(return_types, name)(values, indices)


def median(input: Tensor, dim=ALL_DIMS, keepdim: bool = False):
    """The lower median; with ``dim`` a ``(values, indices)`` pair. NaN propagates.

    ``median(x, None)`` and ``median(x, keepdim=True)`` are PyTorch's TypeErrors (its overload without dim takes
    neither)."""
    if dim is ALL_DIMS and keepdim is not False:
        raise TypeError('median() missing 1 required positional arguments: "dim"')
    if dim is None:
        raise TypeError("median(): argument 'dim' (position 2) must be int, not NoneType")
    if dim is ALL_DIMS:
        _check_sortable(input, "median_cpu", input._data.size > 0)
        return Median.apply(input)
    refuse_bool_dim("median", dim)
    require_bool("median", "keepdim", 3, keepdim)
    _check_sortable(input, "median_out")
    return _selecting(MedianDim, "median", input, dim, keepdim)


def nanmedian(input: Tensor, dim=None, keepdim: bool = False):
    """The lower median of the non-NaN values."""
    if dim is None:
        _check_sortable(input, "median_cpu", input._data.size > 0)
        return Nanmedian.apply(input)
    refuse_bool_dim("nanmedian", dim)
    require_bool("nanmedian", "keepdim", 3, keepdim)
    _check_sortable(input, "median_out")
    return _selecting(NanmedianDim, "nanmedian", input, dim, keepdim, op="median")


def mode(input: Tensor, dim: int = -1, keepdim: bool = False):
    refuse_bool_dim("mode", dim)
    require_bool("mode", "keepdim", 3, keepdim)
    if input.is_complex():
        _check_sortable(input, "mode_cpu")
    return _selecting(ModeDim, "mode", input, dim, keepdim)


def kthvalue(input: Tensor, k: int, dim: int = -1, keepdim: bool = False):
    """The ``k``-th smallest element (1-based) along ``dim``, and its index."""
    if isinstance(k, (bool, float)):  # (no int to PyTorch's parser)
        raise TypeError(f"kthvalue(): argument 'k' (position 2) must be int, not {type(k).__name__}")
    require_bool("kthvalue", "keepdim", 4, keepdim)
    x = input._data
    _check_sortable(input, "kthvalue_cpu", x.ndim > 0)
    d = normalize_dim(dim, x.ndim)
    size = x.shape[d] if x.ndim else 1
    if not size:
        raise IndexError(f"kthvalue(): Expected reduction dim {d} to have non-zero size.")
    if not 1 <= k <= size:
        raise RuntimeError(f"kthvalue(): selected number k out of range for dimension {d}")
    return _selecting(KthvalueDim, "kthvalue", input, dim, keepdim, k=int(k))


# ----- quantile, nanquantile ---------------------------------------------------------------------

_INTERPOLATIONS = ("linear", "lower", "higher", "midpoint", "nearest")


def _quantile_weights(rows, q, interpolation: str, ignore_nan: bool):
    """Per slice (last axis of ``rows``), weights over the elements whose sum is each quantile.

    Returns (values, weights): values (Q, *batch), weights (Q, *batch, n) in the rows' order.
    """
    xp = xp_of(rows)
    n = rows.shape[-1]
    order = xp.argsort(rows, axis=-1, kind="stable")
    s = xp.take_along_axis(rows, order, axis=-1)
    nan = xp.isnan(rows)
    valid = (~nan).sum(axis=-1) if ignore_nan else xp.full(rows.shape[:-1], n)
    qs = q.reshape((-1,) + (1,) * (rows.ndim - 1))
    rank = qs * (valid - 1).astype(rows.dtype)
    lo, hi = xp.floor(rank), xp.ceil(rank)
    if interpolation == "lower":
        hi = lo
    elif interpolation == "higher":
        lo = hi
    elif interpolation == "nearest":
        lo = hi = xp.round(rank)
    w = (xp.full(rank.shape, 0.5, dtype=rows.dtype) if interpolation == "midpoint" else rank - lo)
    lo, hi = xp.clip(lo, 0, n - 1).astype(np.int64), xp.clip(hi, 0, n - 1).astype(np.int64)
    v_lo = xp.take_along_axis(xp.broadcast_to(s, lo.shape[:1] + s.shape), lo[..., None], axis=-1)[..., 0]
    v_hi = xp.take_along_axis(xp.broadcast_to(s, hi.shape[:1] + s.shape), hi[..., None], axis=-1)[..., 0]
    with np.errstate(invalid="ignore"):
        values = xp.where(w < 0.5, v_lo + w * (v_hi - v_lo), v_hi - (v_hi - v_lo) * (1 - w))
    bad = (valid == 0) if ignore_nan else nan.any(axis=-1)
    values = xp.where(bad, xp.asarray(np.nan, dtype=rows.dtype), values)
    pos = xp.arange(n)
    w_sorted = (pos == lo[..., None]) * (1 - w)[..., None] + (pos == hi[..., None]) * w[..., None]
    inverse = xp.argsort(order, axis=-1)
    weights = xp.take_along_axis(w_sorted, xp.broadcast_to(inverse, w_sorted.shape), axis=-1)
    return values.astype(rows.dtype), weights.astype(rows.dtype)


class Quantile(Function):
    node_name = "QuantileBackward0"

    @staticmethod
    def forward(ctx, a, *, q, dim, keepdim, interpolation, ignore_nan):
        x = a._data
        xp = xp_of(x)
        rows = x.reshape(1, -1) if dim is None else xp.moveaxis(x, dim, -1)
        values, weights = _quantile_weights(rows, q, interpolation, ignore_nan)
        if dim is None:
            keep = (1,) * x.ndim
            weights = weights.reshape((-1,) + x.shape)
        else:
            keep = tuple(1 if i == dim else s for i, s in enumerate(x.shape))
            weights = xp.moveaxis(weights, -1, dim + 1)
        ctx.weights, ctx.keep = weights, keep
        out_shape = keep if keepdim else tuple(s for i, s in enumerate(keep) if dim is not None and i != dim)
        values = values.reshape((-1,) + out_shape)
        return values if q.ndim else values[0]

    @staticmethod
    def backward(ctx, g):
        g = reshape(g, (-1,) + ctx.keep)
        return _sum(g * const(ctx.weights, g), 0)


def _quantile(input: Tensor, q, dim, keepdim, interpolation, ignore_nan):
    x = input._data
    if x.dtype not in (np.float32, np.float64):
        raise RuntimeError("quantile() input tensor must be either float or double dtype")
    if x.size == 0:
        raise RuntimeError("quantile() input tensor must be non-empty")
    if isinstance(q, Tensor):
        if q._data.ndim > 1:
            raise RuntimeError("quantile() q must be a scalar or 1D tensor")
        if q._data.dtype != x.dtype:
            raise RuntimeError("quantile() q tensor must be same dtype as the input tensor")
        qa = q._data
    else:
        qa = xp_of(x).asarray(float(q), dtype=x.dtype)
    if bool(((qa < 0) | (qa > 1)).any()):
        bad = qa[(qa < 0) | (qa > 1)].reshape(-1)[0]
        raise RuntimeError(f"quantile() q must be in the range [0, 1] but got {float(bad)}")
    if interpolation not in _INTERPOLATIONS:
        raise RuntimeError("quantile() interpolation must be one of linear, lower, higher, midpoint or nearest, "
                           f"but got {interpolation}")
    d = None if dim is None else normalize_dim(dim, x.ndim)
    if d is not None and x.ndim == 0:
        d = None
    return Quantile.apply(input, q=qa, dim=d, keepdim=bool(keepdim), interpolation=interpolation,
                          ignore_nan=ignore_nan)


def quantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):
    """Quantiles along ``dim`` (flattened when None); ``q`` a float or 1-D tensor; NaN propagates."""
    return _quantile(input, q, dim, keepdim, interpolation, False)


def nanquantile(input: Tensor, q, dim=None, keepdim: bool = False, *, interpolation: str = "linear"):
    """Quantiles of the non-NaN values; a slice of only NaNs gives NaN."""
    return _quantile(input, q, dim, keepdim, interpolation, True)


accept_numpy_names(globals(), __all__)
