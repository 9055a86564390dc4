"""Raw strided memory: backend arrays over a storage with PyTorch's (shape, strides, offset).

Shared by the view families: building an array over a root's memory, contiguous strides, copies
that keep a layout, and the differentiable adjoint of a strided view (``strided_scatter``).
"""

from __future__ import annotations

import numpy as np

from core._meta import MetaArray, contiguous_strides, meta_array
from core._tensor import Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.ops._util import xp_of

__all__ = ["strided_array", "contiguous_strides", "strided_scatter", "copy_preserving_layout", "extent", "dense",
           "row_major", "relaid", "relaid_row_major", "in_layout_of", "SliceBackward", "SelectBackward",
           "DiagonalBackward", "UnfoldBackward"]


class _Interface:
    """Presents raw memory to NumPy through the array interface (keeps the root alive)."""

    __slots__ = ("__array_interface__", "_keep")


def strided_array(root, shape, strides, offset, start=None):
    """A backend array over ``root``'s memory; strides and offset are in elements.

    ``start`` (an array into ``root``'s memory) counts the offset from its first element instead
    of the root's: a view that begins where its source begins needs no storage offset.
    """
    isz = root.itemsize
    if type(root) is MetaArray:  # a view of a meta tensor: no memory to view
        return meta_array(shape, root.dtype, strides)
    base = root if start is None else start
    if isinstance(root, np.ndarray):
        iface = _Interface()
        iface.__array_interface__ = {
            "data": (base.__array_interface__["data"][0] + offset * isz, False),
            "shape": tuple(shape), "strides": tuple([s * isz for s in strides]),
            "typestr": root.dtype.str, "version": 3}
        iface._keep = root
        arr = np.asarray(iface)  # NOTE: the interface's typestr names ml_dtypes' bfloat16 as raw bytes ('|V2')
        return arr if root.dtype.kind != "V" else arr.view(root.dtype)
    xp = xp_of(root)
    return xp.ndarray(tuple(shape), dtype=root.dtype, memptr=base.data + offset * isz,
                      strides=tuple(s * isz for s in strides))


def dense(arr):
    """``arr``, or when empty the same (empty) array with contiguous strides: NumPy reports zero
    strides for fresh empty arrays where PyTorch reports contiguous ones."""
    if arr.size:
        return arr
    strides = tuple(s * arr.itemsize for s in contiguous_strides(arr.shape))
    return arr if arr.strides == strides else xp_of(arr).lib.stride_tricks.as_strided(arr, arr.shape, strides)


def row_major(arr):
    """``arr`` with PyTorch's contiguous strides, size-1 dims' included: the layout of ops whose CPU kernels
    allocate their result contiguous whatever the input's (``amax``, ``prod``, ``all``, ``cumsum``, ``softmax``),
    where NumPy's keep the input's order. A copy only where ``arr`` is not C-contiguous."""
    if type(arr) is MetaArray or not arr.size or (1 not in arr.shape and arr.flags.c_contiguous):
        return arr  # (the hot path; empty arrays: new_tensor's ``dense``)
    if arr.flags.c_contiguous:  # NOTE: a keepdim result: only size-1 dims' strides can differ from torch's
        step = arr.itemsize
        for size, stride in zip(arr.shape[::-1], arr.strides[::-1]):
            if stride != step:
                break
            step *= size
        else:
            return arr
    strides = tuple(s * arr.itemsize for s in contiguous_strides(arr.shape))
    if not arr.flags.c_contiguous:
        arr = xp_of(arr).ascontiguousarray(arr)
        if arr.strides == strides:
            return arr
    return xp_of(arr).lib.stride_tricks.as_strided(arr, arr.shape, strides)  # (only size-1 dims' strides differ)


def relaid(t: Tensor, arr) -> Tensor:
    """``t``, a fresh result that no view shares yet, holding ``arr``: its values in the layout of the torch kernel
    that core composes from other ops, whose results are laid out otherwise (``renorm``, layer norm's gradient)."""
    if arr is not t._data:
        t._data = t._root = arr
    return t


def relaid_row_major(t: Tensor) -> Tensor:
    """``relaid`` with ``t``'s array ``row_major``: a torch kernel's contiguous output."""
    return relaid(t, row_major(t._data))


def in_layout_of(arr, ref):
    """``arr`` (of ``ref``'s shape) laid out as ``copy_preserving_layout`` would copy ``ref``: torch's
    ``empty_like`` result of ops such as ``sort``, whose values and indices keep a permuted or channels-last
    input's stride order. ``arr`` itself where it already is in that order."""
    if type(arr) is MetaArray or arr.ndim < 2 or not arr.size or ref.flags.c_contiguous:
        return arr
    broadcast = any(st == 0 and sz > 1 for sz, st in zip(ref.shape, ref.strides))
    out = xp_of(arr).empty_like(ref, dtype=arr.dtype, order="C" if broadcast else "K")
    if out.strides == arr.strides:
        return arr
    out[...] = arr
    return out


def _overlaps(size, stride) -> bool:
    """Whether some storage element is reached twice (a sufficient test: sorted strides nest)."""
    span = 0
    for sz, st in sorted(((sz, abs(st)) for sz, st in zip(size, stride) if sz > 1), key=lambda p: p[1]):
        if st <= span:
            return True
        span += (sz - 1) * st
    return False


class StridedScatter(Function):
    """The adjoint of a strided view: a zero contiguous buffer of ``shape`` with ``g`` added at the
    view's positions (repeated positions sum). Its backward is the strided view itself."""

    node_name = "AsStridedScatterBackward0"

    @staticmethod
    def forward(ctx, g, *, shape, size, stride, offset):
        ctx.view_geometry = (tuple(size), tuple(stride), offset)
        x = g._data
        xp = xp_of(x)
        n = 1
        for s in shape:
            n *= s
        if not _overlaps(size, stride):
            buf = xp.zeros(n, dtype=x.dtype)
            strided_array(buf, size, stride, offset)[...] = x
            return dense(buf.reshape(shape))
        idx = strided_array(xp.arange(n), size, stride, offset).reshape(-1)
        buf = xp.bincount(idx, weights=x.reshape(-1).astype(np.float64), minlength=n)
        return dense(buf.astype(x.dtype).reshape(shape))

    @staticmethod
    def backward(ctx, gg):
        from core.ops.views import as_strided, contiguous  # views import this module

        gg = contiguous(gg)
        size, stride, offset = ctx.view_geometry
        return as_strided(gg, size, stride, gg.storage_offset() + offset)

    jvp = linear_jvp


class ViewBackward(StridedScatter):
    """A view's gradient (zeros of the input's shape with ``g`` at the view's places) as torch's own backward op, so
    that ``create_graph=True`` records ``SliceBackwardBackward0``/``SelectBackwardBackward0``/... as torch does (the
    generic ``AsStridedScatterBackward0`` did); differentiated again it is the view of ``gg``, as torch's formula."""

    @staticmethod
    def forward(ctx, g, *, view, args, shape, size, stride, offset):
        ctx.view, ctx.view_args = view, args
        return StridedScatter.forward(ctx, g, shape=shape, size=size, stride=stride, offset=offset)

    @staticmethod
    def backward(ctx, gg):
        return ctx.view.apply(gg, **ctx.view_args)


class SliceBackward(ViewBackward):
    node_name = "SliceBackwardBackward0"


class SelectBackward(ViewBackward):
    node_name = "SelectBackwardBackward0"


class DiagonalBackward(ViewBackward):
    node_name = "DiagonalBackwardBackward0"


class UnfoldBackward(ViewBackward):
    node_name = "UnfoldBackwardBackward0"


def strided_scatter(g: Tensor, shape, size, stride, offset) -> Tensor:
    """Differentiable: zeros of ``shape`` (contiguous) with ``g`` summed into the given view."""
    return StridedScatter.apply(g, shape=tuple(shape), size=tuple(size), stride=tuple(stride), offset=int(offset))


def extent(shape, strides, offset) -> int:
    if not all(shape):
        return offset
    return offset + sum((s - 1) * st for s, st in zip(shape, strides)) + 1


def copy_preserving_layout(arr):
    """A fresh array in ``arr``'s stride order (PyTorch's preserve_format); broadcast inputs become
    C-contiguous, as PyTorch's ``empty_like`` makes them."""
    xp = xp_of(arr)
    broadcast = any(st == 0 and sz > 1 for sz, st in zip(arr.shape, arr.strides))
    return dense(xp.array(arr, copy=True, order="C" if broadcast else "K"))
