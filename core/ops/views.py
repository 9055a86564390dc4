"""Views: tensors sharing storage with PyTorch's sizes, strides and storage offsets.

Every view is computed here as (shape, strides, offset) in elements, exactly as PyTorch computes
it, then materialised as a backend array over the same memory. ``view`` refuses what PyTorch
refuses (its stride-compatibility rule); ``reshape`` copies only when a view is impossible.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _torch_dispatch
from core._arg_types import dim_overloads_error, refuse_bool_dim, require_input, tp_name
from core._factory_args import check_int64_list
from core._memory_format import contiguous_format as _CONTIGUOUS
from core._memory_format import copy_in, copy_preserving
from core._small_gemm_blocks import _transposed_copy
from core._tensor import Size, Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.grad_mode import is_grad_enabled
from core.autograd.node_api import SavedFromCtx
from core.ops._fastpath import transposed_no_grad
from core.ops._shape_args import reshape_sizes, view_sizes
from core.ops._strided import contiguous_strides, copy_preserving_layout, dense, extent, strided_array, strided_scatter
from core.ops._util import normalize_dim, normalize_dims, sum_to, xp_of

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
            raise RuntimeError(f"invalid shape dimension {s}")
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


class Transpose(Function):
    node_name = "TransposeBackward0"

    @staticmethod
    def forward(ctx, a, *, d0, d1):
        nd = a._data.ndim
        d0, d1 = normalize_dim(d0, nd), normalize_dim(d1, nd)
        ctx.dims = (d0, d1)
        if nd == 0:  # (dims 0 and -1 of a 0-d tensor name no dim: itself, as a view)
            return make_view(a, (), ())
        perm = list(range(nd))
        perm[d0], perm[d1] = d1, d0
        fast = _permuted(a, perm)
        if fast is not None:
            return fast
        shape, strides = list(a._data.shape), list(a.stride())
        shape[d0], shape[d1] = shape[d1], shape[d0]
        strides[d0], strides[d1] = strides[d1], strides[d0]
        return make_view(a, shape, strides)

    @staticmethod
    def backward(ctx, g):
        return transpose(g, *ctx.dims)

    jvp = linear_jvp


class T(Function):
    node_name = "TBackward0"

    @staticmethod
    def forward(ctx, a):
        if a._data.ndim > 2:
            raise RuntimeError(f"t() expects a tensor with <= 2 dimensions, but self is {a._data.ndim}D")
        fast = _permuted(a, None)  # NumPy's transpose reverses the dims, as t() does for <= 2 of them
        if fast is not None:
            return fast
        if a._data.ndim < 2:
            return make_view(a, a._data.shape, a.stride())
        return make_view(a, a._data.shape[::-1], a.stride()[::-1])

    @staticmethod
    def backward(ctx, g):
        return t(g)

    jvp = linear_jvp


def transpose(input: Tensor, dim0, dim1):
    require_input("transpose", input)
    if type(input) is not Tensor and (input.is_quantized or input.is_sparse):  # (a dense tensor: one identity test)
        return input.transpose(dim0, dim1)  # quantized: its integers transposed (ShuffleNet's shuffle); COO: its own
    if dim0.__class__ is bool or dim1.__class__ is bool:  # (an int to NumPy, not to PyTorch's parser)
        refuse_non_int_dims("transpose", ("dim0", dim0), ("dim1", dim1))
    try:
        return Transpose.apply(input, d0=dim0, d1=dim1)
    except TypeError:
        refuse_non_int_dims("transpose", ("dim0", dim0), ("dim1", dim1))
        raise


def refuse_non_int_dims(name: str, *named) -> None:
    """PyTorch's parser error for the first of ``named`` (``(argument name, value)`` pairs, from position 2) that is
    not an int, ``transpose(): argument 'dim0' (position 2) must be int, not float`` (a method's position and a
    keyword's none: ``method_args.translating``); nothing for ints. Called once a dim was refused (the error path)."""
    for position, (arg, value) in enumerate(named, 2):
        if not hasattr(type(value), "__index__") or isinstance(value, (Tensor, bool)):
            raise TypeError(f"{name}(): argument '{arg}' (position {position}) must be int, not {tp_name(value)}")


def swapaxes(input: Tensor, axis0, axis1):
    """``transpose`` under NumPy's name, its dims named as NumPy's: ``torch.swapaxes(input=x, axis0=0, axis1=1)``
    (snnTorch's regression tutorial calls it so); ``swapdims`` keeps ``dim0`` and ``dim1``."""
    require_input("swapaxes", input)
    try:
        return transpose(input, axis0, axis1)
    except TypeError:
        refuse_non_int_dims("swapaxes", ("axis0", axis0), ("axis1", axis1))
        raise


def swapdims(input: Tensor, dim0, dim1):
    """``transpose`` under its other name (an argument error names ``swapdims``)."""
    try:
        return transpose(input, dim0, dim1)
    except TypeError:
        refuse_non_int_dims("swapdims", ("dim0", dim0), ("dim1", dim1))
        raise


def t(input: Tensor):
    require_input("t", input)
    if type(input) is not Tensor and input.is_sparse:  # a COO tensor's own (a dense tensor: one identity test)
        return input.t()
    fast = transposed_no_grad(input)
    return fast if fast is not None else T.apply(input)


class Permute(Function):
    node_name = "PermuteBackward0"

    @staticmethod
    def forward(ctx, a, *, dims):
        nd = a._data.ndim
        if len(dims) != nd:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                               f"the length of the desired ordering of dimensions i.e. input.dim() = {nd} is "
                               f"not equal to len(dims) = {len(dims)}")
        dims = tuple(normalize_dim(d, nd) for d in dims)
        if len(set(dims)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        fast = _permuted(a, dims)
        if fast is not None:
            return fast
        shape, strides = a._data.shape, a.stride()
        return make_view(a, [shape[d] for d in dims], [strides[d] for d in dims])

    @staticmethod
    def backward(ctx, g):
        inv = [0] * len(ctx.dims)
        for i, d in enumerate(ctx.dims):
            inv[d] = i
        return permute(g, inv)

    jvp = linear_jvp


def permute(input: Tensor, *args, dims=None):
    require_input("permute", input)
    if dims is None and not args:
        raise TypeError('permute() missing 1 required positional arguments: "dims"')
    dims = (dims,) if dims is not None else args
    if input.is_quantized:
        return input.permute(*dims)
    return Permute.apply(input, dims=_shape_arg(dims))


class Expand(Function):
    node_name = "ExpandBackward0"
    _saved_self_sym_sizes = SavedFromCtx(lambda c: c["in_shape"])

    @staticmethod
    def forward(ctx, a, *, sizes):
        ctx.in_shape = a._data.shape
        shape, strides = a._data.shape, a.stride()
        nd, ns = len(shape), len(sizes)
        if ns < nd:
            raise RuntimeError(f"expand({a.type()}{{{list(shape)}}}, size=[{', '.join(map(str, sizes))}]): the number "
                               f"of sizes provided ({ns}) must be greater or equal to the number of dimensions "
                               f"in the tensor ({nd})")
        out_shape, out_strides = [], []
        for i in range(ns - 1, -1, -1):
            j = i - (ns - nd)
            want = int(sizes[i])
            if j >= 0:
                have, st = shape[j], strides[j]
                if want == -1:
                    want = have
                if have != want:
                    if have != 1:
                        raise RuntimeError(f"The expanded size of the tensor ({want}) must match the existing "
                                           f"size ({have}) at non-singleton dimension {i}.  Target sizes: "
                                           f"[{', '.join(map(str, sizes))}].  "
                                           f"Tensor sizes: [{', '.join(map(str, shape))}]")
                    st = 0
            else:
                if want < 0:
                    raise RuntimeError(f"The expanded size of the tensor ({want}) isn't allowed in a leading, "
                                       f"non-existing dimension {i}")
                # NOTE: a new leading dim of size 1 gets the stride a contiguous layout would give it.
                st = out_shape[-1] * out_strides[-1] if want == 1 and out_shape else 0
            out_shape.append(want)
            out_strides.append(st)
        return make_view(a, out_shape[::-1], out_strides[::-1])

    @staticmethod
    def backward(ctx, g):

        return sum_to(g, ctx.in_shape)

    jvp = linear_jvp


def expand(input: Tensor, *sizes, size=None):
    sizes = _shape_arg((size,) if size is not None else sizes)
    check_int64_list(sizes, "expand", "size")
    return Expand.apply(input, sizes=sizes)


def expand_as(input: Tensor, other: Tensor):
    _require_other("expand_as", other)
    return Expand.apply(input, sizes=tuple(other.shape))


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"

    @staticmethod
    def forward(ctx, a, *, dim):
        nd = a._data.ndim
        d = normalize_dim(dim, nd + 1)
        ctx.dim = d
        shape, strides = list(a._data.shape), list(a.stride())
        new_stride = 1 if d >= nd else shape[d] * strides[d]
        shape.insert(d, 1)
        strides.insert(d, new_stride)
        return make_view(a, shape, strides)

    @staticmethod
    def backward(ctx, g):
        return squeeze(g, ctx.dim)

    jvp = linear_jvp


def unsqueeze(input: Tensor, dim):
    require_input("unsqueeze", input)
    if type(dim) is not int:  # (a bool is no int to PyTorch's parser: torch.unsqueeze(x, True) is refused)
        refuse_bool_dim("unsqueeze", dim)
    return Unsqueeze.apply(input, dim=dim)


def unsqueeze_method(self: Tensor, dim):
    """``x.unsqueeze(dim)``: ``unsqueeze`` with the method's argument positions in its error (self not counted)."""
    if type(dim) is not int:
        refuse_bool_dim("unsqueeze", dim, position=1)
    return Unsqueeze.apply(self, dim=dim)


unsqueeze_method.__name__ = unsqueeze_method.__qualname__ = "unsqueeze"  # (PyTorch's method name)


class Squeeze(Function):
    node_name = "SqueezeBackward0"

    @staticmethod
    def forward(ctx, a, *, dims):
        nd = a._data.ndim
        ctx.in_shape = a._data.shape
        if dims is None:
            keep = [i for i in range(nd) if a._data.shape[i] != 1]
        else:
            drop = set(normalize_dims(dims, nd)) if dims else set()
            keep = [i for i in range(nd) if not (i in drop and a._data.shape[i] == 1)]
        shape, strides = a._data.shape, a.stride()
        return make_view(a, [shape[i] for i in keep], [strides[i] for i in keep])

    @staticmethod
    def backward(ctx, g):
        return reshape(g, ctx.in_shape)

    jvp = linear_jvp


class SqueezeDim(Squeeze):
    node_name = "SqueezeBackward1"


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"


def squeeze(input: Tensor, dim=None):
    require_input("squeeze", input)
    if dim is None:
        return Squeeze.apply(input, dims=None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(input, dims=tuple(dim))
    if isinstance(dim, (bool, float)):  # (no int to PyTorch's parser: torch.squeeze(x, True) squeezes no dim 1)
        raise dim_overloads_error("squeeze", dim, method=False)
    return SqueezeDim.apply(input, dims=(dim,))


def squeeze_method(self: Tensor, dim=None):
    """``x.squeeze(dim)``: ``squeeze``, its argument errors in the method's form."""
    if dim is None:
        return Squeeze.apply(self, dims=None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(self, dims=tuple(dim))
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("squeeze", dim, method=True)
    return SqueezeDim.apply(self, dims=(dim,))


squeeze_method.__name__ = squeeze_method.__qualname__ = "squeeze"  # (PyTorch's method name)


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
