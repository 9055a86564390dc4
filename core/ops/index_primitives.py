"""The primitives under ``t[index]``: basic-index views and the advanced ``index``/``index_put``.

Basic indices (ints, slices with positive steps, None, Ellipsis, 0-d integer tensors) give views
built step by step (``SelectBackward0``, ``SliceBackward0``, ``UnsqueezeBackward0``, or
``AliasBackward0`` when nothing changes), with PyTorch's strides and storage offsets. Advanced
indices (integer tensors, lists, NumPy arrays, bool masks) are then applied to that view as one
``index`` (a copy, ``IndexBackward0``); NumPy places the advanced dims exactly like PyTorch once
ints have become selects. ``index_put`` (``IndexPutBackward0``) is its transpose.
"""

from __future__ import annotations

import numpy as np

from core import _backend
from core._arg_types import tp_name
from core._factories import tensor, zeros, zeros_like
from core._memory_format import _broadcast_strides, empty_strided_array, iterator_strides
from core._tensor import Tensor
from core._user_warning import warn_user
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._saved_attrs import index_tensor
from core.ops._strided import copy_preserving_layout
from core.ops._util import check_same_device, sum_to, xp_of
from core.ops.elementwise import _TYPE_NAMES
from core.ops.scatter import ufunc_at
from core.ops.views import make_view, numpy_view, reshape, unsqueeze

__all__ = ["Select", "Slice", "ViewScatter", "Alias", "Index", "IndexPut", "parse_index", "apply_basic",
           "strip_ones", "values_tensor", "classify", "type_name"]


# ----- basic-index views ----------------------------------------------------------------------

class Select(Function):
    node_name = "SelectBackward0"
    _saved_dim = SavedFromCtx(lambda c: c["args"][1])
    _saved_index = SavedFromCtx(lambda c: c["raw_index"])
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["args"][0])

    @staticmethod
    def forward(ctx, a, *, dim, index):
        shape, strides = list(a._data.shape), list(a.stride())
        size = shape[dim]
        if not -size <= index < size:
            raise IndexError(f"index {index} is out of bounds for dimension {dim} with size {size}")
        ctx.raw_index = index
        index = index + size if index < 0 else index
        ctx.args = (a._data.shape, dim, index)
        fast = numpy_view(a, (slice(None),) * dim + (index, Ellipsis))  # Ellipsis: a 0-d result stays an array
        if fast is not None:
            return fast
        shift = index * strides[dim]
        del shape[dim], strides[dim]
        return make_view(a, shape, strides, shift=shift)

    @staticmethod
    def backward(ctx, g):
        shape, dim, index = ctx.args
        return SelectBackward.apply(g, shape=shape, key=(slice(None),) * dim + (index,), view=(Select, dim, index))

    jvp = linear_jvp


class Slice(Function):
    node_name = "SliceBackward0"
    _saved_dim = SavedFromCtx(lambda c: c["args"][1])
    _saved_start = SavedFromCtx(lambda c: c["raw"][0])  # as indexing gave them (None: 0 and INT64_MAX)
    _saved_end = SavedFromCtx(lambda c: c["raw"][1])
    _saved_step = SavedFromCtx(lambda c: c["args"][4])
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["args"][0])

    @staticmethod
    def forward(ctx, a, *, dim, start, stop, step):
        ctx.raw = (0 if start is None else start, 2 ** 63 - 1 if stop is None else stop)
        shape, strides = list(a._data.shape), list(a.stride())
        size = shape[dim]
        start, stop = _clamp(0 if start is None else start, size), _clamp(size if stop is None else stop, size)
        stop = max(stop, start)
        ctx.args = (a._data.shape, dim, start, stop, step)
        fast = numpy_view(a, (slice(None),) * dim + (slice(start, stop, step),))
        if fast is not None:
            return fast
        shift = start * strides[dim]
        shape[dim] = (stop - start + step - 1) // step
        strides[dim] *= step
        return make_view(a, shape, strides, shift=shift)

    @staticmethod
    def backward(ctx, g):
        shape, dim, start, stop, step = ctx.args
        key = (slice(None),) * dim + (slice(start, stop, step),)
        return SliceBackward.apply(g, shape=shape, key=key, view=(Slice, dim, start, stop, step))

    jvp = linear_jvp


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

    jvp = linear_jvp


class SelectBackward(ViewScatter):
    """A select's backward as an op of its own: recorded under create_graph as torch's ``select_backward``."""

    node_name = "SelectBackwardBackward0"


class SliceBackward(ViewScatter):
    """A slice's backward as an op of its own: recorded under create_graph as torch's ``slice_backward``."""

    node_name = "SliceBackwardBackward0"


class Alias(Function):
    node_name = "AliasBackward0"

    @staticmethod
    def forward(ctx, a):
        return make_view(a, a._data.shape, a.stride(), a.storage_offset())

    @staticmethod
    def backward(ctx, g):
        return g

    jvp = linear_jvp


# ----- parsing an index -------------------------------------------------------------------------

_BAD_INDEX = ("only integers, slices (`:`), ellipsis (`...`), None and long or byte Variables are valid "
              "indices (got {})")


def classify(item):
    """One index item as (kind, value): int, slice, none, ellipsis, bool, mask or adv (an index array)."""
    if item is None:
        return "none", None
    if item is Ellipsis:
        return "ellipsis", None
    if isinstance(item, bool):  # (NumPy's bool is no bool to torch's indexing: the error below names it)
        return "bool", item
    if isinstance(item, (int, np.integer)):
        return "int", int(item)
    if isinstance(item, slice):
        return "slice", _slice_ints(item)
    if isinstance(item, range):  # a sequence of ints, as torch reads it: x[range(n), y]
        return _classify_array(np.arange(item.start, item.stop, item.step, dtype=np.int64))
    if isinstance(item, Tensor):
        return _classify_array(item._data)
    if isinstance(item, (str, bytes)):  # (torch reads a sequence as a tensor index, and no tensor holds text)
        raise TypeError(f"new(): invalid data type '{type(item).__name__}'")
    if isinstance(item, (list, tuple, np.ndarray)) or _is_sequence(item):
        if isinstance(item, np.ndarray):
            arr = item
        else:  # nested lists may hold tensors; any other sequence (a Subset) is read item by item, as a list
            arr = tensor(item if isinstance(item, (list, tuple)) else [item[i] for i in range(len(item))])._data
        if arr.dtype.kind == "f":  # NOTE: torch's indexing_tensor_from_data: a list of floats is a long index
            arr = arr.astype(np.int64)
        return _classify_array(arr)
    raise IndexError(_BAD_INDEX.format(tp_name(item)))


def _is_sequence(item) -> bool:
    """Python's ``PySequence_Check``, which torch's indexing asks of an index that is not a tensor: a class with
    ``__getitem__`` that is not a dict or a NumPy scalar (a list, a NumPy array, ``random_split``'s ``Subset``...)."""
    return not isinstance(item, (Tensor, dict, np.generic)) and hasattr(type(item), "__getitem__")


def _slice_ints(s: slice):
    for v in (s.start, s.stop, s.step):
        if v is not None and not hasattr(type(v), "__index__"):  # (a float, a traced value: torch's TypeError)
            raise TypeError("slice indices must be integers or None or have an __index__ method")
    vals = [None if v is None else v.__index__() for v in (s.start, s.stop, s.step)]
    step = 1 if vals[2] is None else vals[2]
    if step <= 0:
        raise ValueError("step must be greater than zero")
    return vals[0], vals[1], step


def _classify_array(arr):
    kind = arr.dtype.kind
    if kind == "b" or arr.dtype == np.uint8:
        if arr.dtype == np.uint8:
            warn_user("indexing with dtype torch.uint8 is now deprecated, please use a dtype torch.bool instead.")
            arr = arr.astype(bool)
        if arr.ndim == 0:
            return "bool", bool(arr)
        return "mask", arr
    if kind in "iu":
        if arr.ndim == 0:
            return "int", int(arr)
        return "adv", arr.astype(np.int64, copy=False)
    raise IndexError("tensors used as indices must be long, int, byte or bool tensors")


def _as_tuple(index) -> tuple:
    """PyTorch's rule: a short list holding sequences, slices, None, ... or tensors is a tuple of indices."""
    if isinstance(index, tuple):
        return index
    if isinstance(index, (np.ndarray, bytes)) or not _is_sequence(index):  # (a str is a sequence of strs)
        return (index,)
    if len(index) < 32 and any(isinstance(i, (slice, Tensor)) or _is_sequence(i) or i is None or i is Ellipsis
                               for i in (index[k] for k in range(len(index)))):
        warn_user("Using a non-tuple sequence for multidimensional indexing is deprecated and will be changed in "
                  "pytorch 2.9; use x[tuple(seq)] instead of x[seq]. In pytorch 2.9 this will be interpreted as "
                  "tensor index, x[torch.tensor(seq)], which will result either in an error or a different "
                  "result")  # (PyTorch 2.13's words)
        return tuple(index)
    return (index,)


def _specified_dims(items) -> int:
    """PyTorch's ``count_specified_dimensions``, checked before any item is read: a bool or uint8 tensor counts its
    dims, None, Ellipsis, True and False count none, anything else (a str's characters too) one."""
    count = 0
    for i in items:
        if isinstance(i, Tensor):
            count += i._data.ndim if i._data.dtype in (np.bool_, np.uint8) else 1
        elif not (i is None or i is Ellipsis or i is True or i is False):
            count += 1
    return count


def parse_index(t: Tensor, index) -> list:
    raw = _as_tuple(index)
    if _specified_dims(raw) > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim}")
    items = [classify(i) for i in raw]
    used = sum(1 if k in ("int", "slice", "adv") else (v.ndim if k == "mask" else 0) for k, v in items)
    if used > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim}")
    out, rest = [], t._data.ndim - used
    for k, v in items:  # like torch, a second Ellipsis stands for no dims
        out.append((k, v) if k != "ellipsis" else (k, rest))
        rest = 0 if k == "ellipsis" else rest
    return out


def apply_basic(t: Tensor, items, keep_full: bool):
    """Apply the basic items as views; return the view and the advanced (dim, array) pairs left.

    Slices over a whole dim are skipped (as torch does) unless ``keep_full`` (a bare ``t[:]``).
    """
    out, dim, adv = t, 0, []
    for position, (kind, val) in enumerate(items):
        if kind == "int":
            size = out._data.shape[dim]
            if not -size <= val < size:  # NOTE: PyTorch names the index's position in the tuple, not the dim
                if not -2**63 <= val < 2**63:  # (torch's parser refuses it first)
                    raise ValueError("Overflow when unpacking long long")
                raise IndexError(f"index {val} is out of bounds for dimension {position} with size {size}")
            out = Select.apply(out, dim=dim, index=val)
        elif kind == "slice":
            if keep_full or not _is_full(val, out._data.shape[dim]):
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


def _is_full(val, size: int) -> bool:
    start, stop, step = val
    return step == 1 and not start and (stop is None or stop >= size)


def _mask_indices(t: Tensor, dim: int, mask):
    shape = t._data.shape
    for j, s in enumerate(mask.shape):
        if s != shape[dim + j]:
            raise IndexError(f"The shape of the mask {list(mask.shape)} at index {j} does not match the shape of "
                             f"the indexed tensor {list(shape)} at index {dim + j}")
    return [(dim + j, nz) for j, nz in enumerate(xp_of(mask).nonzero(mask))]


def _key(t: Tensor, adv):
    """The backend index tuple for ``adv`` on ``t``: bounds checked, negatives wrapped, on t's device."""
    try:
        bshape = np.broadcast_shapes(*[a.shape for _, a in adv])
    except ValueError:
        raise IndexError("shape mismatch: indexing tensors could not be broadcast together with shapes "
                         + ", ".join(str(list(a.shape)) for _, a in adv)) from None
    reads = t._data.size and all(bshape)  # like torch, nothing is checked when nothing is read
    key = [slice(None)] * t._data.ndim
    for position, (dim, arr) in enumerate(adv):
        if type(arr) is not type(t._data):
            arr = _backend.to_device_array(arr, t.device)
        size = t._data.shape[dim]
        if size == 0 and arr.size:
            raise IndexError("index is out of bounds for dimension with size 0")
        if reads:
            lo, hi = int(arr.min()), int(arr.max())
            if hi >= size or lo < -size:  # torch's kernel names the first bad index it reads
                flat = arr.ravel()
                bad = int(flat[int(xp_of(flat).argmax((flat >= size) | (flat < -size)))])
                # NOTE: torch's index kernel names the index tensor's position among the indexing tensors
                raise IndexError(f"index {bad} is out of bounds for dimension {position} with size {size}")
            if lo < 0:
                arr = xp_of(arr).where(arr < 0, arr + size, arr)
        key[dim] = arr
    return tuple(key)


def _result_shape(shape, adv) -> tuple:
    dims = [d for d, _ in adv]
    bshape = np.broadcast_shapes(*[a.shape for _, a in adv])
    if dims == list(range(dims[0], dims[-1] + 1)):
        return tuple(shape[:dims[0]]) + bshape + tuple(shape[dims[-1] + 1:])
    return bshape + tuple(s for i, s in enumerate(shape) if i not in dims)


# ----- index / index_put --------------------------------------------------------------------------

def _gathered(ctx, a, adv):
    """The indexed elements as a C-contiguous array of the result's shape (ctx keeps what backward needs)."""
    key = _key(a, adv)
    ctx.adv = tuple((d, key[d]) for d, _ in adv)
    ctx.in_shape = a._data.shape
    shape = _result_shape(a._data.shape, adv)
    if 0 in shape:  # indices may be out of range here (torch reads nothing, so checks nothing)
        return xp_of(a._data).empty(shape, dtype=a._data.dtype)
    # NOTE: reshaped: a 0-d index reads a NumPy scalar, which ascontiguousarray makes 1-d (take(x, tensor(2)))
    return xp_of(a._data).ascontiguousarray(a._data[key]).reshape(shape)


def _iterator_layout(res, src, adv):
    """``res`` (an advanced-indexing result) in the strides PyTorch's index kernel gives it: its TensorIterator
    sees the input restrided to the result's shape (stride 0 across the indexed dims, which move to the front when
    they are not adjacent) and each index broadcast there, and lays the output out in the dim order they agree
    on (a transposed or channels-last input gives a transposed or channels-last result); size-1 dims get
    PyTorch's strides. A copy only when NumPy's layout differs."""
    if not res.size or res.ndim == 0 or getattr(res, "elem_strides", None) is not None:  # (a meta array: as is)
        return res
    dims = [d for d, _ in adv]
    st = [s // src.itemsize for s in src.strides]
    first, last = dims[0], dims[-1] + 1
    if dims != list(range(first, last)):  # (torch's transposeToFront)
        st = [st[d] for d in dims] + [s for d, s in enumerate(st) if d not in dims]
        first, last = 0, len(dims)
    bshape = np.broadcast_shapes(*[a.shape for _, a in adv])
    shape, n = res.shape, len(bshape)
    operands = [(shape, tuple(st[:first]) + (0,) * n + tuple(st[last:]))]
    for _, arr in adv:
        inner = _broadcast_strides(bshape, arr.shape, [s // arr.itemsize for s in arr.strides])
        operands.append((shape, (0,) * first + tuple(inner) + (0,) * (len(shape) - first - n)))
    want = iterator_strides(shape, operands) or contiguous_strides(shape)
    if tuple(s // res.itemsize for s in res.strides) == want:
        return res
    out = empty_strided_array(xp_of(res), shape, want, res.dtype)
    out[...] = res
    return out


def contiguous_strides(shape) -> tuple:
    """PyTorch's contiguous strides (a size-1 dim's stride is the product of the sizes inside it)."""
    out, acc = [0] * len(shape), 1
    for d in range(len(shape) - 1, -1, -1):
        out[d] = acc
        acc *= max(shape[d], 1)
    return tuple(out)


def _index_tensors(ctx: dict) -> tuple:
    """``IndexBackward0._saved_indices``: one index tensor per indexed dim, None for a dim before the last indexed one
    that no index took (``x[:, i]``: ``(None, i)``), as torch's node keeps them. NOTE: a bool mask shows as the int64
    positions it selects, one tensor per dim it covers (torch's node keeps the mask itself)."""
    shown = [None] * (max(d for d, _ in ctx["adv"]) + 1)
    for d, arr in ctx["adv"]:
        shown[d] = index_tensor(arr)
    return tuple(shown)


class Index(Function):
    node_name = "IndexBackward0"
    _saved_indices = SavedFromCtx(_index_tensors, tensor=True)
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a, *, adv):
        return _iterator_layout(_gathered(ctx, a, adv), a._data, adv)

    @staticmethod
    def backward(ctx, g):
        base = zeros(ctx.in_shape, dtype=g.dtype, device=g.device)
        return IndexPut.apply(base, g, adv=ctx.adv, accumulate=True, inplace=False)

    jvp = linear_jvp


class IndexPut(Function):
    node_name = "IndexPutBackward0"

    @staticmethod
    def forward(ctx, self, values, *, adv, accumulate, inplace):
        key = _key(self, adv)
        ctx.adv = tuple((d, key[d]) for d, _ in adv)
        ctx.accumulate = accumulate
        ctx.values_shape = values._data.shape
        target = self._data if inplace else copy_preserving_layout(self._data)  # (torch: clone(Preserve).index_put_)
        v = _values_for(values, target, _result_shape(target.shape, adv))
        if v.size:
            _write(target, key, v, accumulate)
        if inplace:
            ctx.mark_dirty(self)
            return self
        return target

    @staticmethod
    def backward(ctx, g):
        gself = gvals = None
        if ctx.needs_input_grad[0]:
            zero = zeros((), dtype=g.dtype, device=g.device)
            gself = g if ctx.accumulate else IndexPut.apply(g, zero, adv=ctx.adv, accumulate=False, inplace=False)
        if ctx.needs_input_grad[1]:
            vshape = ctx.values_shape
            gv = Index.apply(g, adv=ctx.adv)
            stripped = strip_ones(vshape, gv._data.ndim)
            gvals = reshape(sum_to(gv, stripped), vshape)
        return gself, gvals

    @staticmethod
    def jvp(ctx, tself, tvalues):
        if ctx.kw["inplace"]:
            raise NotImplementedError("Trying to use forward AD with index_put_ that does not support it because it "
                                      "has not been implemented yet.")
        self, values = ctx.inputs
        return IndexPut.apply(zeros_like(self) if tself is None else tself,
                              zeros_like(values) if tvalues is None else tvalues, **ctx.kw)


def strip_ones(shape, ndim: int) -> tuple:
    shape = tuple(shape)
    while len(shape) > ndim and shape[0] == 1:
        shape = shape[1:]
    return shape


def _values_for(values: Tensor, target, rshape):
    """``values`` as an array broadcast to the indexing result (leading 1s dropped, like PyTorch)."""
    v = values._data
    if type(v) is not type(target):
        v = _backend.to_device_array(v, _backend.device_of_array(target))
    v = v.reshape(strip_ones(v.shape, len(rshape)))
    try:
        return xp_of(target).broadcast_to(v, rshape)
    except ValueError:
        raise RuntimeError(f"shape mismatch: value tensor of shape {list(values.shape)} cannot be broadcast to "
                           f"indexing result of shape {list(rshape)}") from None


def _write(target, key, v, accumulate: bool) -> None:
    v = v.astype(target.dtype, copy=False)
    if accumulate:
        ufunc_at("logical_or" if target.dtype == np.bool_ else "add", target, key, v)
    else:
        target[key] = v


def values_tensor(self: Tensor, values) -> Tensor:
    if not isinstance(values, Tensor):
        raise TypeError(f"index_put(): argument 'values' must be Tensor, not {type(values).__name__}")
    check_same_device(self, values)
    if values.dtype is not self.dtype:
        raise RuntimeError(f"Index put requires the source and destination dtypes match, got {type_name(self)} for "
                           f"the destination and {type_name(values)} for the source.")
    return values


def type_name(t: Tensor) -> str:
    return _TYPE_NAMES[t.dtype.name]
