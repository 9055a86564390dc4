"""``t[index]`` and ``t[index] = value`` with PyTorch's rules, and the index_put/take/put/mask family.

The family's public module: it re-exports index_dim (index_select/add/fill/copy) and scatter
(gather/scatter). The view and index primitives live in index_primitives. ``setitem`` writes
through the basic view with ``copy_``/``fill_`` (so a view's write rebases its base with
``CopySlices``) or with ``index_put_`` for advanced indices.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._arg_types import tp_name
from core._factories import arange, empty_strided, tensor, zeros
from core._from_data import check_scalar_fits
from core._memory_format import preserved_strides
from core._tensor import Tensor, tensor_keeping_strides
from core.autograd.function import Function, _capture_state, _dual_state
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.shortcuts import state as _shortcuts
from core.ops._recorded import data_dependent
from core.ops._saved_attrs import given as shown_as_given
from core.ops._util import broadcast_shapes, check_same_device, wrap, xp_of
from core.ops.conversion import to
from core.ops.elementwise import check_inplace
from core.ops.index_dim import *  # noqa: F403 - the family's other modules, re-exported from here
from core.ops.index_dim import __all__ as _index_dim_all
from core.ops.index_primitives import (
    Alias,
    Index,
    IndexPut,
    _gathered,
    apply_basic,
    classify,
    parse_index,
    strip_ones,
    type_name,
    values_tensor,
)
from core.ops.inplace import check_no_partial_overlap
from core.ops.scatter import *  # noqa: F403
from core.ops.scatter import __all__ as _scatter_all
from core.ops.views import expand, reshape

__all__ = ["getitem", "setitem", "index_put", "index_put_", "take", "put_", "put", "nonzero", "argwhere",
           "masked_select", "masked_scatter", "masked_scatter_"] + _index_dim_all + _scatter_all


def _adv_of(t: Tensor, indices) -> list:
    if not isinstance(indices, (tuple, list)):
        raise TypeError("index_put(): argument 'indices' must be tuple of Tensors")
    if len(indices) > t._data.ndim:
        raise IndexError(f"too many indices for tensor of dimension {t._data.ndim} (got {len(indices)})")
    for i, index in enumerate(indices):
        if not isinstance(index, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {tp_name(index)}")
    items = [classify(i) for i in indices]
    items = [("adv", np.asarray(v, dtype=np.int64)) if k == "int" else (k, v) for k, v in items]
    return apply_basic(t, items, keep_full=False)[1]


def _fills_by_mask(items, value, accumulate: bool = False) -> bool:
    """PyTorch's ``canDispatchToMaskedFill``: one bool mask (of one or more dims) the only tensor index and a value
    of one element make ``index_put_`` a ``masked_fill_``, which casts the value (any other index_put_ refuses a
    value of another dtype)."""
    if accumulate or not isinstance(value, Tensor) or value._data.size != 1:
        return False
    tensors = [i for i in items if isinstance(i, (Tensor, list, range, np.ndarray))]
    if len(tensors) != 1:
        return False
    mask = tensors[0]
    if isinstance(mask, Tensor):
        return mask.dtype is _dtype.bool and mask._data.ndim > 0
    arr = np.asarray(mask)
    return arr.dtype == np.bool_ and arr.ndim > 0


def _advanced(index) -> bool:
    """Whether PyTorch's setitem reaches ``index_put_``: a list, an array or a tensor index (a 0-d integer tensor
    is a select), or a Python bool inside a tuple (one alone is a new dim of size 1 or 0, basic)."""
    for i in index if type(index) is tuple else (index,):
        if isinstance(i, bool) and type(index) is tuple:
            return True
        if isinstance(i, Tensor):
            if i._data.ndim or i.dtype is _dtype.bool:
                return True
        elif isinstance(i, (list, range, np.ndarray)):  # (PyTorch makes a sequence, range included, a tensor)
            return True
    return False


def _cast_value(input: Tensor, indices, values, accumulate: bool) -> Tensor:
    if isinstance(values, Tensor) and values.dtype is not input.dtype and _fills_by_mask(indices, values, accumulate):
        return to(values, input.dtype)
    return values


def index_put(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    adv = _adv_of(input, indices)
    values = _cast_value(input, indices, values, accumulate)
    if not adv:
        return input.clone().copy_(values)
    return IndexPut.apply(input, values_tensor(input, values), adv=adv, accumulate=bool(accumulate), inplace=False)


def index_put_(input: Tensor, indices, values, accumulate: bool = False) -> Tensor:
    adv = _adv_of(input, indices)
    values = values_tensor(input, _cast_value(input, indices, values, accumulate))
    check_inplace(input)
    check_no_partial_overlap(input, values)
    if not adv:
        return input.copy_(values)
    return IndexPut.apply(input, values, adv=adv, accumulate=bool(accumulate), inplace=True)


# ----- __getitem__ / __setitem__ ------------------------------------------------------------------

def _fast_view(t: Tensor, index):
    """Reads without autograd by ints and positive-step slices: NumPy's basic indexing is the same view."""
    items = index if type(index) is tuple else (index,)
    if not items or len(items) > t._data.ndim:
        return None
    for i in items:
        if type(i) is slice:
            if not (type(i.start) in _INT_OR_NONE and type(i.stop) in _INT_OR_NONE and
                    (i.step is None or type(i.step) is int and i.step > 0)):
                return None
        elif type(i) is not int:
            return None
    try:
        arr = t._data[items + (Ellipsis,)]  # the Ellipsis keeps a 0-d result an array, not a scalar
    except (IndexError, OverflowError):
        return None  # the general path raises PyTorch's message
    return t._alias(arr) if arr.size else None  # NumPy's offset of an empty slice differs from torch's


_INT_OR_NONE = (int, type(None))


def getitem(t: Tensor, index) -> Tensor:
    if not (t._requires_grad and is_grad_enabled()) and _shortcuts.ok:
        out = _fast_view(t, index)
        if out is not None:
            return out
    if t._data.ndim == 0:
        _refuse_zero_dim(index)
    out, adv = apply_basic(t, parse_index(t, index), keep_full=isinstance(index, slice))
    if adv:
        return Index.apply(out, adv=adv)
    return Alias.apply(t) if out is t else out


_FAST_LIMITS = {_dtype.int64: (-2**63, 2**63 - 1), _dtype.float64: (-1.7976931348623157e308, 1.7976931348623157e308),
                _dtype.float32: (-3.4028234663852886e38, 3.4028234663852886e38)}


def _set_one_number(t: Tensor, index, value) -> bool:
    """``t[i] = number`` or ``t[i, j] = number`` (one element) written straight into the array, as the general path
    would leave it (the number cast to ``t``'s dtype, one version bump), when nothing else can happen: a plain CPU
    tensor that owns its memory, records nothing and is not seen by a capture or forward-mode AD, in-range int
    indices, one per dimension, and a number ``t``'s dtype holds.
    False: take the general path (which also raises PyTorch's errors).

    NOTE: tutorials fill tensors element by element (a corpus of 30000 words, one ``t[i] = id`` each); the
    general path's view, 0-d value tensor and fill node cost ~15x torch's time per element."""
    if type(t) is not Tensor or t._requires_grad or t._base is not None or type(t._data) is not np.ndarray:
        return False
    dt = t.dtype
    limits = _FAST_LIMITS.get(dt)
    if limits is None or type(t._vc) is not list or _capture_state.recorder is not None \
            or _dual_state.token is not None:
        return False
    if type(value) is float and dt is _dtype.int64 or type(value) is int and dt is not _dtype.int64 \
            and not -2**53 <= value <= 2**53:  # (an int is then exact in float64: one rounding to float32)
        return False
    if not limits[0] <= value <= limits[1]:  # (a NaN fails the comparison too)
        return False
    arr = t._data
    if not arr.flags.writeable:  # (a from_dlpack array: the general path writes through it)
        return False
    items = index if type(index) is tuple else (index,)
    if len(items) != arr.ndim:
        return False
    for i, n in zip(items, arr.shape):
        if type(i) is not int or not -n <= i < n:
            return False
    arr[index] = value  # NumPy's cast of a Python number: round to nearest, as PyTorch's static_cast
    t._vc[0] += 1
    return True


def _check_number(value, dt) -> None:
    """PyTorch's checks of a Python number assigned through ``t[...] = number``: an int must unpack to int64 (a
    ValueError, whatever the dtype), and the number must fit the dtype as ``fill_``'s does (RuntimeError), but for
    float16 and bfloat16, which take an overflow as inf there."""
    if type(value) is int and not -2**63 <= value < 2**63:
        raise ValueError("Overflow when unpacking long long")
    if dt not in (_dtype.float16, _dtype.bfloat16):
        check_scalar_fits(value, dt)
    elif type(value) is complex and value.imag != 0:  # (a half type takes the number through a double)
        raise RuntimeError("value cannot be converted to type double without overflow")


def _refuse_zero_dim(index) -> None:
    """PyTorch's errors for a lone slice or integer indexing a 0-d tensor (a tuple goes the general way)."""
    if isinstance(index, tuple) or index is None or index is Ellipsis or \
            isinstance(index, (bool, Tensor, list, np.ndarray, np.bool_)):
        return
    if isinstance(index, slice):
        raise IndexError("slice() cannot be applied to a 0-dim tensor.")
    if isinstance(index, (int, np.integer)):
        if index < 0:
            raise IndexError(f"index {index} is out of bounds for dimension 0 with size 0")
        raise IndexError("invalid index of a 0-dim tensor. Use `tensor.item()` in Python or `tensor.item<T>()` "
                         "in C++ to convert a 0-dim tensor to a number")


def setitem(t: Tensor, index, value) -> None:
    if t._data.ndim == 0:
        _refuse_zero_dim(index)
    if type(value) in (int, float) and _set_one_number(t, index, value):
        return
    target, adv = apply_basic(t, parse_index(t, index), keep_full=False)
    if isinstance(value, Tensor):
        check_same_device(t, value)
        if value.device is not t.device:
            value = to(value, t.device)
        items = index if type(index) is tuple else (index,)
        if value.dtype is not t.dtype and _advanced(index) and not _fills_by_mask(items, value):
            values_tensor(t, value)  # PyTorch's index_put_ refuses another dtype (its error)
        value = to(value, t.dtype)
    elif isinstance(value, (int, float, bool, complex, np.number, np.bool_)):
        if type(value) in (int, float, complex):
            _check_number(value, t.dtype)
        if isinstance(value, complex) and not t.is_complex():  # (it fitted: no imaginary part)
            value = value.real
        value = tensor(value, dtype=t.dtype, device=t.device)
    else:
        raise TypeError(f"can't assign a {_qualname(value)} to a {t.type()}")
    if index is False:  # PyTorch writes nothing, whatever the value's shape
        return
    check_inplace(target)
    if adv:
        check_no_partial_overlap(target, value)
        IndexPut.apply(target, value, adv=adv, accumulate=False, inplace=True)
    elif value._data.ndim == 0:
        target.fill_(value)
    else:
        stripped = strip_ones(value.shape, target._data.ndim)
        value = reshape(value, stripped) if stripped != tuple(value.shape) else value
        if value._data.shape != target._data.shape:  # PyTorch's copy_to: leading ones off, then expand (its error)
            shape = tuple(value.shape)
            while shape and shape[0] == 1:
                shape = shape[1:]
            value = reshape(value, shape).expand(target.shape)
        target.copy_(value)


def _qualname(obj) -> str:
    cls = type(obj)
    return cls.__name__ if cls.__module__ == "builtins" else f"{cls.__module__}.{cls.__name__}"


# ----- flat take / put ----------------------------------------------------------------------------

def _flat_index(input: Tensor, index: Tensor, what: str):
    if not isinstance(index, Tensor) or index.dtype is not _dtype.int64:
        raise RuntimeError(f"{what}(): Expected a long tensor for index, but got "
                           f"{type_name(index) if isinstance(index, Tensor) else type(index).__name__}")
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
    """``take``: the elements at flat positions, in a fresh contiguous tensor of the index's shape (torch's)."""

    node_name = "TakeBackward0"
    _saved_indices = _saved_self_sym_sizes = None  # (Index's: torch's TakeBackward0 keeps the index and self)
    _saved_index, _saved_self = shown_as_given(0, tensor=True), shown_as_given(1, tensor=True)

    @staticmethod
    def forward(ctx, a, *, adv, given=None):
        ctx.given = given
        return _gathered(ctx, a, adv)


def take(input: Tensor, index: Tensor) -> Tensor:
    flat = _flat_index(input, index, "take")
    return Take.apply(reshape(input, -1), adv=[(0, flat)], given=(index, input))


class Put(IndexPut):
    node_name = "PutBackward0"


def _unravel(input: Tensor, flat):
    xp = xp_of(flat)
    if not input._data.ndim:
        return []
    # (asarray: a 0-d flat index unravels to NumPy scalars)
    return [(d, xp.asarray(a)) for d, a in enumerate(xp.unravel_index(flat, input._data.shape))]


def put_(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    flat = _flat_index(input, index, "put_")
    if source._data.size != flat.size:
        raise RuntimeError(f"put_(): Expected source and index to have the same number of elements, but got "
                           f"source.numel() = {source._data.size}, index.numel() = {flat.size}")
    check_inplace(input)
    source = reshape(values_tensor(input, source), flat.shape)
    if input._data.ndim == 0:  # every index is 0: accumulate adds all of source, else the last one is written
        if not flat.size:
            return input
        if not accumulate:
            return input.copy_(reshape(source, (-1,))[-1])
        if input.dtype is _dtype.bool:  # (bools accumulate as a logical or)
            return input.logical_or_(source.any())
        return input.add_(source.sum(dtype=input.dtype))
    return Put.apply(input, source, adv=_unravel(input, flat), accumulate=bool(accumulate), inplace=True)


def put(input: Tensor, index: Tensor, source: Tensor, accumulate: bool = False) -> Tensor:
    return put_(input.clone(), index, source, accumulate)


# ----- masks ------------------------------------------------------------------------------------

@data_dependent
def nonzero(input: Tensor, *, as_tuple: bool = False):  # (out=: core.ops.out_arg)
    x = input._data
    xp = xp_of(x)
    idx = xp.nonzero(x.reshape(1) if x.ndim == 0 else x)
    if as_tuple:
        return tuple(wrap(i.astype(np.int64)) for i in idx)
    # NOTE: PyTorch's (n, ndim) result is column-major, strides (1, n): one index list per column in memory
    if x.ndim == 0:
        out = xp.zeros((0, idx[0].size), dtype=np.int64).T
    else:
        out = xp.stack(idx, axis=0).astype(np.int64).T if idx else xp.zeros((0, 0), dtype=np.int64)
    if out.shape[0] == 0 and out.ndim == 2 and type(out) is np.ndarray:  # no hits: torch's strides (1, 0) too
        return tensor_keeping_strides(np.lib.stride_tricks.as_strided(out, out.shape, (out.itemsize, 0)))
    return wrap(out)


@data_dependent
def argwhere(input: Tensor) -> Tensor:
    return nonzero(input)


def _check_mask(mask, what: str) -> None:
    if not isinstance(mask, Tensor) or mask.dtype is not _dtype.bool:
        raise RuntimeError(f"{what}: expected BoolTensor for mask")


class MaskedSelect(Function):
    node_name = "MaskedSelectBackward0"
    saved_names = ("self", "mask")

    @staticmethod
    def forward(ctx, a, *, mask):
        ctx.save_for_backward(a, mask)  # (PyTorch saves both: a write to either before backward is refused)
        xp = xp_of(a._data)
        shape = broadcast_shapes(a._data.shape, mask._data.shape)
        m = xp.broadcast_to(mask._data, shape)
        ctx.shape = shape
        ctx.adv = tuple(enumerate(xp.nonzero(m)))
        wide = xp.broadcast_to(a._data, shape)  # NOTE: torch's gradient is zeros_like(the broadcast input, preserve)
        ctx.strides = preserved_strides(shape, [st // wide.itemsize for st in wide.strides])
        return wide[m]

    @staticmethod
    def backward(ctx, g):
        _ = ctx._unpacked  # (the version checks of the saved input and mask)
        base = empty_strided(ctx.shape, ctx.strides, dtype=g.dtype, device=g.device).zero_()
        return IndexPut.apply(base, g, adv=ctx.adv, accumulate=False, inplace=False) if ctx.adv else base


@data_dependent
def masked_select(input: Tensor, mask: Tensor) -> Tensor:
    _check_mask(mask, "masked_select")
    check_same_device(input, mask)
    if input._data.ndim == 0 and mask._data.ndim == 0:  # select from a 1-element vector instead
        return MaskedSelect.apply(reshape(input, (1,)), mask=reshape(mask, (1,)))
    broadcast_shapes(mask._data.shape, input._data.shape)  # (ATen broadcasts the mask first: its message's order)
    return MaskedSelect.apply(input, mask=mask)


class MaskedScatter(Function):
    node_name = "MaskedScatterBackward0"

    @staticmethod
    def forward(ctx, a, source, *, mask, inplace):
        xp = xp_of(a._data)
        m = xp.broadcast_to(mask._data, a._data.shape)
        count = int(m.sum())
        if source._data.size < count:
            raise RuntimeError("Number of elements of source < number of ones in mask")
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


def _check_scatter_mask(mask) -> None:
    """masked_scatter's first check, in ATen's words: a boolean mask."""
    if isinstance(mask, Tensor) and mask.dtype is not _dtype.bool:
        raise RuntimeError(f"masked_scatter_ only supports boolean masks, but got mask with dtype "
                           f"{_dtype.SCALAR_NAMES.get(mask.dtype.name, mask.dtype.name)}")
    _check_mask(mask, "masked_scatter_")


def _check_scatter_source(input, source) -> None:
    """masked_scatter's check after the shapes', in ATen's words: self's and source's dtypes."""
    if isinstance(source, Tensor) and source.dtype != input.dtype:
        names = (_dtype.SCALAR_NAMES.get(t.dtype.name, t.dtype.name) for t in (input, source))
        raise RuntimeError("masked_scatter: expected self and source to have same dtypes but got{} and {}"
                           .format(*names))  # (sic: ATen's message has no space after "got")


def masked_scatter(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    _check_scatter_mask(mask)
    shape = broadcast_shapes(mask._data.shape, input._data.shape)  # (ATen broadcasts the mask first: its message)
    _check_scatter_source(input, source)
    src = input if tuple(input.shape) == shape else expand(input, shape)
    return MaskedScatter.apply(src, values_tensor(input, source), mask=mask, inplace=False)


def masked_scatter_(input: Tensor, mask: Tensor, source: Tensor) -> Tensor:
    _check_scatter_mask(mask)
    check_same_device(input, mask)
    _check_scatter_source(input, source)
    if mask._data.shape != input._data.shape:
        expand(mask, tuple(input.shape))  # (ATen expands the mask to self's shape: its message for a mismatch)
    source = values_tensor(input, source)
    check_inplace(input)
    return MaskedScatter.apply(input, source, mask=mask, inplace=True)
