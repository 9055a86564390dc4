"""Views: tensors sharing storage with PyTorch's sizes, strides and storage offsets.

Every view is computed here as (shape, strides, offset) in elements, exactly as PyTorch computes
it, then materialised as a backend array over the same memory. ``view`` refuses what PyTorch
refuses (its stride-compatibility rule); ``reshape`` copies only when a view is impossible.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _torch_dispatch
from core._arg_types import require_input, tp_name
from core._memory_format import contiguous_format as _CONTIGUOUS
from core._memory_format import copy_in, copy_preserving
from core._small_gemm_blocks import _transposed_copy
from core._tensor import Size, Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx
from core.ops._shape_args import reshape_sizes, view_sizes
from core.ops._strided import contiguous_strides, copy_preserving_layout, dense, extent, strided_array, strided_scatter
from core.ops._util import xp_of

__all__ = ["clone", "as_strided", "view", "view_as", "reshape", "reshape_as", "transpose", "swapaxes",
           "swapdims", "t", "permute", "expand", "expand_as", "unsqueeze", "squeeze", "contiguous",
           "infer_size", "compute_view_strides", "make_view", "geometry"]


def geometry(t: Tensor):
    """(shape, strides, storage offset) of a tensor, in elements."""
    return t._data.shape, t.stride(), t.storage_offset()


def make_view(src: Tensor, shape, strides, offset=None, *, shift: int = 0) -> Tensor:
    """A tensor viewing ``src``'s storage (shares memory and version counter; ``_base`` is the root).

    ``offset=None``: the view starts ``shift`` elements after where ``src`` starts (no storage
    offset to compute); else at storage offset ``offset``.
    """
    root = src._root
    if type(root) is np.ndarray and root.dtype != src._data.dtype:  # a dtype view (x.view(torch.int16)): its
        root = root.reshape(-1).view(src._data.dtype)  # storage read in its own dtype (elements, offsets, strides)
    if offset is None:
        return src._alias(strided_array(root, shape, strides, shift, start=src._data))
    return src._alias(strided_array(root, shape, strides, offset))


def numpy_view(a: Tensor, key):
    """``a._data[key]`` (a basic-index key) as a view of ``a``, when NumPy's view is exact: a writable
    CPU array and a non-empty result (empty ones may carry other strides than PyTorch's); else None."""
    x = a._data
    if type(x) is np.ndarray and x.flags.writeable:
        res = x[key]
        if res.size:
            return a._alias(res)
    return None


def _permuted(a: Tensor, perm):
    """``a``'s view with permuted dims straight from NumPy, when that is exact (a writable, non-empty CPU
    array: the same memory, shape and strides as ``make_view`` builds); None otherwise."""
    x = a._data
    if type(x) is np.ndarray and x.size and x.flags.writeable:
        return a._alias(x.transpose(perm))
    return None


def infer_size(shape, numel: int) -> tuple:
    """Resolve one ``-1`` in a requested shape; PyTorch's errors for invalid shapes."""
    shape = tuple(int(s) for s in shape)
    infer = None
    known = 1
    for i, s in enumerate(shape):
        if s == -1:
            if infer is not None:
                raise RuntimeError("only one dimension can be inferred")
            infer = i
        elif s < 0:
            raise RuntimeError(f"invalid shape dimension {s} at index {i} of shape {list(shape)}")
        else:
            known *= s
    if infer is not None:
        if known == 0 and numel == 0:  # (a non-empty input with a 0 in the shape is merely invalid, below)
            raise RuntimeError(f"cannot reshape tensor of 0 elements into shape {list(shape)} because the "
                               "unspecified dimension size -1 can be any value and is ambiguous")
        if known and numel % known == 0:
            return shape[:infer] + (numel // known,) + shape[infer + 1:]
    elif known == numel:
        return shape
    raise RuntimeError(f"shape '{list(shape)}' is invalid for input of size {numel}")


def compute_view_strides(old_shape, old_strides, new_shape):
    """PyTorch's ``computeStride``: strides for viewing without a copy, or None if impossible."""
    if not old_shape:
        return (1,) * len(new_shape)
    numel = 1
    for s in old_shape:
        numel *= s
    if numel == 0:
        return contiguous_strides(new_shape) if old_shape != tuple(new_shape) else tuple(old_strides)
    new_strides = [0] * len(new_shape)
    view_d = len(new_shape) - 1
    chunk_base_stride = old_strides[-1] if old_strides else 1
    tensor_numel = 1
    view_numel = 1
    for tensor_d in range(len(old_shape) - 1, -1, -1):
        tensor_numel *= old_shape[tensor_d]
        if tensor_d == 0 or (old_shape[tensor_d - 1] != 1 and
                             old_strides[tensor_d - 1] != tensor_numel * chunk_base_stride):
            while view_d >= 0 and (view_numel < tensor_numel or new_shape[view_d] == 1):
                new_strides[view_d] = view_numel * chunk_base_stride
                view_numel *= new_shape[view_d]
                view_d -= 1
            if view_numel != tensor_numel:
                return None
            if tensor_d > 0:
                chunk_base_stride = old_strides[tensor_d - 1]
                tensor_numel = 1
                view_numel = 1
    if view_d != -1:
        return None
    return tuple(new_strides)


def _shape_arg(shape):
    if len(shape) == 1 and isinstance(shape[0], (tuple, list, Size)):
        return tuple(shape[0])
    return tuple(shape)


class View(Function):
    node_name = "ViewBackward0"
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a, *, shape):
        ctx.in_shape = a._data.shape
        size = infer_size(shape, a._data.size)
        strides = compute_view_strides(a._data.shape, a.stride(), size)
        if strides is None:
            raise RuntimeError("view size is not compatible with input tensor's size and stride (at least "
                               "one dimension spans across two contiguous subspaces). Use .reshape(...) "
                               "instead.")
        x = a._data
        if type(x) is np.ndarray and x.size and x.flags.writeable:  # NumPy's own view, when its strides are ours
            try:
                res = x.reshape(size, copy=False)
            except ValueError:  # NumPy would copy: build the view ourselves
                res = None
            if res is not None and res.strides == tuple([st * x.itemsize for st in strides]):
                return a._alias(res)
        return make_view(a, size, strides)

    @staticmethod
    def backward(ctx, g):
        return reshape(g, ctx.in_shape)

    @staticmethod
    def jvp(ctx, t):
        return reshape(t, ctx.output.shape)  # NOTE: the tangent's strides may not allow a view


class ReshapeAlias(View):
    """The view branch of ``reshape`` on a non-contiguous tensor: PyTorch's ``_reshape_alias`` (the same view and
    gradient as ``view``; a contiguous input is a ``view``). Under a dispatch mode PyTorch takes ``view`` instead."""

    node_name = "ReshapeAliasBackward0"


class UnsafeView(Function):
    """The copy branch of ``reshape``: a fresh tensor, but the same gradient rule as a view."""

    node_name = "UnsafeViewBackward0"

    @staticmethod
    def forward(ctx, a, *, shape):
        ctx.in_shape = a._data.shape
        return dense(xp_of(a._data).ascontiguousarray(a._data).reshape(shape))

    @staticmethod
    def backward(ctx, g):
        return reshape(g, ctx.in_shape)

    jvp = linear_jvp


def view(input: Tensor, *shape, size=None, dtype=None):
    if size is not None or dtype is not None:
        shape = (size if size is not None else dtype,)
    if len(shape) == 1 and isinstance(shape[0], _dtype.dtype):
        return _view_dtype(input, shape[0])
    return View.apply(input, shape=view_sizes(shape))


def _view_dtype(input: Tensor, dtype) -> Tensor:
    """``view(dtype)``: the same bytes read as ``dtype`` (no copy, no graph), with PyTorch's checks when the element
    sizes differ (the last dim is then resized)."""
    if not isinstance(dtype, _dtype.dtype):
        raise TypeError(f"view(): argument 'dtype' must be torch.dtype, not {type(dtype).__name__}")
    if dtype is input.dtype:  # NOTE: PyTorch's view(dtype) shares the storage but is no view for autograd or
        return input._alias(input._data, base=False)  # _base/_is_view, and needs no grad, whatever the dtype
    old, new = input.dtype, dtype
    if old.itemsize != new.itemsize:
        names = _dtype.SCALAR_NAMES
        what = f"to view {names[old.name]} as {names[new.name]} (different element sizes)"
        if input.ndim == 0:
            raise RuntimeError(f"self.dim() cannot be 0 {what}")
        if input.stride(-1) != 1:
            raise RuntimeError(f"self.stride(-1) must be 1 {what}, but got {input.stride(-1)}")
        if new.itemsize > old.itemsize:
            ratio = new.itemsize // old.itemsize
            if input.shape[-1] % ratio:
                raise RuntimeError(f"self.size(-1) must be divisible by {ratio} {what}, but got {input.shape[-1]}")
            if input.storage_offset() % ratio:
                raise RuntimeError(f"self.storage_offset() must be divisible by {ratio} {what}, but got "
                                   f"{input.storage_offset()}")
            for d in range(input.ndim - 1):
                if input.stride(d) % ratio:
                    raise RuntimeError(f"self.stride({d}) must be divisible by {ratio} {what}, but got "
                                       f"{input.stride(d)}")
    return input._alias(input._data.view(new.np), base=False)


def _require_other(name: str, other) -> None:
    """The ``*_as`` methods take a tensor (a list or an array is torch's TypeError, not an AttributeError)."""
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position 1) must be Tensor, not {tp_name(other)}")


def view_as(input: Tensor, other: Tensor):
    _require_other("view_as", other)
    return View.apply(input, shape=tuple(other.shape))


def _subclass_like(input: Tensor) -> bool:
    """ATen's ``isTensorSubclassLike``: a dispatch mode is entered (in this thread) or ``input`` is a
    ``__torch_dispatch__`` subclass; reshape's view branch is then ``view``, not ``_reshape_alias``. (Not
    ``_torch_dispatch.live``: that stays on once any such subclass was defined in the process.)"""
    live = _torch_dispatch.live
    return live and (bool(_torch_dispatch.mode_stack()) or _torch_dispatch.is_dispatch_type(type(input)))


def reshape(input: Tensor, *shape_args, shape=None):
    require_input("reshape", input)
    shape = (shape,) if shape is not None else shape_args
    size = infer_size(reshape_sizes(shape), input._data.size)
    if compute_view_strides(input._data.shape, input.stride(), size) is not None:
        alias = not input.is_contiguous() and not _subclass_like(input)
        return (ReshapeAlias if alias else View).apply(input, shape=size)
    if input.requires_grad and is_grad_enabled():  # NOTE: PyTorch's copy is a clone: a node under the _unsafe_view
        input = Clone.apply(input, memory_format=_CONTIGUOUS)
    return UnsafeView.apply(input, shape=size)


def reshape_as(input: Tensor, other: Tensor):
    _require_other("reshape_as", other)
    return reshape(input, tuple(other.shape))


def _check_strided(a: Tensor, size, stride, offset) -> None:
    """PyTorch's checks before a view is placed on storage: nothing may read outside it."""
    if len(size) != len(stride):
        raise RuntimeError("mismatch in length of strides and shape")
    for s in size:
        if s < 0:
            raise RuntimeError(f"Trying to create tensor with negative dimension {s}: {list(size)}")
    if any(st < 0 for st in stride):
        raise RuntimeError(f"as_strided: Negative strides are not supported at the moment, got strides: {list(stride)}")
    if offset < 0:
        raise RuntimeError(f"Tensor: invalid storage offset {offset}")
    isz, need = a._data.itemsize, extent(size, stride, offset) if all(size) else 0
    capacity = a._root.size * a._root.itemsize  # (bytes: a dtype view's elements are of another size)
    if need * isz > capacity:
        raise RuntimeError(f"setStorage: sizes {list(size)}, strides {list(stride)}, storage offset {offset}, and "
                           f"itemsize {isz} requiring a storage size of {need * isz} are out of bounds for storage "
                           f"of size {capacity}")


class AsStrided(Function):
    node_name = "AsStridedBackward0"

    @staticmethod
    def forward(ctx, a, *, size, stride, storage_offset):
        _check_strided(a, size, stride, storage_offset)
        ctx.geometry = (a._data.shape, a.stride(), a.storage_offset())
        ctx.view_geometry = (tuple(size), tuple(stride), storage_offset)
        return make_view(a, size, stride, storage_offset)

    @staticmethod
    def backward(ctx, g):
        # NOTE: the gradient lives on the storage: scatter g where the view reads, gather where the
        # input reads. Inputs that overlap themselves (expanded) get the storage gradient per read.
        shape, strides, offset = ctx.geometry
        size, stride, voff = ctx.view_geometry
        span = max(extent(shape, strides, offset), extent(size, stride, voff))
        storage = strided_scatter(g, (span,), size, stride, voff)
        return as_strided(storage, shape, strides, offset)


def as_strided(input: Tensor, size, stride, storage_offset=None):
    if storage_offset is None:
        storage_offset = input.storage_offset()
    return AsStrided.apply(input, size=tuple(size), stride=tuple(stride), storage_offset=int(storage_offset))


def _contiguous_copy(x, xp):
    """A new C-contiguous copy of ``x``, copied once (``ascontiguousarray`` then ``copy`` copied twice); a
    transposed matrix by blocks of its rows (``_small_gemm_blocks._transposed_copy``: NumPy's copy walks it down its
    columns, ~2x slower from 256x512 up)."""
    if xp is np and x.ndim == 2 and x.flags.f_contiguous and not x.flags.c_contiguous:
        return _transposed_copy(x.T)
    out = xp.ascontiguousarray(x)
    return out.copy() if out is x or (xp is np and np.may_share_memory(out, x)) else out


class Clone(Function):
    node_name = "CloneBackward0"

    @staticmethod
    def forward(ctx, a, *, memory_format=None):
        xp = xp_of(a._data)
        if memory_format is not None and memory_format.name == "contiguous_format":
            return _contiguous_copy(a._data, xp) if not a.is_contiguous() else a._data.copy()
        if memory_format is not None and memory_format.name.startswith("channels_last"):
            return copy_in(a._data, memory_format)
        if a.stride() == contiguous_strides(a.shape) or min(a.stride(), default=0) < 0:
            return copy_preserving_layout(a._data)
        return copy_preserving(a._data)

    @staticmethod
    def backward(ctx, g):
        return g

    jvp = linear_jvp


def clone(input: Tensor, *, memory_format=None):
    return Clone.apply(input, memory_format=memory_format)


def contiguous(input: Tensor, memory_format=_CONTIGUOUS):
    if memory_format is None:
        memory_format = _CONTIGUOUS
    if input.is_contiguous(memory_format=memory_format):
        return input
    if memory_format.name == "preserve_format":
        raise RuntimeError("preserve memory format is unsupported by the contiguous operator")
    return Clone.apply(input, memory_format=memory_format)


# the transposing and size-one-dim views, re-exported (defined after the helpers they import from here)
from core.ops.views_expand_squeeze import (  # noqa: E402, F401
    Expand,
    Squeeze,
    SqueezeDim,
    SqueezeDims,
    Unsqueeze,
    expand,
    expand_as,
    squeeze,
    squeeze_method,
    unsqueeze,
    unsqueeze_method,
)
from core.ops.views_transpose import (  # noqa: E402, F401
    Permute,
    T,
    Transpose,
    permute,
    refuse_non_int_dims,
    swapaxes,
    swapdims,
    t,
    transpose,
)
