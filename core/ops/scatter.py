"""Gather and scatter along a dim with an N-d index: gather, scatter(_add/_reduce), take_along_dim.

Re-exported by ``core.ops.indexing`` (the family's public module). gather's backward is a
scatter_add and scatter_add's is a gather, so gradients stay differentiable. ``ufunc_at`` is the
one place where repeated indices are combined (NumPy's ``ufunc.at``; a sort-based fallback for
CuPy, whose ``at`` covers few ufuncs).
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._factories import zeros
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._saved_attrs import given, index_tensor
from core.ops._util import broadcast_shapes, check_same_device, normalize_dim, xp_of
from core.ops.elementwise import _out, check_inplace, check_no_partial_overlap
from core.ops.out_arg import check_out_dtypes
from core.ops.views import expand, reshape

__all__ = ["gather", "scatter", "scatter_", "scatter_add", "scatter_add_", "scatter_reduce", "scatter_reduce_",
           "take_along_dim"]


def ufunc_at(name: str, target, key, values, native: bool = True) -> None:
    """``getattr(xp, name).at(target, key, values)``: combine values at repeated positions in place."""
    xp = xp_of(target)
    ufunc = getattr(xp, name)
    if native and xp is np:
        if not (isinstance(key, tuple) and target.size and (_flat_at(ufunc, target, key, values)
                                                             or _rows_at(ufunc, target, key, values))):
            ufunc.at(target, key, values)
        return
    pos = xp.arange(target.size).reshape(target.shape)[key]
    vals = xp.broadcast_to(xp.asarray(values, dtype=target.dtype), pos.shape).reshape(-1)
    pos = pos.reshape(-1)
    order = xp.argsort(pos)
    pos, vals = pos[order], vals[order]
    first = xp.concatenate([xp.ones(min(pos.size, 1), dtype=bool), pos[1:] != pos[:-1]])
    starts = xp.nonzero(first)[0]
    rank = xp.arange(pos.size) - starts[xp.cumsum(first) - 1]
    for r in range(int(rank.max()) + 1 if pos.size else 0):  # one round per repeat: no collisions in a round
        sel = rank == r
        coords = xp.unravel_index(pos[sel], target.shape)
        target[coords] = ufunc(target[coords], vals[sel])

def _in_bounds(idx, size: int):
    """``idx`` as int64 with negatives wrapped, or None where some index is out of range (``ufunc.at`` raises)."""
    if not idx.size or not np.issubdtype(idx.dtype, np.integer):
        return None
    lo, hi = int(idx.min()), int(idx.max())
    if lo < -size or hi >= size:
        return None
    idx = idx.astype(np.int64, copy=False)
    return np.where(idx < 0, idx + size, idx) if lo < 0 else idx


def _flat_at(ufunc, target, key, values) -> bool:
    """``ufunc.at`` with one index array per dim (gather's key) as NumPy's 1-D ``at`` on flat positions: the same
    elements combined in the same order (the key's C order), ~3x faster than the N-d key's general loop."""
    if len(key) != target.ndim or not target.flags.c_contiguous or not all(type(k) is np.ndarray for k in key) \
            or np.may_share_memory(target, values):
        return False
    pos = np.zeros((), np.int64)
    for k, size in zip(key, target.shape):
        k = _in_bounds(k, size)
        if k is None:
            return False
        pos = pos * size + k
    try:
        shape = np.broadcast_shapes(*(k.shape for k in key))
        vals = values if _weak(values) else np.broadcast_to(values, shape).reshape(-1)
    except ValueError:
        return False
    ufunc.at(target.reshape(-1), np.broadcast_to(pos, shape).reshape(-1), vals)
    return True


def _weak(values) -> bool:
    """A Python number, which takes the target's dtype in the ufunc (NumPy's weak scalars): kept as it is."""
    return not isinstance(values, (np.ndarray, np.generic))


_ROUND_COST = 2048  # a round's fixed cost in elements combined (~10 us); 0 takes the rounds always (tests)


def _rows_at(ufunc, target, key, values) -> bool:
    """``ufunc.at`` with one 1-D index along a dim and whole slices elsewhere (index_add's key) as a few rounds of
    plain indexing: round r combines each index's r-th repeat, so every slice still takes its values in the
    index's order (ufunc.at's), with no repeat within a round. Taken where the rounds are few against the data."""
    arrays = [d for d, k in enumerate(key) if type(k) is np.ndarray]
    if len(arrays) != 1 or len(key) > target.ndim or key[arrays[0]].ndim != 1 \
            or any(not (isinstance(k, slice) and k == slice(None)) for k in key if type(k) is not np.ndarray):
        return False
    dim = arrays[0]
    idx = _in_bounds(key[dim], target.shape[dim])
    if idx is None:
        return False
    full = target.shape[:dim] + (idx.size,) + target.shape[dim + 1:]
    if _weak(values):
        vals = None
    elif np.may_share_memory(target, values):  # (the values read as ufunc.at reads them, not between rounds)
        return False
    else:
        try:
            vals = np.broadcast_to(values, full)
        except ValueError:
            return False
    order = np.argsort(idx, kind="stable")
    first = np.ones(idx.size, bool)
    first[1:] = idx[order[1:]] != idx[order[:-1]]
    rank = np.empty(idx.size, np.int64)
    rank[order] = np.arange(idx.size) - np.flatnonzero(first)[np.cumsum(first) - 1]
    rounds = int(rank.max()) + 1
    if _ROUND_COST and rounds * (_ROUND_COST + idx.size) > np.prod(full):
        return False
    lead = (slice(None),) * dim
    for r in range(rounds):
        sel = np.flatnonzero(rank == r) if rounds > 1 else slice(None)
        at = lead + (idx[sel],)
        target[at] = ufunc(target[at], values if vals is None else vals[lead + (sel,)])
    return True

# ----- gather / scatter ---------------------------------------------------------------------------

def _gather_key(idx, dim: int) -> tuple:
    """Full index arrays: ``idx`` along ``dim``, the position itself along every other dim."""
    xp = xp_of(idx)
    nd = idx.ndim
    return tuple(idx if d == dim else xp.arange(idx.shape[d]).reshape([-1 if i == d else 1 for i in range(nd)])
                 for d in range(nd))


def _check_gather(what: str, input: Tensor, dim, index, src=None):
    """Wrapped dim and the checked int64 index array (as an N-d array, even for 0-d inputs)."""
    nd = input._data.ndim
    dim = normalize_dim(dim, nd)
    if not isinstance(index, Tensor) or index.dtype not in (_dtype.int64, _dtype.int32) and index._data.size:
        raise RuntimeError(f"{what}(): Expected dtype int32/int64 for index")  # NOTE: an empty one is not checked
    check_same_device(input, index, *([src] if isinstance(src, Tensor) else []))
    idx = index._data
    if max(idx.ndim, 1) != max(nd, 1) and idx.size:  # NOTE: a 0-d tensor counts as 1-d, on either side
        raise RuntimeError("Index tensor must have the same number of dimensions as "
                           f"{'input' if what == 'gather' else 'self'} tensor")
    shape = input._data.shape if nd else (1,)
    idx = idx.reshape(-1) if idx.ndim == 0 else idx
    for d in range(idx.ndim if idx.size else 0):  # (torch checks no sizes of an empty index)
        if d != dim and idx.shape[d] > shape[d]:
            raise RuntimeError(f"Size does not match at dimension {d} expected index {list(index.shape)} to be no "
                               f"larger than self {list(input.shape)} apart from dimension {dim}")
        if isinstance(src, Tensor) and src._data.ndim == nd and idx.shape[d] > (src._data.shape or (1,))[d]:
            raise RuntimeError(f"Expected index {list(index.shape)} to be no larger than src {list(src.shape)} "
                               f"apart from dimension {dim} and to be no larger size than self "
                               f"{list(input.shape)}")
    if idx.size:
        lo, hi = int(idx.min()), int(idx.max())
        if hi >= shape[dim] or lo < 0:  # PyTorch's kernel names the first bad index in the index's order
            flat = idx.reshape(-1)
            bad = int(flat[np.argmax((flat < 0) | (flat >= shape[dim]))])
            raise RuntimeError(f"index {bad} is out of bounds for dimension {dim} with size {shape[dim]}")
    return dim, idx.astype(np.int64, copy=False)


class Gather(Function):
    node_name = "GatherBackward0"
    _saved_dim = given(0, lambda c: c["args"][1])
    _saved_index = given(1, lambda c: index_tensor(c["args"][2]), tensor=True)
    _saved_self, _saved_sparse_grad = given(2, tensor=True), given(3)

    @staticmethod
    def forward(ctx, a, *, dim, idx, shape=None, given=None):
        ctx.args, ctx.given = (a._data.shape, dim, idx), given
        x = a._data.reshape(1) if a._data.ndim == 0 else a._data
        if not idx.size:  # (of any number of dims: an empty index takes nothing)
            return xp_of(x).empty(idx.shape if shape is None else shape, dtype=x.dtype)
        out = x[_gather_key(idx, dim)]
        return out if shape is None else out.reshape(shape)

    @staticmethod
    def backward(ctx, g):
        shape, dim, idx = ctx.args
        if not idx.size:
            return zeros(shape, dtype=g.dtype, device=g.device)
        g = g if g._data.shape == idx.shape else reshape(g, idx.shape)
        return ScatterAdd.apply(zeros(shape, dtype=g.dtype, device=g.device), g, dim=dim, idx=idx, inplace=False)


def gather(input: Tensor, dim, index: Tensor, *, sparse_grad: bool = False, out=None) -> Tensor:
    given_dim = dim
    dim, idx = _check_gather("gather", input, dim, index)
    shape = None if input._data.ndim and index.ndim else tuple(index.shape)
    result = Gather.apply(input, dim=dim, idx=idx, shape=shape, given=(given_dim, index, input, sparse_grad))
    if out is None:
        return result
    check_out_dtypes(result, out)
    check_no_partial_overlap(out, input, same_is_fine=False)  # as torch's gather: out may not share input's memory
    return _out(result, out, index)


def _src_part(src, idx):
    """The leading block of ``src`` that ``idx`` covers (scatter reads only that much)."""
    s = src.reshape(1) if src.ndim == 0 else src
    if s.ndim != idx.ndim:
        return s
    return s[tuple(slice(0, n) for n in idx.shape)]


def _embed(g: Tensor, shape) -> Tensor:
    """``g`` placed at the start of zeros of ``shape`` (the gradient of taking a leading block)."""
    from core.ops.index_primitives import Slice, ViewScatter  # index_primitives imports this module

    if not shape:
        return reshape(g, ())
    for d, (n, full) in enumerate(zip(g.shape, shape)):
        if n != full:
            target = tuple(g.shape[:d]) + (full,) + tuple(g.shape[d + 1:])
            g = ViewScatter.apply(g, shape=target, key=(slice(None),) * d + (slice(0, n, 1),),
                                  view=(Slice, d, 0, n, 1))
    return g


class Scatter(Function):
    node_name = "ScatterBackward0"
    _saved_dim = given(0, lambda c: c["args"][0])
    _saved_index = given(1, lambda c: index_tensor(c["args"][1]), tensor=True)

    @staticmethod
    def forward(ctx, a, *src, dim, idx, value, reduce, inplace, given=None):
        ctx.args, ctx.given = (dim, idx, src[0]._data.shape if src else None), given
        target = a._data if inplace else a._data.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        key = _gather_key(idx, dim)
        v = _src_part(src[0]._data, idx) if src else np.asarray(value)
        v = xp_of(target).asarray(v).astype(target.dtype, copy=False)
        if reduce is None:
            t2[key] = v
        else:
            ufunc_at("add" if reduce == "add" else "multiply", t2, key, xp_of(t2).broadcast_to(v, idx.shape))
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, src_shape = ctx.args
        gself = Scatter.apply(g, dim=dim, idx=idx, value=0, reduce=None, inplace=False) \
            if ctx.needs_input_grad[0] else None
        if src_shape is None:
            return gself
        gsrc = _embed(Gather.apply(g, dim=dim, idx=idx), src_shape) if ctx.needs_input_grad[1] else None
        return gself, gsrc


class ScatterValue(Scatter):
    node_name = "ScatterBackward1"


def _scatter(what, input, dim, index, src, value, reduce, inplace):
    # NOTE: torch's messages name every scatter variant (in place, add, reduce) "scatter()"; so does ``what``
    if reduce not in (None, "add", "multiply"):
        raise RuntimeError(f"reduce argument must be either add or multiply. Got {reduce}")
    if src is not None and not isinstance(src, Tensor):
        src, value = None, src
    shown = (dim, index)  # (grad_fn._saved_dim/_saved_index: as the call gave them)
    dim, idx = _check_gather(what, input, dim, index, src)
    if isinstance(src, Tensor) and src.dtype is not input.dtype:
        raise RuntimeError(f"{what}(): Expected self.dtype to be equal to src.dtype")
    if inplace:
        check_inplace(input)
    if src is None:
        return ScatterValue.apply(input, dim=dim, idx=idx, value=value, reduce=reduce, inplace=inplace, given=shown)
    return Scatter.apply(input, src, dim=dim, idx=idx, value=None, reduce=reduce, inplace=inplace, given=shown)


def scatter(input: Tensor, dim, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    return _scatter("scatter", input, dim, index, src, value, reduce, False)


def scatter_(input: Tensor, dim, index: Tensor, src=None, *, value=None, reduce=None) -> Tensor:
    return _scatter("scatter", input, dim, index, src, value, reduce, True)


class ScatterAdd(Function):
    node_name = "ScatterAddBackward0"
    _saved_dim = given(0, lambda c: c["args"][0])
    _saved_index = given(1, lambda c: index_tensor(c["args"][1]), tensor=True)

    @staticmethod
    def forward(ctx, a, src, *, dim, idx, inplace, given=None):
        ctx.args, ctx.given = (dim, idx, src._data.shape), given
        target = a._data if inplace else a._data.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        v = _src_part(src._data, idx).astype(target.dtype, copy=False)
        ufunc_at("add", t2, _gather_key(idx, dim), v)
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, src_shape = ctx.args
        gsrc = _embed(Gather.apply(g, dim=dim, idx=idx), src_shape) if ctx.needs_input_grad[1] else None
        return g, gsrc


def _scatter_add(what, input, dim, index, src, inplace):
    shown = (dim, index)
    dim, idx = _check_gather(what, input, dim, index, src)
    if src.dtype is not input.dtype:
        raise RuntimeError(f"{what}(): Expected self.dtype to be equal to src.dtype")
    if inplace:
        check_inplace(input)
    return ScatterAdd.apply(input, src, dim=dim, idx=idx, inplace=inplace, given=shown)


def scatter_add(input: Tensor, dim, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add("scatter", input, dim, index, src, False)


def scatter_add_(input: Tensor, dim, index: Tensor, src: Tensor) -> Tensor:
    return _scatter_add("scatter", input, dim, index, src, True)


def take_along_dim(input: Tensor, indices: Tensor, dim=None) -> Tensor:
    """``gather`` after broadcasting input and indices over every dim but ``dim`` (flat when dim is None)."""
    if not isinstance(indices, Tensor):
        raise TypeError(f"take_along_dim(): argument 'indices' must be Tensor, not {type(indices).__name__}")
    if dim is None:
        return gather(reshape(input, -1), 0, reshape(indices, -1))
    nd = input._data.ndim
    if indices._data.ndim != nd:
        raise RuntimeError("torch.take_along_dim(): input and indices should have the same number of dimensions, "
                           f"but got {nd} dimensions for input, and {indices._data.ndim} dimensions for indices")
    dim = normalize_dim(dim, nd)
    ishape, jshape = list(input.shape), list(indices.shape)
    ishape[dim] = jshape[dim] = 1
    b = list(broadcast_shapes(ishape, jshape))
    in_shape, idx_shape = b.copy(), b.copy()
    in_shape[dim], idx_shape[dim] = input.shape[dim], indices.shape[dim]
    inp = input if list(input.shape) == in_shape else expand(input, in_shape)
    ind = indices if list(indices.shape) == idx_shape else expand(indices, idx_shape)
    if in_shape[dim]:  # NOTE: PyTorch's wraps the indices modulo the dim's size (-1 is the last, size is the first)
        ind = ind % in_shape[dim]
    return gather(inp, dim, ind)


# ----- scatter_reduce -----------------------------------------------------------------------------

_UFUNC = {"sum": "add", "mean": "add", "prod": "multiply", "amax": "maximum", "amin": "minimum"}


def _identity(reduce: str, dt):
    if reduce in ("sum", "mean"):
        return 0
    if reduce == "prod":
        return 1
    lo_hi = (-np.inf, np.inf) if dt.kind in "fV" else ((False, True) if dt.kind == "b" else
                                                      (np.iinfo(dt).min, np.iinfo(dt).max))
    return lo_hi[0] if reduce == "amax" else lo_hi[1]


class ScatterReduce(Function):
    node_name = "ScatterReduceBackward0"

    @staticmethod
    def forward(ctx, a, src, *, dim, idx, reduce, include_self, inplace):
        x, s = a._data, _src_part(src._data, idx)
        xp = xp_of(x)
        before = x.copy() if inplace and reduce in ("amax", "amin", "prod") else None  # (self's values, for backward)
        target = x if inplace else x.copy()
        t2 = target.reshape(1) if target.ndim == 0 else target
        key = _gather_key(idx, dim)
        if not include_self:
            t2[key] = _identity(reduce, target.dtype)
        ufunc_at(_UFUNC[reduce], t2, key, s.astype(target.dtype, copy=False))
        count = xp.full(t2.shape, 1 if include_self else 0, dtype=np.int64)
        ufunc_at("add", count, key, 1)
        if not include_self:
            count = xp.where(count == 0, 1, count)  # untouched positions keep self
        if reduce == "mean":
            t2[...] = t2 // count if t2.dtype.kind in "iu" else t2 / count
        ctx.args = (dim, idx, reduce, src._data.shape, count, include_self)
        if reduce in ("amax", "amin", "prod"):
            ctx.save_for_backward(a if not inplace else Tensor._wrap(before), src)
            ctx.result = t2.copy()
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        dim, idx, reduce, src_shape, count, include_self = ctx.args
        mask = _scattered_mask(g, dim, idx, include_self)
        if reduce in ("sum", "mean"):
            gg = g if reduce == "sum" else g / Tensor._wrap(count.astype(g._data.dtype))
            gself = gg * mask
            gsrc = Gather.apply(gg, dim=dim, idx=idx)
        else:
            self_, src = ctx._unpacked
            gself, gsrc = _minmax_prod_grads(ctx, g, self_, src, mask)
        return gself, _embed(gsrc, src_shape)


def _scattered_mask(g, dim, idx, include_self) -> Tensor:
    """1 where self's value takes part in the result (always, or only where nothing was scattered)."""
    xp = xp_of(g._data)
    m = xp.ones(g._data.shape, dtype=g._data.dtype)
    if not include_self:
        (m.reshape(1) if m.ndim == 0 else m)[_gather_key(idx, dim)] = 0
    return Tensor._wrap(m)


def _scattered_product(base, key, values, include_self):
    """``base`` (or ones, without ``include_self``, where something is scattered) times ``values`` at ``key``."""
    out = base.copy()
    flat = out.reshape(1) if out.ndim == 0 else out
    if not include_self:
        flat[key] = 1
    ufunc_at("multiply", flat, key, values.astype(out.dtype, copy=False))
    return out


def _minmax_prod_grads(ctx, g, self_, src, mask):
    """amax/amin: the gradient split evenly between ties; prod: result / value (nonzero values)."""
    dim, idx, reduce = ctx.args[:3]
    xp = xp_of(g._data)
    res = ctx.result.reshape(g._data.shape)
    s = _src_part(src._data, idx)
    if reduce == "prod":  # NOTE: torch's scatter_reduce_backward, which takes zeros apart
        from core.ops.comparison import where as core_where

        key, include_self = _gather_key(idx, dim), ctx.args[5]
        x = self_._data.reshape(res.shape)
        with np.errstate(divide="ignore", invalid="ignore"):
            masked_self = xp.where(x == 0, 1, x).astype(res.dtype)  # a zero self gets the product of the rest
            gself = g * Tensor._wrap(_scattered_product(masked_self, key, s, include_self) / masked_self) * mask
            src_zero = s == 0
            zeros = xp.zeros(res.shape, dtype=np.int64)
            ufunc_at("add", zeros.reshape(1) if zeros.ndim == 0 else zeros, key, src_zero.astype(np.int64))
            single = src_zero & ((zeros.reshape(1) if zeros.ndim == 0 else zeros)[key] == 1)  # the only zero there
            others = _scattered_product(x.astype(res.dtype), key, xp.where(single, 1, s), include_self)
            gsrc = Gather.apply(g * Tensor._wrap(res), dim=dim, idx=idx) / Tensor._wrap(xp.where(src_zero, 1, s))
            gsrc = core_where(Tensor._wrap(single), Gather.apply(g * Tensor._wrap(others), dim=dim, idx=idx), gsrc)
        return gself, gsrc
    self_hit = (self_._data == res).astype(g._data.dtype)  # NOTE: counted in the ties even when masked, as torch
    src_hit = (s == (res.reshape(1) if res.ndim == 0 else res)[_gather_key(idx, dim)]).astype(g._data.dtype)
    n = self_hit.copy()
    ufunc_at("add", n.reshape(1) if n.ndim == 0 else n, _gather_key(idx, dim), src_hit)
    gn = g / Tensor._wrap(xp.where(n == 0, 1, n))
    return gn * Tensor._wrap(self_hit * mask._data), Gather.apply(gn, dim=dim, idx=idx) * Tensor._wrap(src_hit)


def _scatter_reduce(what, input, dim, index, src, reduce, include_self, inplace):
    reduce = {"max": "amax", "min": "amin"}.get(reduce, reduce)
    if reduce not in _UFUNC:
        raise RuntimeError(f"reduce argument must be either sum, prod, mean, amax or amin, got {reduce}")
    dim, idx = _check_gather(what, input, dim, index, src)
    if src.dtype is not input.dtype:
        raise RuntimeError(f"{what}(): Expected self.dtype to be equal to src.dtype")
    if inplace:
        check_inplace(input)
    return ScatterReduce.apply(input, src, dim=dim, idx=idx, reduce=reduce, include_self=bool(include_self),
                               inplace=inplace)


def scatter_reduce(input: Tensor, dim, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True):
    return _scatter_reduce("scatter", input, dim, index, src, reduce, include_self, False)


def scatter_reduce_(input: Tensor, dim, index: Tensor, src: Tensor, reduce: str, *, include_self: bool = True):
    return _scatter_reduce("scatter", input, dim, index, src, reduce, include_self, True)
