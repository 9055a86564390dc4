"""Joining: cat/concat/concatenate, stack, hstack/vstack/dstack/column_stack and atleast_1d/2d/3d.

Inputs are promoted to one dtype across the list as PyTorch does; 1-D empty tensors are skipped
by ``cat`` (a legacy PyTorch rule). Gradients are the matching slices of the output's gradient.
"""

from __future__ import annotations

from functools import reduce

import numpy as np

from core import _dtype
from core._alias import alias
from core._arg_types import is_index, tp_name
from core._memory_format import contiguous_format, format_of, in_format
from core._tensor import Tensor
from core.autograd.forward_ad import joint_linear_jvp
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops import views as _v
from core.ops._strided import dense
from core.ops._util import cast_array, check_same_device, normalize_dim, xp_of
from core.ops.elementwise import _out as write_out  # the shared out= rule
from core.ops.elementwise import check_no_partial_overlap
from core.ops.movement import narrow, select

__all__ = ["cat", "concat", "concatenate", "stack", "hstack", "vstack", "dstack", "column_stack",
           "atleast_1d", "atleast_2d", "atleast_3d", "row_stack"]


def _skipped(t: Tensor) -> bool:
    return t._data.shape == (0,)


def _common_dtype(tensors) -> _dtype.dtype:
    return reduce(_dtype.promote_types, (t.dtype for t in tensors))


def _tensor_list(name, tensors) -> tuple:
    if isinstance(tensors, Tensor):
        raise TypeError(f"{name}(): argument 'tensors' (position 1) must be tuple of Tensors, not Tensor")
    tensors = tuple(tensors)
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise TypeError(f"expected Tensor as element {i} in argument 0, but got {tp_name(t)}")
    check_same_device(*tensors)
    return tensors


class Cat(Function):
    node_name = "CatBackward0"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # the dim as the call gave it, as torch's

    @staticmethod
    def forward(ctx, *tensors, dim, dt, raw_dim=None):
        ctx.dim = dim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        ctx.sizes = [None if _skipped(t) else t._data.shape[dim] for t in tensors]
        arrays = [cast_array(t._data, dt) for t in tensors if not _skipped(t)]
        if not arrays:
            return dense(xp_of(tensors[0]._data).zeros((0,), dtype=dt.np))
        xp = xp_of(arrays[0])
        out = xp.ascontiguousarray(xp.concatenate(arrays, axis=dim))
        fmt = _cat_format([t._data for t in tensors])
        return dense(out if fmt is contiguous_format else in_format(out, fmt))

    @staticmethod
    def backward(ctx, g):
        grads, start = [], 0
        for i, n in enumerate(ctx.sizes):
            if n is None:
                grads.append(g.new_zeros(0) if ctx.needs_input_grad[i] else None)
                continue
            grads.append(narrow(g, ctx.dim, start, n) if ctx.needs_input_grad[i] else None)
            start += n
        return tuple(grads)

    jvp = joint_linear_jvp


def _cat_format(arrays):
    """PyTorch's memory format for cat's output: the one every input suggests (all channels-last: channels-last),
    else contiguous."""
    fmt = None
    for a in arrays:
        f = format_of(a) if type(a) is np.ndarray else contiguous_format
        if f is contiguous_format or (fmt is not None and f is not fmt):
            return contiguous_format
        fmt = f
    return fmt


def _check_cat(tensors, dim):
    """PyTorch's shape checks for cat; returns the normalized dim."""
    for i, t in enumerate(tensors):
        if t._data.ndim == 0:
            raise RuntimeError(f"zero-dimensional tensor (at position {i}) cannot be concatenated")
    kept = [(i, t) for i, t in enumerate(tensors) if not _skipped(t)]
    if not kept:
        return 0
    ref = kept[0][1]._data.shape
    dim = normalize_dim(dim, len(ref))
    for i, t in kept[1:]:
        shape = t._data.shape
        if len(shape) != len(ref):
            raise RuntimeError(f"Tensors must have same number of dimensions: got {len(ref)} and {len(shape)}")
        for d, (want, got) in enumerate(zip(ref, shape)):
            if d != dim and want != got:
                raise RuntimeError(f"Sizes of tensors must match except in dimension {dim}. Expected size {want} "
                                   f"but got size {got} for tensor number {i} in the list.")
    return dim


def _check_out_apart(out, tensors) -> None:
    """torch's cat/stack refuse an ``out=`` sharing memory with an input, even one that is the input itself."""
    if isinstance(out, Tensor):
        for t in tensors:
            check_no_partial_overlap(out, t, same_is_fine=False)


def _refuse_dim_type(name: str, dim) -> None:
    """PyTorch's parser error for a ``dim`` that is no int (a float, a bool, a string); the keyword wrappers
    (``core.ops.numpy_names``) reword it without the position for ``dim=``."""
    if not is_index(dim):
        raise TypeError(f"{name}(): argument 'dim' (position 2) must be int, not {tp_name(dim)}")


def _cat(name, tensors, dim, out):
    tensors = _tensor_list(name, tensors)
    _refuse_dim_type(name, dim)
    if not tensors:
        raise ValueError("torch.cat(): expected a non-empty list of Tensors")  # (concat and concatenate too)
    raw = dim if type(dim) is int else None
    dim = _check_cat(tensors, dim)
    _check_out_apart(out, tensors)
    result = Cat.apply(*tensors, dim=dim, dt=_common_dtype(tensors), raw_dim=raw)
    return _out(result, out)


def cat(tensors, dim=0, *, out=None):
    return _cat("cat", tensors, dim, out)


def concat(tensors, dim=0, *, out=None):
    """``torch.concat``: ``cat`` under its own name in messages (``axis=`` too, as every op taking ``dim``)."""
    return _cat("concat", tensors, dim, out)


def concatenate(tensors, dim=0, *, out=None):
    """``torch.concatenate``: ``cat`` under its own name; ``dim=`` or NumPy's ``axis=``."""
    return _cat("concatenate", tensors, dim, out)


def _out(result, out):
    if out is None:
        return result
    if isinstance(out, Tensor) and not _dtype.can_cast(result.dtype, out.dtype):  # (stack and concat's too)
        raise TypeError("torch.cat(): input types can't be cast to the desired output type "
                        f"{_dtype.SCALAR_NAMES[out.dtype.name]}")
    return write_out(result, out)


class Stack(Function):
    node_name = "StackBackward0"
    _saved_dim = SavedFromCtx(lambda c: c.get("raw_dim", c["dim"]))  # the dim as the call gave it, as torch's

    @staticmethod
    def forward(ctx, *tensors, dim, dt, raw_dim=None):
        ctx.dim = dim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        xp = xp_of(tensors[0]._data)
        arrays = [cast_array(t._data, dt) for t in tensors]
        if dim < arrays[0].ndim and arrays[0].size and (fmt := _cat_format(arrays)) is not contiguous_format:
            return _split_dim(in_format(xp.concatenate(arrays, axis=dim), fmt), dim, len(arrays))
        return dense(xp.ascontiguousarray(xp.stack(arrays, axis=dim)))

    @staticmethod
    def backward(ctx, g):
        return tuple(select(g, ctx.dim, i) if need else None for i, need in enumerate(ctx.needs_input_grad))

    jvp = joint_linear_jvp


def _split_dim(arr, dim: int, n: int):
    """``arr`` viewed with its dim ``dim`` split into (``n``, the rest): torch's stack along a dim the inputs have
    is their cat viewed so, which keeps channels-last inputs' layout (``x.view(...)`` of a dense dim)."""
    size, stride = arr.shape[dim], arr.strides[dim]
    shape = arr.shape[:dim] + (n, size // n) + arr.shape[dim + 1:]
    strides = arr.strides[:dim] + (stride * (size // n), stride) + arr.strides[dim + 1:]
    return xp_of(arr).lib.stride_tricks.as_strided(arr, shape, strides)


def stack(tensors, dim=0, *, out=None):
    tensors = _tensor_list("stack", tensors)
    _refuse_dim_type("stack", dim)
    if not tensors:
        raise RuntimeError("stack expects a non-empty TensorList")
    ref = tensors[0]._data.shape
    for i, t in enumerate(tensors[1:], 1):
        if t._data.shape != ref:
            raise RuntimeError(f"stack expects each tensor to be equal size, but got {list(ref)} at entry 0 and "
                               f"{list(t._data.shape)} at entry {i}")
    raw, dim = dim if type(dim) is int else None, normalize_dim(dim, len(ref) + 1)
    _check_out_apart(out, tensors)
    if out is None and all(getattr(t, "is_sparse", False) for t in tensors):  # COO rows stay COO (as torch)
        from core import _sparse_coo  # (it imports the ops)

        stacked = _sparse_coo.stack(tensors, dim)
        if stacked is not None:
            return stacked
    return _out(Stack.apply(*tensors, dim=dim, dt=_common_dtype(tensors), raw_dim=raw), out)


def _non_empty(name: str, tensors):
    """PyTorch's refusal of an empty list in hstack/vstack/dstack (before cat's own)."""
    if not tensors:
        raise RuntimeError(f"{name} expects a non-empty TensorList")
    return tensors


def hstack(tensors, *, out=None):
    tensors = atleast_1d(_non_empty("hstack", _tensor_list("hstack", tensors)))
    return cat(tensors, 0 if tensors and tensors[0]._data.ndim == 1 else 1, out=out)  # (the first decides)


def vstack(tensors, *, out=None):
    return cat(atleast_2d(_non_empty("vstack", _tensor_list("vstack", tensors))), 0, out=out)


def dstack(tensors, *, out=None):
    return cat(atleast_3d(_non_empty("dstack", _tensor_list("dstack", tensors))), 2, out=out)


def column_stack(tensors, *, out=None):
    tensors = _tensor_list("column_stack", tensors)
    cols = [_v.reshape(t, (t.numel(), 1)) if t._data.ndim <= 1 else t for t in tensors]
    return hstack(cols, out=out)


row_stack = alias(vstack, "row_stack")


def _atleast(fix):
    def fn(*tensors):
        if len(tensors) == 1 and isinstance(tensors[0], Tensor):
            return fix(tensors[0])
        if len(tensors) == 1:
            tensors = tuple(tensors[0])
        return tuple(fix(t) for t in tensors)
    return fn


def _fix_1d(t: Tensor) -> Tensor:
    return _v.reshape(t, 1) if t._data.ndim == 0 else t


def _fix_2d(t: Tensor) -> Tensor:
    nd = t._data.ndim
    return _v.reshape(t, (1, 1)) if nd == 0 else (_v.unsqueeze(t, 0) if nd == 1 else t)


def _fix_3d(t: Tensor) -> Tensor:
    nd = t._data.ndim
    if nd == 0:
        return _v.reshape(t, (1, 1, 1))
    if nd == 1:
        return _v.unsqueeze(_v.unsqueeze(t, 0), -1)
    return _v.unsqueeze(t, -1) if nd == 2 else t


atleast_1d = _atleast(_fix_1d)
atleast_2d = _atleast(_fix_2d)
atleast_3d = _atleast(_fix_3d)
atleast_1d.__name__, atleast_2d.__name__, atleast_3d.__name__ = "atleast_1d", "atleast_2d", "atleast_3d"
