"""``t[index]`` and ``t[index] = value`` with PyTorch's rules, and the index_put/take/put/mask family.

Basic indices (ints, slices with positive steps, None, Ellipsis, 0-d integer tensors) give views
built step by step (``SelectBackward0``, ``SliceBackward0``, ``UnsqueezeBackward0``, or
``AliasBackward0`` when nothing changes), with PyTorch's strides and storage offsets. Advanced
indices (integer tensors, lists, NumPy arrays, bool masks) are then applied to that view as one
``index`` (a copy, ``IndexBackward0``); NumPy places the advanced dims exactly like PyTorch once
ints have become selects. ``setitem`` writes through the basic view with ``copy_``/``fill_`` (so a
view's write rebases its base with ``CopySlices``) or with ``index_put_`` for advanced indices.
"""

from __future__ import annotations

import warnings

import numpy as np

from core import _backend, _dtype
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import broadcast_shapes, check_same_device, wrap, xp_of
from core.ops.elementwise import check_inplace
from core.ops.scatter import *  # noqa: F403 - the family's second module, re-exported from here
from core.ops.scatter import __all__ as _scatter_all
from core.ops.views import make_view, unsqueeze

__all__ = ["getitem", "setitem", "index_put", "index_put_", "take", "put_", "put", "nonzero", "argwhere",
           "masked_select", "masked_scatter", "masked_scatter_"] + _scatter_all


# ----- basic-index views ----------------------------------------------------------------------

class Select(Function):
    node_name = "SelectBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, index):
        shape, strides = list(a._data.shape), list(a.stride())
        size = shape[dim]
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
        index = index + size if index < 0 else index
        ctx.args = (a._data.shape, dim, index)
        offset = a.storage_offset() + index * strides[dim]
        del shape[dim], strides[dim]
        return make_view(a, shape, strides, offset)

    @staticmethod
    def backward(ctx, g):
        shape, dim, index = ctx.args
        return ViewScatter.apply(g, shape=shape, key=(slice(None),) * dim + (index,), view=(Select, dim, index))


class Slice(Function):
    node_name = "SliceBackward0"

    @staticmethod
    def forward(ctx, a, *, dim, start, stop, step):
        shape, strides = list(a._data.shape), list(a.stride())
        size = shape[dim]
        start, stop = _clamp(0 if start is None else start, size), _clamp(size if stop is None else stop, size)
        stop = max(stop, start)
        ctx.args = (a._data.shape, dim, start, stop, step)
        offset = a.storage_offset() + start * strides[dim]
        shape[dim] = (stop - start + step - 1) // step
        strides[dim] *= step
        return make_view(a, shape, strides, offset)

    @staticmethod
    def backward(ctx, g):
        shape, dim, start, stop, step = ctx.args
        key = (slice(None),) * dim + (slice(start, stop, step),)
        return ViewScatter.apply(g, shape=shape, key=key, view=(Slice, dim, start, stop, step))


def _clamp(i: int, size: int) -> int:
    i = i + size if i < 0 else i
    return min(max(i, 0), size)


class ViewScatter(Function):
    """The backward of a select/slice: the gradient placed into zeros of the input's shape."""

    node_name = "SliceScatterBackward0"

    @staticmethod
    def forward(ctx, g, *, shape, key, view):
        ctx.view = view
        out = xp_of(g._data).zeros(shape, dtype=g._data.dtype)
        out[key] = g._data
        return out

    @staticmethod
    def backward(ctx, gg):
        cls, dim, *rest = ctx.view
        if cls is Select:
            return Select.apply(gg, dim=dim, index=rest[0])
        return Slice.apply(gg, dim=dim, start=rest[0], stop=rest[1], step=rest[2])


class Alias(Function):
    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return make_view(a, a._data.shape, a.stride(), a.storage_offset())

    @staticmethod
    def backward(ctx, g):
        return g


# ----- parsing an index -------------------------------------------------------------------------

_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
              "indices (got {})")


def _classify(item):
    """One index item as (kind, value): int, slice, none, ellipsis, bool, mask or adv (an index array)."""
    if item is None:
        return "none", None
    if item is Ellipsis:
        return "ellipsis", None
    if isinstance(item, (bool, np.bool_)):
        return "bool", bool(item)
    if isinstance(item, (int, np.integer)):
        return "int", int(item)
    if isinstance(item, slice):
        return "slice", _slice_ints(item)
    if isinstance(item, Tensor):
        return _classify_array(item._data)
    if isinstance(item, (list, tuple, np.ndarray)):
        from core._factories import tensor  # noqa: PLC0415 - nested lists may hold tensors

        arr = tensor(item)._data if not isinstance(item, np.ndarray) else item
        if arr.size == 0 and arr.dtype.kind == "f":
            arr = arr.astype(np.int64)
        return _classify_array(arr)
    raise IndexError(_BAD_INDEX.format(type(item).__name__))


def _slice_ints(s: slice):
    vals = [None if v is None else v.__index__() for v in (s.start, s.stop, s.step)]
    step = 1 if vals[2] is None else vals[2]
    if step <= 0:
        raise ValueError("step must be greater than zero")
    return vals[0], vals[1], step


def _classify_array(arr):
    kind = arr.dtype.kind
    if kind == "b" or arr.dtype == np.uint8:
        if arr.dtype == np.uint8:
            warnings.warn("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool "
                          "instead.", UserWarning, stacklevel=4)
            arr = arr.astype(bool)
        if arr.ndim == 0:
            return "bool", bool(arr)
        return "mask", arr
    if kind in "iu":
        if arr.ndim == 0:
            return "int", int(arr)
        return "adv", arr.astype(np.int64, copy=False)
    raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _parse(t: Tensor, index) -> list:
    items = [_classify(i) for i in (index if isinstance(index, tuple) else (index,))]
    used = sum(1 if k in ("int", "slice", "adv") else (v.ndim if k == "mask" else 0) for k, v in items)
    if used > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim}")
    if sum(k == "ellipsis" for k, _ in items) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    return [(k, v if k != "ellipsis" else t._data.ndim - used) for k, v in items]


def _basic(t: Tensor, items, setitem: bool):
    """Apply the basic items as views; return the view and the advanced (dim, array) pairs left."""
    out, dim, adv = t, 0, []
    for kind, val in items:
        if kind == "int":
            out = Select.apply(out, dim=dim, index=val)
        elif kind == "slice":
            if not (setitem and val[0] in (None, 0) and val[1] is None and val[2] == 1):
                out = Slice.apply(out, dim=dim, start=val[0], stop=val[1], step=val[2])
            dim += 1
        elif kind == "none" or kind == "bool":
            out = unsqueeze(out, dim)
            if kind == "bool":
                adv.append((dim, np.zeros(1 if val else 0, dtype=np.int64)))
            dim += 1
        elif kind == "ellipsis":
            dim += val
        elif kind == "mask":
            adv.extend(_mask_indices(out, dim, val))
            dim += val.ndim
        else:
            adv.append((dim, val))
            dim += 1
    return out, adv


def _mask_indices(t: Tensor, dim: int, mask):
    shape = t._data.shape
    for j, s in enumerate(mask.shape):
        if s != shape[dim + j]:
            raise IndexError(f"The shape of the mask {list(mask.shape)} at index {j} does not match the shape of "
                             f"the indexed tensor {list(shape)} at index {dim + j}")
    return [(dim + j, nz) for j, nz in enumerate(xp_of(mask).nonzero(mask))]


def _key(t: Tensor, adv):
    """The backend index tuple for ``adv`` on ``t``: bounds checked, negatives wrapped, on t's device."""
    key = [slice(None)] * t._data.ndim
    shape = t._data.shape
    for dim, arr in adv:
        if type(arr) is not type(t._data):
            arr = _backend.to_device_array(arr, t.device)
        size = shape[dim]
        if arr.size:
            lo, hi = int(arr.min()), int(arr.max())
            if hi >= size or lo < -size:
                raise IndexError(f"index {hi if hi >= size else lo} is out of bounds for dimension {dim} "
                                 f"with size {size}")
            if lo < 0:
                arr = xp_of(arr).where(arr < 0, arr + size, arr)
        key[dim] = arr
    try:
        np.broadcast_shapes(*[a.shape for _, a in adv])
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(a.shape)) for _, a in adv)) from None
    return tuple(key)


def _result_shape(shape, adv) -> tuple:
    dims = [d for d, _ in adv]
    bshape = np.broadcast_shapes(*[a.shape for _, a in adv])
    if dims == list(range(dims[0], dims[-1] + 1)):
        return tuple(shape[:dims[0]]) + bshape + tuple(shape[dims[-1] + 1:])
    return bshape + tuple(s for i, s in enumerate(shape) if i not in dims)


# ----- index / index_put --------------------------------------------------------------------------

class Index(Function):
    node_name = "IndexBackward0"

    @staticmethod
    def forward(ctx, a, *, adv):
        key = _key(a, adv)
        ctx.adv = tuple((d, k) for d, k in zip((d for d, _ in adv), (key[d] for d, _ in adv)))
        ctx.in_shape = a._data.shape
        res = a._data[key]
        return xp_of(res).empty(res.shape, dtype=res.dtype) if res.size == 0 else xp_of(res).ascontiguousarray(res)

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros  # noqa: PLC0415

        base = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
        return IndexPut.apply(base, g, adv=ctx.adv, accumulate=True, inplace=False)


class IndexPut(Function):
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, self, values, *, adv, accumulate, inplace):
        key = _key(self, adv)
        ctx.adv = tuple((d, key[d]) for d, _ in adv)
        ctx.accumulate = accumulate
        ctx.values_shape = values._data.shape
        target = self._data if inplace else self._data.copy()
        _write(target, key, _values_for(values, target, _result_shape(target.shape, adv)), accumulate)
        if inplace:
            ctx.mark_dirty(self)
            return self
        return target

    @staticmethod
    def backward(ctx, g):
        from core.ops import reshape, zeros  # noqa: PLC0415
        from core.ops._util import sum_to  # noqa: PLC0415

        gself = gvals = None
        if ctx.needs_input_grad[0]:
            zero = zeros((), dtype=g.dtype, device=g.device)
            gself = g if ctx.accumulate else IndexPut.apply(g, zero, adv=ctx.adv, accumulate=False, inplace=False)
        if ctx.needs_input_grad[1]:
            vshape = ctx.values_shape
            gv = Index.apply(g, adv=ctx.adv)
            stripped = _strip_ones(vshape, gv._data.ndim)
            gvals = reshape(sum_to(gv, stripped), vshape)
        return gself, gvals


def _strip_ones(shape, ndim: int) -> tuple:
    shape = tuple(shape)
    while len(shape) > ndim and shape[0] == 1:
        shape = shape[1:]
    return shape


def _values_for(values: Tensor, target, rshape):
    """``values`` as an array broadcast to the indexing result (leading 1s dropped, like PyTorch)."""
    v = values._data
    if type(v) is not type(target):
        v = _backend.to_device_array(v, _backend.device_of_array(target))
    v = v.reshape(_strip_ones(v.shape, len(rshape)))
    try:
        return xp_of(target).broadcast_to(v, rshape)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
                           f"indexing result of shape {list(rshape)}") from None


def _write(target, key, v, accumulate: bool) -> None:
    xp = xp_of(target)
    v = v.astype(target.dtype, copy=False)
    if accumulate:
        if target.dtype == np.bool_:
            xp.logical_or.at(target, key, v)
        else:
            xp.add.at(target, key, v)
    else:
        target[key] = v


def _adv_of(t: Tensor, indices) -> list:
    if not isinstance(indices, (tuple, list)):
        raise TypeError("index_put(): argument 'indices' must be tuple of Tensors")
    if len(indices) > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim} (got {len(indices)})")
    items = [("slice", (None, None, 1)) if i is None else _classify(i) for i in indices]
    items = [("adv", np.asarray(v, dtype=np.int64)) if k == "int" else (k, v) for k, v in items]
    return _basic(t, items, setitem=True)[1]


def _values_tensor(self: Tensor, values) -> Tensor:
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' must be Tensor, not {type(values).__name__}")
    check_same_device(self, values)
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {_name(self)} for "
                           f"the destination and {_name(values)} for the source.")
    return values


def _name(t: Tensor) -> str:
    from core.ops.elementwise import _TYPE_NAMES  # noqa: PLC0415

    return _TYPE_NAMES[t.dtype.name]


def index_put(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    adv = _adv_of(input, indices)
    if not adv:
        return input.clone().copy_(values)
    return IndexPut.apply(input, _values_tensor(input, values), adv=adv, accumulate=bool(accumulate), inplace=False)


def index_put_(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    adv = _adv_of(input, indices)
    values = _values_tensor(input, values)
    check_inplace(input)
    if not adv:
        return input.copy_(values)
    return IndexPut.apply(input, values, adv=adv, accumulate=bool(accumulate), inplace=True)


# ----- __getitem__ / __setitem__ ------------------------------------------------------------------

def getitem(t: Tensor, index) -> Tensor:
    if t._data.ndim == 0 and not isinstance(index, tuple) and index is not None and index is not Ellipsis \
            and not isinstance(index, (bool, Tensor, list, np.ndarray)):
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")
    out, adv = _basic(t, _parse(t, index), setitem=False)
    if adv:
        return Index.apply(out, adv=adv)
    return Alias.apply(t) if out is t else out


def setitem(t: Tensor, index, value) -> None:
    from core.ops.conversion import to  # noqa: PLC0415

    target, adv = _basic(t, _parse(t, index), setitem=True)
    if isinstance(value, Tensor):
        check_same_device(t, value)
        if value.device is not t.device:
            value = to(value, t.device)
        value = to(value, t.dtype)
    else:
        from core._factories import tensor  # noqa: PLC0415

        value = tensor(value, dtype=t.dtype, device=t.device)
    if adv:
        check_inplace(target)
        IndexPut.apply(target, value, adv=adv, accumulate=False, inplace=True)
    elif value._data.ndim == 0:
        target.fill_(value)
    else:
        from core.ops.views import reshape  # noqa: PLC0415

        stripped = _strip_ones(value.shape, target._data.ndim)
        target.copy_(reshape(value, stripped) if stripped != tuple(value.shape) else value)


# ----- flat take / put ----------------------------------------------------------------------------

def _flat_index(input: Tensor, index: Tensor, what: str):
    if not isinstance(index, Tensor) or index.dtype is not _dtype.int64:
        raise RuntimeError(f"{what}(): Expected a long tensor for index, but got "
                           f"{_name(index) if isinstance(index, Tensor) else type(index).__name__}")
    check_same_device(input, index)
    n = input._data.size
    arr = index._data
    if arr.size:
        lo, hi = int(arr.min()), int(arr.max())
        if hi >= n or lo < -n:
            raise IndexError(f"out of range: tried to access index {hi if hi >= n else lo} on a tensor of {n} "
                             "elements.")
    return xp_of(arr).where(arr < 0, arr + n, arr)


class Take(Index):
    node_name = "TakeBackward0"


def take(input: Tensor, index: Tensor) -> Tensor:
    from core.ops.views import reshape  # noqa: PLC0415

    flat = _flat_index(input, index, "take")
    return Take.apply(reshape(input, -1), adv=[(0, flat)])


class Put(IndexPut):
    node_name = "PutBackward0"


def _unravel(input: Tensor, flat):
    xp = xp_of(flat)
    return [(d, a) for d, a in enumerate(xp.unravel_index(flat, input._data.shape))] if input._data.ndim else []


def put_(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    from core.ops.views import reshape  # noqa: PLC0415

    flat = _flat_index(input, index, "put_")
    if source._data.size != flat.size:
        raise RuntimeError(f"put_(): Expected source and index to have the same number of elements, but got "
                           f"source.numel() = {source._data.size}, index.numel() = {flat.size}")
    check_inplace(input)
    source = reshape(_values_tensor(input, source), flat.shape)
    if input._data.ndim == 0:
        return input.copy_(reshape(source, ())) if flat.size else input
    return Put.apply(input, source, adv=_unravel(input, flat), accumulate=bool(accumulate), inplace=True)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    return put_(input.clone(), index, source, accumulate)


# ----- masks ------------------------------------------------------------------------------------

def nonzero(input: Tensor, *, as_tuple: bool = False, out=None):
    x = input._data
    xp = xp_of(x)
    idx = xp.nonzero(x.reshape(1) if x.ndim == 0 else x)
    if as_tuple:
        return tuple(wrap(i.astype(np.int64)) for i in idx)
    if x.ndim == 0:
        return wrap(xp.zeros((idx[0].size, 0), dtype=np.int64))
    return wrap(xp.stack(idx, axis=1).astype(np.int64) if idx else xp.zeros((0, 0), dtype=np.int64))


def argwhere(input: Tensor) -> Tensor:
    return nonzero(input)


def _check_mask(mask, what: str) -> None:
    if not isinstance(mask, Tensor) or mask.dtype is not _dtype.bool:
        raise RuntimeError(f"{what}: expected BoolTensor for mask")


class MaskedSelect(Function):
    node_name = "MaskedSelectBackward0"

    @staticmethod
    def forward(ctx, a, *, mask):
        xp = xp_of(a._data)
        shape = broadcast_shapes(a._data.shape, mask._data.shape)
        m = xp.broadcast_to(mask._data, shape)
        ctx.shape = shape
        ctx.adv = tuple(enumerate(xp.nonzero(m)))
        return xp.broadcast_to(a._data, shape)[m]

    @staticmethod
    def backward(ctx, g):
        from core.ops import zeros  # noqa: PLC0415

        base = zeros(ctx.shape, dtype=g.dtype, device=g.device)
        return IndexPut.apply(base, g, adv=ctx.adv, accumulate=False, inplace=False) if ctx.adv else base


def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    _check_mask(mask, "masked_select")
    check_same_device(input, mask)
    return MaskedSelect.apply(input, mask=mask)


class MaskedScatter(Function):
    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx, a, source, *, mask, inplace):
        xp = xp_of(a._data)
        m = xp.broadcast_to(mask._data, a._data.shape)
        count = int(m.sum())
        if source._data.size < count:
            raise RuntimeError("masked_scatter: expected source to have at least as many elements as ones in mask")
        ctx.adv = tuple(enumerate(xp.nonzero(m)))
        ctx.count, ctx.source_shape = count, source._data.shape
        target = a._data if inplace else a._data.copy()
        target[m] = source._data.reshape(-1)[:count].astype(target.dtype)
        if inplace:
            ctx.mark_dirty(a)
            return a
        return target

    @staticmethod
    def backward(ctx, g):
        from core.ops import arange, reshape, zeros  # noqa: PLC0415

        gself = gsrc = None
        if ctx.needs_input_grad[0]:
            zero = zeros((), dtype=g.dtype, device=g.device)
            gself = IndexPut.apply(g, zero, adv=ctx.adv, accumulate=False, inplace=False) if ctx.adv else g
        if ctx.needs_input_grad[1]:
            n = int(np.prod(ctx.source_shape))
            flat = zeros(n, dtype=g.dtype, device=g.device)
            if ctx.count:
                picked = Index.apply(g, adv=ctx.adv)
                first = ((0, arange(ctx.count, device=g.device)._data),)
                flat = IndexPut.apply(flat, picked, adv=first, accumulate=False, inplace=False)
            gsrc = reshape(flat, ctx.source_shape)
        return gself, gsrc


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    from core.ops.views import expand  # noqa: PLC0415

    _check_mask(mask, "masked_scatter_")
    shape = broadcast_shapes(input._data.shape, mask._data.shape)
    src = input if tuple(input.shape) == shape else expand(input, shape)
    return MaskedScatter.apply(src, _values_tensor(input, source), mask=mask, inplace=False)


def masked_scatter_(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    _check_mask(mask, "masked_scatter_")
    check_same_device(input, mask)
    shape = broadcast_shapes(input._data.shape, mask._data.shape)
    if shape != input._data.shape:
        raise RuntimeError(f"output with shape {list(input.shape)} doesn't match the broadcast shape {list(shape)}")
    source = _values_tensor(input, source)
    check_inplace(input)
    return MaskedScatter.apply(input, source, mask=mask, inplace=True)
