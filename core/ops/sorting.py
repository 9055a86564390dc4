"""Sorting and searching: sort, argsort, msort, topk, unique, unique_consecutive, searchsorted, bucketize.

Sorts are stable (so equal values keep their order, which is what PyTorch's CPU kernels give);
NaN sorts as the largest value. ``sort``/``topk`` send gradients back to the source positions with
``scatter`` (PyTorch's value-selecting backward). Order statistics (median, mode, kthvalue,
quantile) live in ``core.ops.order_stats`` and are re-exported from here.
"""

from __future__ import annotations

import numbers

import numpy as np

from core._arg_types import dim_overloads_error, int64, require_bool, tp_name
from core._factories import zeros
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._recorded import data_dependent, recorded
from core.ops._saved_attrs import DIM_AS_GIVEN, index_tensor
from core.ops._std_order import rows_with_ties, torch_sort_rows, torch_topk_rows
from core.ops._strided import in_layout_of, row_major
from core.ops._util import normalize_dim, wrap, xp_of
from core.ops.complex_ops import refuse_complex
from core.ops.order_stats import *  # noqa: F403 - one family for users
from core.ops.order_stats import __all__ as _order_all
from core.ops.order_stats import sort_indices
from core.ops.reduction import accept_numpy_names, return_types
from core.ops.scatter import scatter

__all__ = ["sort", "argsort", "msort", "topk", "unique", "unique_consecutive", "searchsorted", "bucketize",
           *_order_all]


def scatter_back(g: Tensor, indices, dim: int, in_shape) -> Tensor:
    """A zero gradient of ``in_shape`` with ``g`` written at ``indices`` along ``dim`` (differentiable)."""
    base = zeros(in_shape, dtype=g.dtype, device=g.device)
    return scatter(base, dim, wrap(indices), g)


class Sort(Function):
    node_name = "SortBackward0"
    _saved_dim, _saved_self_sym_sizes = DIM_AS_GIVEN, SavedFromCtx(lambda c: c["in_shape"])
    _saved_indices = SavedFromCtx(lambda c: index_tensor(c["indices"]), tensor=True)

    @staticmethod
    def forward(ctx, a, *, dim, descending, stable=True, raw_dim=None):
        x = a._data
        xp = xp_of(x)
        ctx.dim, ctx.in_shape = dim, x.shape
        if raw_dim is not None and raw_dim != dim:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
        if x.ndim == 0:
            ctx.indices = xp.zeros((), dtype=np.int64)
            return x.copy(), ctx.indices
        idx = sort_indices(x, dim, descending).astype(np.int64)
        if not stable and xp is np:
            idx = _unstable_order(x, idx, dim, descending)
        idx = ctx.indices = in_layout_of(idx, x)  # (torch's values and indices keep the input's stride order)
        return in_layout_of(xp.take_along_axis(x, idx, axis=dim), x), idx

    @staticmethod
    def backward(ctx, g, _gi):
        if g._data.ndim == 0:
            return g
        return scatter_back(g, ctx.indices, ctx.dim, ctx.in_shape)


class SortStable(Sort):
    node_name = "SortBackward1"


def _unstable_order(x, idx, dim: int, descending: bool):
    """A stable order with the rows where ``std::sort`` (PyTorch's sort without ``stable``) differs redone:
    rows longer than 16 (shorter ones get its insertion sort, which is stable) that hold equal values."""
    n = x.shape[dim]
    if n <= 16:
        return idx
    rows_x = np.moveaxis(x, dim, -1).reshape(-1, n)
    rows_i = np.moveaxis(idx, dim, -1).reshape(-1, n).copy()
    redo = rows_with_ties(np.take_along_axis(rows_x, rows_i, 1), n - 1)
    if len(redo):
        rows_i[redo] = torch_sort_rows(rows_x[redo], descending)
    return np.moveaxis(rows_i.reshape(np.moveaxis(idx, dim, -1).shape), -1, dim)


def sort(input: Tensor, dim: int = -1, descending: bool = False, *, stable=None):
    """Values and indices in order; without ``stable``, equal values come as PyTorch's CPU ``std::sort`` leaves
    them."""
    if isinstance(dim, (bool, float)):  # (no int to PyTorch's parser: x.sort(True) sorts along no dim 1; the
        raise dim_overloads_error("sort", dim, method=True)  # function form rewords it: out_arg)
    require_bool("sort", "descending", 3, descending)
    refuse_complex(input, RuntimeError, " Sort does not support complex dtypes on CPU")
    d = normalize_dim(dim, input._data.ndim)
    cls = Sort if stable is None else SortStable
    values, indices = cls.apply(input, dim=d, descending=bool(descending), stable=bool(stable),
                                raw_dim=dim if isinstance(dim, int) else None)
    return return_types.sort(values, indices)


@recorded
def argsort(input: Tensor, dim: int = -1, descending: bool = False, stable: bool = False):
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("argsort", dim, method=True)
    require_bool("argsort", "descending", 3, descending)
    x = input._data
    d = normalize_dim(dim, x.ndim)
    if x.ndim == 0:
        return wrap(xp_of(x).zeros((), dtype=np.int64))
    idx = sort_indices(x, d, bool(descending)).astype(np.int64)
    if not stable and xp_of(x) is np:
        idx = _unstable_order(x, idx, d, bool(descending))
    return wrap(in_layout_of(idx, x))  # (sort's indices: the input's stride order)


def msort(input: Tensor):
    return sort(input, 0).values


class Topk(Function):
    node_name = "TopkBackward0"
    _saved_dim, _saved_self_sym_sizes, _saved_indices = Sort._saved_dim, Sort._saved_self_sym_sizes, Sort._saved_indices

    @staticmethod
    def forward(ctx, a, *, k, dim, largest, sorted=True, raw_dim=None):
        x = a._data
        xp = xp_of(x)
        ctx.dim, ctx.in_shape = dim, x.shape
        if raw_dim is not None and raw_dim != dim:
            ctx.raw_dim = raw_dim
        if x.ndim == 0:
            ctx.indices = xp.zeros((), dtype=np.int64)
            return x.copy(), ctx.indices
        if x.size == 0:  # nothing to order (a detector's scores after thresholding): empty results of the k shape
            shape = x.shape[:dim] + (k,) + x.shape[dim + 1:]
            ctx.indices = xp.zeros(shape, dtype=np.int64)
            return xp.zeros(shape, dtype=x.dtype), ctx.indices
        if xp is np:  # NOTE: ties (and sorted=False) in the order PyTorch's CPU kernel leaves them
            head = _head_order(x, dim, largest, min(k + 1, x.shape[dim])).astype(np.int64)
            idx = _cpu_order(x, head, k, dim, largest, sorted)
        else:
            idx = xp.take(sort_indices(x, dim, largest).astype(np.int64), xp.arange(k), axis=dim)
        idx = ctx.indices = row_major(idx)  # (torch's topk results are contiguous)
        return xp.take_along_axis(x, idx, axis=dim), idx

    @staticmethod
    def backward(ctx, g, _gi):
        if g._data.ndim == 0:
            return g
        return scatter_back(g, ctx.indices, ctx.dim, ctx.in_shape)


def _head_order(x, dim: int, largest: bool, m: int):
    """The first ``m`` places of ``sort_indices(x, dim, largest)`` (stable, best first). A float array without NaN
    and a short head (``topk(logits, 50)`` over 50257 tokens) takes an ``argpartition`` and sorts only the head;
    rows whose m-th value ties with one further down take the full sort."""
    n = x.shape[dim]
    if x.dtype.kind != "f" or not 0 < 4 * m <= n or np.isnan(x).any():
        return np.take(sort_indices(x, dim, largest), np.arange(m), axis=dim)
    rows = np.moveaxis(x, dim, -1).reshape(-1, n)
    key = -rows if largest else rows  # ascending keys, ties in index order: sort_indices' order
    # NOTE: the m-th smallest key by a partition of the values (~2.5x faster than argpartition); a row with exactly
    # m keys at or below it has those as its head (in index order from nonzero), the others tie there
    below = key <= np.partition(key, m - 1, axis=1)[:, m - 1:m]
    counts = below.sum(axis=1)
    head = np.empty((len(rows), m), np.intp)
    untied = counts == m
    # NOTE: the columns of the 1-d nonzero (flat positions mod n, row-major as the 2-d one's): NumPy's 2-d
    # nonzero walks the mask ~25x slower (a 1024x1024 mask 5.1 -> 0.2 ms)
    part = (np.flatnonzero(below[untied]) % n).reshape(-1, m)
    head_keys = np.take_along_axis(key[untied], part, 1)
    head[untied] = np.take_along_axis(part, np.argsort(head_keys, axis=1, kind="stable"), 1)
    tied = np.flatnonzero(~untied)
    if len(tied):
        head[tied] = sort_indices(rows[tied], 1, largest)[:, :m]
    return np.moveaxis(head.reshape(np.moveaxis(x, dim, -1).shape[:-1] + (m,)), -1, dim)


def _cpu_order(x, idx, k: int, dim: int, largest: bool, sorted_: bool):
    """The first ``k`` of a stable best-first order (``idx``: its head, at least ``k + 1`` places when the rows are
    longer), with the rows where it and PyTorch's kernel can differ (equal values at or above the k-th place, or any
    row when not ``sorted``) redone as that kernel does."""
    rows_x = np.moveaxis(x, dim, -1).reshape(-1, x.shape[dim])
    rows_i = np.moveaxis(idx, dim, -1).reshape(-1, idx.shape[dim])
    top = rows_i[:, :k].copy()
    redo = np.arange(len(rows_x)) if not sorted_ else rows_with_ties(np.take_along_axis(rows_x, rows_i, 1), k)
    if len(redo) and k:
        top[redo] = torch_topk_rows(rows_x[redo], k, largest, sorted_)
    out_shape = tuple(np.moveaxis(idx, dim, -1).shape[:-1]) + (k,)
    return np.moveaxis(top.reshape(out_shape), -1, dim)


def topk(input: Tensor, k: int, dim: int = -1, largest: bool = True, sorted: bool = True):
    """The ``k`` largest (or smallest) values along ``dim`` and their indices; equal values (and ``sorted=False``
    results) come in the order PyTorch's CPU kernel gives them."""
    if isinstance(k, (bool, float)):  # (no int to torch's parser: topk(x, True) is no top-1; the method's
        raise TypeError(f"topk(): argument 'k' (position 2) must be int, not {tp_name(k)}")  # words: method_args)
    require_bool("topk", "largest", 4, largest)
    require_bool("topk", "sorted", 5, sorted)
    refuse_complex(input, RuntimeError, " topk does not support complex dtypes on CPU")
    x = input._data
    d = normalize_dim(dim, x.ndim)
    if x.dtype == np.bool_:
        raise RuntimeError("topk does not support bool dtypes on CPU")
    size = x.shape[d] if x.ndim else 1
    if int64(k) < 0 or k > size:
        raise RuntimeError("selected index k out of range")
    values, indices = Topk.apply(input, k=int(k), dim=d, largest=bool(largest), sorted=bool(sorted),
                                 raw_dim=dim if isinstance(dim, int) else None)
    return return_types.topk(values, indices)


# ----- unique, unique_consecutive ----------------------------------------------------------------


def _unique_result(values, inverse, counts, return_inverse, return_counts):
    out = [wrap(values)]
    if return_inverse:
        out.append(wrap(inverse.astype(np.int64)))
    if return_counts:
        out.append(wrap(counts.astype(np.int64)))
    return out[0] if len(out) == 1 else tuple(out)


class Unique(Function):
    """Sorted unique elements; like PyTorch, the graph records it but has no derivative for it."""

    node_name = "Unique2Backward0"

    @staticmethod
    def forward(ctx, a, *, dim):
        x = a._data
        xp = xp_of(x)
        ctx.dim = dim
        if dim is not None:
            values, inverse, counts = xp.unique(x, return_inverse=True, return_counts=True, axis=dim)
            return values, inverse.reshape(-1).astype(np.int64), counts.astype(np.int64)
        flat = x.reshape(-1)
        order = xp.argsort(flat, kind="stable")
        s = flat[order]
        new = xp.ones(s.shape, dtype=bool)
        if s.size > 1:
            new[1:] = s[1:] != s[:-1]  # NaN != NaN: every NaN is its own value, as in PyTorch
        inverse = xp.empty(flat.shape, dtype=np.int64)
        inverse[order] = xp.cumsum(new) - 1
        counts = xp.diff(xp.append(xp.nonzero(new)[0], s.size)) if s.size else xp.zeros(0, dtype=np.int64)
        return s[new], inverse.reshape(x.shape), counts.astype(np.int64)

    @staticmethod
    def backward(ctx, *grads):
        name = "_unique2" if ctx.dim is None else "unique_dim"
        raise NotImplementedError(f"the derivative for '{name}' is not implemented.")


class UniqueDim(Unique):
    node_name = "UniqueDimBackward0"


@data_dependent
def unique(input: Tensor, sorted: bool = True, return_inverse: bool = False, return_counts: bool = False,
           dim=None):
    """Sorted unique elements (or slices along ``dim``); every NaN counts as distinct, like PyTorch.

    Its flags are bools to the parser of the op torch.unique calls (``unique(sorted=1)`` is a TypeError there, not
    truthiness)."""
    if not type(sorted) is type(return_inverse) is type(return_counts) is bool:  # (the one test of a plain call)
        for flag, value in (("sorted", sorted), ("return_inverse", return_inverse), ("return_counts", return_counts)):
            require_bool("_unique2" if dim is None else "unique_dim", flag, None, value)
    refuse_complex(input, NotImplementedError, f'"{"unique" if dim is None else "unique_dim"}" not implemented for '
                   "'{dtype}'")
    if dim is None:
        values, inverse, counts = Unique.apply(input, dim=None)
    elif not input._data.ndim:  # (normalize_dim would take dim 0 of a 0-d tensor)
        raise IndexError(f"Dimension specified as {dim} but tensor has no dimensions")
    else:
        values, inverse, counts = UniqueDim.apply(input, dim=normalize_dim(dim, input._data.ndim))
    out = [values] + [inverse] * bool(return_inverse) + [counts] * bool(return_counts)
    return out[0] if len(out) == 1 else tuple(out)


@data_dependent
def unique_consecutive(input: Tensor, return_inverse: bool = False, return_counts: bool = False, dim=None):
    """Collapse runs of equal consecutive elements (or slices along ``dim``)."""
    refuse_complex(input, NotImplementedError, "\"unique\" not implemented for '{dtype}'")
    x = input._data
    xp = xp_of(x)
    d = 0 if dim is None else normalize_dim(dim, x.ndim)
    src = x.reshape(-1) if dim is None else xp.moveaxis(x, d, 0)
    n = src.shape[0] if src.ndim else 1
    new = xp.ones(n, dtype=bool)
    if n > 1:
        diff = src[1:] != src[:-1]
        new[1:] = diff.reshape(n - 1, -1).any(axis=1)
    starts = xp.nonzero(new)[0]
    counts = xp.diff(xp.append(starts, n))
    inverse = xp.cumsum(new) - 1
    values = src[starts] if dim is None else xp.moveaxis(src[starts], 0, d)
    if dim is None:
        inverse = inverse.reshape(x.shape)
    return _unique_result(values, inverse, counts, return_inverse, return_counts)


# ----- searchsorted, bucketize -------------------------------------------------------------------


def _search(seq, values, right: bool, sorter=None):
    xp = xp_of(seq)
    side = "right" if right else "left"
    if seq.ndim == 1:
        return xp.searchsorted(seq, values, side=side, sorter=sorter)
    if seq.shape[:-1] != values.shape[:-1]:
        raise RuntimeError("torch.searchsorted(): boundaries tensor should be 1 dimension or the first N-1 "
                           "dimensions of boundaries tensor and input value tensor must match, but we got "
                           f"boundaries tensor {list(seq.shape)} and input value tensor {list(values.shape)}")
    rows_s = seq.reshape(-1, seq.shape[-1])
    rows_v = values.reshape(-1, values.shape[-1])
    rows_o = None if sorter is None else sorter.reshape(-1, seq.shape[-1])
    out = [xp.searchsorted(s, v, side=side, sorter=None if rows_o is None else rows_o[i])
           for i, (s, v) in enumerate(zip(rows_s, rows_v))]
    return xp.stack(out).reshape(values.shape) if out else xp.zeros(values.shape, dtype=np.int64)


_SEARCH_SIGNATURES = {
    "searchsorted": (" * (Tensor sorted_sequence, Tensor input, *, bool out_int32 = False, bool right = False, str "
                     "side = None, Tensor sorter = None, Tensor out = None)",
                     " * (Tensor sorted_sequence, Number self, *, bool out_int32 = False, bool right = False, str "
                     "side = None, Tensor sorter = None, Tensor out = None)"),
    "bucketize": (" * (Tensor input, Tensor boundaries, *, bool out_int32 = False, bool right = False, Tensor out = "
                  "None)", " * (Number self, Tensor boundaries, *, bool out_int32 = False, bool right = False)")}


def _check_search_arguments(name: str, sequence, values) -> None:
    """torch's parser: the sorted sequence (boundaries) a tensor, the values a tensor or a number (a list is its
    TypeError, not values searched)."""
    def ok(v, number_ok):
        return isinstance(v, Tensor) or hasattr(type(v), "__torch_function__") or (
            number_ok and isinstance(v, (numbers.Number, np.generic)))

    if not (ok(sequence, False) and ok(values, True)):
        given = (sequence, values) if name == "searchsorted" else (values, sequence)
        raise TypeError(f"{name}() received an invalid combination of arguments - got "
                        f"({', '.join(tp_name(v) for v in given)}), but expected one of:\n"
                        + "\n".join(_SEARCH_SIGNATURES[name]) + "\n")


@recorded
def searchsorted(sorted_sequence: Tensor, input, *, out_int32: bool = False, right: bool = False, side=None,
                 sorter=None):
    _check_search_arguments("searchsorted", sorted_sequence, input)
    if side is not None:
        if side not in ("left", "right"):
            raise RuntimeError(f"torch.searchsorted(): side can only be 'left' or 'right' but got {side}")
        if right and side == "left":
            raise RuntimeError("torch.searchsorted(): side and right can't be set to opposites, got side of left "
                               "while right was True")
        right = side == "right"
    seq = sorted_sequence._data
    xp = xp_of(seq)
    values = input._data if isinstance(input, Tensor) else xp.asarray(input)
    srt = None if sorter is None else sorter._data
    out = _search(seq, values, right, srt)
    return wrap(xp.asarray(out, dtype=np.int32 if out_int32 else np.int64))


@recorded
def bucketize(input, boundaries: Tensor, *, out_int32: bool = False, right: bool = False):
    _check_search_arguments("bucketize", boundaries, input)
    if boundaries._data.ndim != 1:
        raise RuntimeError(f"boundaries tensor must be 1 dimension, but got dim({boundaries._data.ndim})")
    return searchsorted(boundaries, input, out_int32=out_int32, right=right)


accept_numpy_names(globals(), [n for n in __all__ if n not in _order_all])
