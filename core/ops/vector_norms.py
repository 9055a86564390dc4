"""Vector norms: ``torch.norm`` (``linalg.vector_norm``'s primitive, ``LinalgVectorNorm``) and ``dist``.

The p-norm's forward kernels (in PyTorch's order of adds) and its primitives; its backward formula
(``core.ops.norm_backward``) is shared with ``cdist``.
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._arg_types import require_tensors, tp_name
from core._cascade_sum import in_order
from core._factories import ones_like
from core._norm_order import p_norm, two_norm
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32, half_steps
from core.ops._saved_attrs import NORM_SAVED, dims_shown
from core.ops._strided import row_major
from core.ops._util import broadcast_shapes, check_same_device, operand_arrays, wrap, xp_of
from core.ops.conversion import to
from core.ops.norm_backward import norm_backward
from core.ops.reduction import accept_numpy_names, axes, reduce_dims, sum, type_name

__all__ = ["norm", "dist"]

_INF = math.inf


def _vector_norm(x, p, ax, keepdim):
    xp = xp_of(x)
    ab = xp.abs(x)
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        if p == _INF:
            out = xp.max(ab, axis=ax, keepdims=keepdim)
        elif p == -_INF:
            out = xp.min(ab, axis=ax, keepdims=keepdim)
        elif p == 0:
            out = xp.sum(ab != 0, axis=ax, keepdims=keepdim)
        elif p == 1:
            out = _one_norm_in_order(ab, ax, keepdim)
            if out is None:
                out = xp.sum(ab, axis=ax, keepdims=keepdim)
        elif p == 2:
            out = two_norm(x, ax, keepdim)  # float32 over trailing dims: PyTorch's order
            if out is None:
                out = xp.sqrt(xp.sum(ab * ab, axis=ax, keepdims=keepdim))
        else:
            out = _p_norm_in_order(ab, p, ax, keepdim)
            if out is None:
                out = xp.sum(ab ** x.dtype.type(p), axis=ax, keepdims=keepdim) ** x.dtype.type(1.0 / p)
    return xp.asarray(out, dtype=x.dtype)


def _p_norm_in_order(ab, p, ax, keepdim):
    """``core._norm_order.p_norm`` (PyTorch's in-order ``NormOps`` sum) over ``ax``, ``None`` where it declines."""
    dims = tuple(range(ab.ndim)) if ax is None else ((ax,) if isinstance(ax, (int, np.integer)) else tuple(ax))
    out = p_norm(ab, p, dims) if dims else None
    if out is None or keepdim:
        return out
    return out.reshape([s for i, s in enumerate(out.shape) if i not in {d % ab.ndim for d in dims}])


_GRAIN_SIZE = 32768  # ATen's internal::GRAIN_SIZE: a longer full reduction is split among the threads


def _one_norm_in_order(ab, ax, keepdim):
    """|x|'s 1-norm as PyTorch's CPU kernel adds it (``NormOneOps`` through ``binary_kernel_reduce``, not
    vectorised): each output adds its terms one at a time, from the first, in memory order (a single output of more
    than ``_GRAIN_SIZE`` terms is split among the threads: not here); NumPy's pairwise sum differed in the last bit
    of ~half the norms of 16 or more terms (``F.pairwise_distance(p=1)``). ``None`` for anything else."""
    if type(ab) is not np.ndarray or ab.dtype not in (np.float32, np.float64) or not ab.size or not ab.ndim:
        return None
    dims = tuple(range(ab.ndim)) if ax is None else ((ax,) if isinstance(ax, (int, np.integer)) else tuple(ax))
    dims = tuple(sorted({d % ab.ndim for d in dims}))
    moved = np.moveaxis(ab, dims, tuple(range(ab.ndim - len(dims), ab.ndim)))
    kept = moved.shape[:ab.ndim - len(dims)]
    if math.prod(kept) == 1 and ab.size > _GRAIN_SIZE:
        return None
    out = in_order(np.ascontiguousarray(moved).reshape(math.prod(kept), -1), 1).reshape(kept)
    return np.expand_dims(out, dims) if keepdim else out


def _check_norm_input(x, p, ax, op="linalg.vector_norm"):
    if not _dtype.from_numpy_dtype(x.dtype).is_floating_point:  # (bfloat16's NumPy kind is 'V')
        raise RuntimeError(f"{op}: Expected a floating point or complex tensor as input. Got "
                           f"{type_name(_dtype.from_numpy_dtype(x.dtype))}")
    if (p < 0 or p == _INF) and 0 in [x.shape[d] for d in ax]:  # (no identity: a max, min or 1/sum(1/x))
        raise RuntimeError(f"{op} cannot compute the {p:g} norm on an empty tensor because the operation "
                           "does not have an identity")


@computes_in_float32
class LinalgVectorNorm(Function):
    node_name = "LinalgVectorNormBackward0"
    saved_names = ("self", "result")
    _saved_ord, _saved_dim, _saved_keepdim = NORM_SAVED

    @staticmethod
    def forward(ctx, a, *, p, dims, keepdim, named=None, shown=None):
        ctx.shown = (p, dims) if shown is None else shown  # (the ord and dims as the call gave them)
        x = a._data
        ax = axes(dims, x.ndim)
        _check_norm_input(x, p, ax)
        # (named: the dims the caller gave, () for none, which norm_backward leaves out when it unsqueezes)
        ctx.p, ctx.dims, ctx.keepdim, ctx.named = p, dims, keepdim, dims if named is None else named
        res = wrap(row_major(_vector_norm(x, p, ax, keepdim)))  # (torch's result: contiguous)
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, res = ctx._unpacked
        g, a, res = half_steps(ctx, g, a, res)  # a half input: torch's norm_backward rounds each of its ops
        return norm_backward(g, a, ctx.p, res, ctx.named, ctx.keepdim)

    @staticmethod
    def jvp(ctx, t):
        a, res = ctx.inputs[0], ctx.output
        slope = norm_backward(ones_like(res), a, ctx.p, res, ctx.named, ctx.keepdim)  # d norm / d a
        return sum(slope * t, ctx.dims, keepdim=ctx.keepdim)


def _refuse_norm_dim(dim) -> None:
    """PyTorch's parser error for a ``norm`` dim that is no int or sequence of ints (a bool, a float, a str); the
    first element that is no int of a sequence (a NumPy or 0-d tensor integer passes, as torch's)."""
    prefix = "linalg_vector_norm(): argument 'dim' (position 3) must be tuple of ints"
    if isinstance(dim, (tuple, list)):
        for pos, d in enumerate(dim):
            if isinstance(d, bool) or not hasattr(type(d), "__index__"):
                raise TypeError(f"{prefix}, but found element of type {tp_name(d)} at pos {pos}")
        return
    if isinstance(dim, bool):
        raise TypeError(f"{prefix}, but found element of type bool at pos 0")
    if not hasattr(type(dim), "__index__"):
        raise TypeError(f"{prefix}, not {tp_name(dim)}")


def norm(input: Tensor, p="fro", dim=None, keepdim: bool = False, dtype=None):
    """``torch.norm``: a vector norm (any float p; 'fro' over at most two dims), else ``linalg.matrix_norm``
    ('nuc', or 'fro' over more dims), as torch.functional.norm dispatches."""
    if not isinstance(input, Tensor):  # torch.functional.norm reads input.layout first: a NumPy array raises
        getattr(input, "layout")  # noqa: B009 AttributeError there (TensorLy's PyTorch backend given an array: tl.norm(ndarray))
    if dim is not None and type(dim) is not int:
        _refuse_norm_dim(dim)  # (nothing for a sequence of ints)
    given_p, given_dim = p, dim
    if isinstance(p, str) and not (p == "fro" and (dim is None or isinstance(dim, int) or len(dim) <= 2)):
        from core.linalg import matrix_norm  # (core.linalg builds on this module)
        return matrix_norm(input, p, tuple(range(input.ndim)) if dim is None else dim, keepdim, dtype=dtype)
    if dtype is not None:
        input = to(input, _dtype.to_dtype(dtype))
    if isinstance(dim, int):
        dim = (dim,)
    if input.is_complex():  # the norm of the magnitudes (a real result)
        input = input.abs()
    p = 2.0 if p is None or p == "fro" else float(p)
    if not input.dtype.is_floating_point:  # (torch checks the dtype before the dims)
        _check_norm_input(input._data, p, ())
    dims = reduce_dims(input, dim)
    named = () if dim is None or isinstance(dim, (tuple, list)) and not dim else dims
    shown = (2 if given_p is None or given_p == "fro" else given_p, dims_shown(given_dim))
    return LinalgVectorNorm.apply(input, p=p, dims=dims, keepdim=bool(keepdim), named=named, shown=shown)


class Dist(Function):
    node_name = "DistBackward0"
    saved_names = ("self", "other", "result")
    _saved_p = SavedFromCtx(lambda c: c.get("given_p", c["p"]))  # (the p as the call gave it: an int stays an int)

    @staticmethod
    def forward(ctx, a, b, *, p, given_p=None):
        check_same_device(a, b)
        if given_p is not None:
            ctx.given_p = given_p

        x, y, _ = operand_arrays(a, b)
        with np.errstate(invalid="ignore", over="ignore"):
            d = xp_of(x).subtract(x, y)
        _check_norm_input(d, p, tuple(range(d.ndim)), "dist")
        ctx.p = p
        half = d.dtype == np.float16 or d.dtype.kind == "V"  # (float16, bfloat16: torch's norm sums in float32)
        norm = _vector_norm(d.astype(np.float32) if half else d, p, tuple(range(d.ndim)), False)
        res = wrap(xp_of(d).asarray(norm).astype(d.dtype) if half else norm)
        ctx.save_for_backward(a, b, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, b, res = ctx._unpacked
        # NOTE: derivatives.yaml's two formulas, each its own norm_backward(grad, self - other, p, result) (other's
        # negated), other's first as torch's generated code runs them: so a create_graph run records torch's nodes;
        # that norm_backward overload reduces over every dim with keepdim (nothing unsqueezed)
        gb = norm_backward(g, a - b, ctx.p, res, (), True) if ctx.needs_input_grad[1] else None
        gb = None if gb is None else -gb  # (None: p = 0, whose gradient PyTorch leaves undefined)
        ga = norm_backward(g, a - b, ctx.p, res, (), True) if ctx.needs_input_grad[0] else None
        return ga, gb


def dist(input: Tensor, other: Tensor, p=2):
    require_tensors("dist", input=(1, input), other=(2, other))
    if input.dtype is _dtype.bool or other.dtype is _dtype.bool:
        input - other  # (torch's dist subtracts first: its error for bool tensors)
    broadcast_shapes(input.shape, other.shape)  # torch's message for shapes that do not broadcast
    if input.is_complex() or other.is_complex():  # the norm of the difference's magnitudes (a real result)
        d = (input - other).abs()
        return LinalgVectorNorm.apply(d, p=float(p), dims=tuple(range(d.ndim)), keepdim=False)
    return Dist.apply(input, other, p=float(p), given_p=p)


accept_numpy_names(globals(), __all__)
