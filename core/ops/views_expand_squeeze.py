"""Views that add or drop dims of size one or broadcast them: ``expand``/``expand_as``, ``unsqueeze``, ``squeeze``.

Apart from ``core.ops.views`` (the view geometry, ``view``/``reshape``, ``as_strided``, ``clone``) because their
strides are zeros or inserted ones and their backward sums (``expand``) or reshapes the gradient back. ``views``
re-exports them.
"""

from __future__ import annotations

from core._arg_types import dim_overloads_error, refuse_bool_dim, require_input, require_int
from core._factory_args import check_int64_list
from core._tensor import Tensor
from core.autograd.forward_ad import linear_jvp
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._util import ALL_DIMS, normalize_dim, normalize_dims, sum_to
from core.ops.views import _require_other, _shape_arg, make_view, reshape

__all__ = ["expand", "expand_as", "unsqueeze", "squeeze"]


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
    if size is None and not sizes:
        raise TypeError('expand() missing 1 required positional arguments: "size"')  # (torch's parser's words)
    if len(sizes) == 1 and not isinstance(sizes[0], (tuple, list)):  # (x.expand(1.5): no int list at all)
        require_int("expand", "size", 1, sizes[0], "tuple of ints")
    sizes = _shape_arg((size,) if size is not None else sizes)
    check_int64_list(sizes, "expand", "size")
    return Expand.apply(input, sizes=sizes)


def expand_as(input: Tensor, other: Tensor):
    _require_other("expand_as", other)
    return Expand.apply(input, sizes=tuple(other.shape))


class Unsqueeze(Function):
    node_name = "UnsqueezeBackward0"
    _saved_dim = SavedFromCtx(lambda ctx: ctx.get("raw_dim", ctx["dim"]))  # the dim as the call gave it

    @staticmethod
    def forward(ctx, a, *, dim):
        nd = a._data.ndim
        d = normalize_dim(dim, nd + 1)
        ctx.dim = d
        if d != dim:
            ctx.raw_dim = dim
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
    _saved_self_sym_sizes = SavedFromCtx(lambda ctx: ctx["in_shape"])

    @staticmethod
    def forward(ctx, a, *, dims):
        nd = a._data.ndim
        ctx.in_shape, ctx.dims = a._data.shape, dims  # (the dims as the call gave them: ``_saved_dim``)
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
    _saved_dim = SavedFromCtx(lambda ctx: ctx["dims"][0])


class SqueezeDims(Squeeze):
    node_name = "SqueezeBackward2"
    _saved_dim = SavedFromCtx(lambda ctx: ctx["dims"])


def squeeze(input: Tensor, dim=ALL_DIMS):
    require_input("squeeze", input)
    if dim is ALL_DIMS:
        return Squeeze.apply(input, dims=None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(input, dims=tuple(dim))
    if isinstance(dim, (bool, float)) or dim is None:  # (no int to PyTorch's parser: torch.squeeze(x, True) squeezes
        # no dim 1; None is no "squeeze all" either)
        raise dim_overloads_error("squeeze", dim, method=False)
    return SqueezeDim.apply(input, dims=(dim,))


def squeeze_method(self: Tensor, dim=ALL_DIMS, *more):
    """``x.squeeze(dim)``: ``squeeze``, its argument errors in the method's form; ``x.squeeze(0, 2)`` squeezes both
    dims, as torch's method takes its dims as varargs."""
    if more:
        dim = (dim, *more)
    if dim is ALL_DIMS:
        return Squeeze.apply(self, dims=None)
    if isinstance(dim, (tuple, list)):
        return SqueezeDims.apply(self, dims=tuple(dim))
    if isinstance(dim, (bool, float)) or dim is None:
        raise dim_overloads_error("squeeze", dim, method=True)
    return SqueezeDim.apply(self, dims=(dim,))


squeeze_method.__name__ = squeeze_method.__qualname__ = "squeeze"  # (PyTorch's method name)
