"""Transposing views: ``transpose``/``swapaxes``/``swapdims``, ``t`` and ``permute`` (and their nodes).

Apart from ``core.ops.views`` (the view geometry, ``view``/``reshape``, ``as_strided``, ``clone``) because these
only reorder dims: each is a permutation of shape and strides, its backward the inverse permutation. ``views``
re-exports them.
"""

from __future__ import annotations

from core._arg_types import require_input, require_int, tp_name
from core._tensor import Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._fastpath import transposed_no_grad
from core.ops._util import normalize_dim
from core.ops.views import _permuted, _shape_arg, make_view

__all__ = ["transpose", "swapaxes", "swapdims", "t", "permute"]


class Transpose(Function):
    node_name = "TransposeBackward0"
    _saved_dim0 = SavedFromCtx(lambda ctx: ctx["dims"][0])
    _saved_dim1 = SavedFromCtx(lambda ctx: ctx["dims"][1])

    @staticmethod
    def forward(ctx, a, *, d0, d1):
        nd = a._data.ndim
        ctx.dims = (d0, d1)  # as the call gave them (PyTorch's ``_saved_dim0``; backward's transpose takes them so)
        d0, d1 = normalize_dim(d0, nd), normalize_dim(d1, nd)
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
    _saved_dims = SavedFromCtx(lambda ctx: ctx.get("raw_dims", ctx["dims"]))  # the dims as the call gave them

    @staticmethod
    def forward(ctx, a, *, dims):
        raw = dims
        nd = a._data.ndim
        if len(dims) != nd:
            raise RuntimeError(f"permute(sparse_coo): number of dimensions in the tensor input does not match "
                               f"the length of the desired ordering of dimensions i.e. input.dim() = {nd} is "
                               f"not equal to len(dims) = {len(dims)}")
        dims = tuple(normalize_dim(d, nd) for d in dims)
        if len(set(dims)) != nd:
            raise RuntimeError("permute(): duplicate dims are not allowed.")
        ctx.dims = dims
        if dims != raw:
            ctx.raw_dims = raw
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
    if len(dims) == 1 and not isinstance(dims[0], (tuple, list)):  # (x.permute(1.5): no int list at all)
        require_int("permute", "dims", 2, dims[0], "tuple of ints")
    if input.is_quantized:
        return input.permute(*dims)
    return Permute.apply(input, dims=_shape_arg(dims))
