"""Statistics: all/any/count_nonzero, logsumexp, var/std (and their ``_mean`` pairs), norms, dist, softmax.

Like the reductions, each primitive keeps forward (on backend arrays) and backward (with
differentiable core ops) together; masks that only select elements are constants of forward.
Cumulative ops live in ``core.ops.cumulative`` and are re-exported from here.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from core import _dtype, _mkl_vml
from core import _softmax_kernels as softmax_kernels
from core._arg_types import (
    dim_overloads_error,
    is_index,
    refuse_bool_dim,
    require_tensors,
    std_dim_error,
    tp_name,
)
from core._cascade_sum import in_order, ordered_sum
from core._factories import ones_like
from core._lane_sum import HALF_LANES, LANES, row_max, softmax_sum
from core._norm_order import p_norm, two_norm
from core._precise import precise
from core._tensor import Tensor
from core._user_warning import warn_user
from core._var_all import var_all, welford, welford_fits
from core.autograd import grad_mode
from core.autograd.function import Function
from core.ops._float32_compute import computes_in_float32, half_steps, is_reduced, log_softmax_bfloat16
from core.ops._recorded import recorded
from core.ops._util import broadcast_shapes, check_same_device, normalize_dim, operand_arrays, quiet, wrap, xp_of
from core.ops.activation_backward import log_softmax_backward_data, softmax_backward_data
from core.ops.comparison import masked_fill
from core.ops.conversion import to
from core.ops.cumulative import *  # noqa: F403 - one family for users
from core.ops.cumulative import __all__ as _cumulative_all
from core.ops.elementwise import MulByNumber
from core.ops.math_unary import exp, log
from core.ops.norm_backward import norm_backward
from core.ops.reduction import (
    accept_numpy_names,
    axes,
    const,
    expand_reduced,
    mean,
    reduce_dims,
    sum,
    type_name,
    unsqueeze_reduced,
)
from core.overrides import handle_torch_function, has_torch_function_unary

__all__ = ["all", "any", "count_nonzero", "logsumexp", "var", "std", "var_mean", "std_mean", "norm", "dist",
           "softmax", "log_softmax", *_cumulative_all]

_INF = math.inf


# ----- all, any, count_nonzero, logsumexp --------------------------------------------------------


def _logical(input: Tensor, dim, keepdim, fn: str):
    x = input._data
    xp = xp_of(x)
    if isinstance(dim, (tuple, list)) and not dim:  # NOTE: PyTorch's all/any over no dims reduce nothing (sum's
        out = x != 0                                 # dim=() still means every dim)
        return wrap(out.astype(np.uint8) if x.dtype == np.uint8 else out)
    dims = reduce_dims(input, dim)
    out = xp.asarray(getattr(xp, fn)(x, axis=axes(dims, x.ndim), keepdims=bool(keepdim)))
    return wrap(out.astype(np.uint8) if x.dtype == np.uint8 else out)


@recorded
def all(input: Tensor, dim=None, keepdim: bool = False):  # PyTorch's name
    if isinstance(dim, (bool, float)):  # (no int to PyTorch's parser: torch.all(x, True) is no all over dim 1)
        raise dim_overloads_error("all", dim, method=False)
    try:
        return _logical(input, dim, keepdim, "all")
    except AttributeError:  # NOTE: a tensor-like (MaskedTensor) takes the call only where a plain one failed
        if not has_torch_function_unary(input):
            raise
        whole = dim is None and not keepdim
        return handle_torch_function(all, (input,), *((input,) if whole else (input, dim, keepdim)))


@recorded
def any(input: Tensor, dim=None, keepdim: bool = False):
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("any", dim, method=False)
    return _logical(input, dim, keepdim, "any")


@recorded
def all_method(self: Tensor, dim=None, keepdim: bool = False):
    """``x.all(dim)``: ``all``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("all", dim, method=True)
    return _logical(self, dim, keepdim, "all")


@recorded
def any_method(self: Tensor, dim=None, keepdim: bool = False):
    """``x.any(dim)``: ``any``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("any", dim, method=True)
    return _logical(self, dim, keepdim, "any")


@recorded
def count_nonzero(input: Tensor, dim=None):
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("count_nonzero", dim, method=False)
    return _count_nonzero(input, dim)


@recorded
def count_nonzero_method(self: Tensor, dim=None):
    """``x.count_nonzero(dim)``: ``count_nonzero``, its argument errors in the method's form."""
    if isinstance(dim, (bool, float)):
        raise dim_overloads_error("count_nonzero", dim, method=True)
    return _count_nonzero(self, dim)


for _method, _name in ((all_method, "all"), (any_method, "any"), (count_nonzero_method, "count_nonzero")):
    _method.__name__ = _method.__qualname__ = _name  # (PyTorch's method names; their errors name the op)


def _count_nonzero(input: Tensor, dim):
    x = input._data
    xp = xp_of(x)
    dims = reduce_dims(input, dim)
    return wrap(xp.asarray(xp.sum(x != 0, axis=axes(dims, x.ndim)), dtype=np.int64))


class Logsumexp(Function):
    node_name = "LogsumexpBackward0"

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt):
        x = a._data.astype(dt.np, copy=False)
        xp = xp_of(x)
        ax = axes(dims, x.ndim)
        ctx.in_shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if x.size == 0:
                out = xp.log(xp.sum(xp.exp(x), axis=ax, keepdims=True))
            else:
                m = xp.max(x, axis=ax, keepdims=True)  # NOTE: torch's steps: sum(exp(x - max)), log, + max, with
                m = xp.where(xp.isfinite(m), m, xp.zeros_like(m))  # its exp and log (MKL's: core._mkl_vml) and
                out = _mkl_vml.log(xp, ordered_sum(_mkl_vml.exp(xp, x - m), ax, True)) + m  # its sum order
        res = wrap(out if keepdim else out.reshape([s for i, s in enumerate(x.shape) if i not in ax]))
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, res = ctx.saved_tensors  # NOTE: PyTorch's grad * (self - result).exp(), both unsqueezed and broadcast
        lse = unsqueeze_reduced(res, ctx.in_shape, ctx.dims, ctx.keepdim)
        return unsqueeze_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim) * exp(a - lse)

    @staticmethod
    def jvp(ctx, t):
        y = expand_reduced(ctx.output, ctx.in_shape, ctx.dims, ctx.keepdim)
        return sum(exp(ctx.inputs[0] - y) * t, ctx.dims, keepdim=ctx.keepdim)  # the softmax-weighted tangent


def logsumexp(input: Tensor, dim, keepdim: bool = False):
    if dim is None:
        raise TypeError("logsumexp(): argument 'dim' must be tuple of ints, not NoneType")
    refuse_bool_dim("logsumexp", dim, "tuple of ints")
    if input.is_complex():
        return _complex_logsumexp(input, reduce_dims(input, dim), bool(keepdim))
    dt = input.dtype if input.dtype.is_floating_point else _dtype.get_default_dtype()
    return Logsumexp.apply(input, dims=reduce_dims(input, dim), keepdim=bool(keepdim), dt=dt)


def _complex_logsumexp(input: Tensor, dims, keepdim: bool) -> Tensor:
    """``log(sum(exp(x - m))) + m`` with m the largest real part (0 where it is not finite), composed as PyTorch's
    complex logsumexp: a complex result, differentiable through its ops."""
    x = input._data
    xp = xp_of(x)
    m = xp.max(x.real, axis=axes(dims, x.ndim), keepdims=True) if x.size else xp.zeros((1,) * x.ndim, x.real.dtype)
    m = const(xp.where(xp.isfinite(m), m, 0).astype(x.real.dtype), input)
    out = log(sum(exp(input - m), dims, keepdim=True)) + m
    return out if keepdim else out.squeeze(dims)


# ----- var, std, var_mean, std_mean --------------------------------------------------------------


def _var_args(op: str, input: Tensor, dim, unbiased, correction):
    """(dims, correction, whole) from PyTorch's overloads: ``var(unbiased)``, ``var(dim, unbiased)``,
    ``correction=``; ``whole``: no dim given (its backward then records ``mean()``, as PyTorch's)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    elif isinstance(dim, (float, str)):  # (no int to PyTorch's parser; the method's words for var/std, whose function
        more = () if unbiased is None else (tp_name(unbiased),)  # (the arguments after it, as the parser lists them)
        raise std_dim_error(op, dim, method=op in ("var", "std"), keyword=False, more=more)  # form rewords it: out_arg)
    if unbiased is not None and correction is not None:
        raise TypeError(f"{op}() received an invalid combination of arguments - got both unbiased and correction")
    if not (input.dtype.is_floating_point or input.dtype.is_complex):
        raise RuntimeError("std and var only support floating point and complex dtypes")
    if correction is None:
        correction = 1 if unbiased is None or unbiased else 0
    dims = reduce_dims(input, dim)
    ax = axes(dims, input.ndim)
    out_n = math.prod(s for i, s in enumerate(input.shape) if i not in ax)
    if (input.numel() // out_n if out_n else 0) - correction <= 0:
        for _ in range(2 if input.is_complex() else 1):  # (PyTorch checks a complex input's two parts, each warns)
            warn_user(f"{op}(): degrees of freedom is <= 0. Correction should be strictly less than the reduction "
                      "factor (input numel divided by output numel).")
    return dims, correction, dim is None


def _complex_var(input: Tensor, dims: tuple, keepdim, correction):
    """The variance of a complex ``input``: its real and imaginary parts' variances add (a real result)."""
    return (Var.apply(input.real, dims=dims, keepdim=bool(keepdim), correction=correction)
            + Var.apply(input.imag, dims=dims, keepdim=bool(keepdim), correction=correction))


def _exact(input: Tensor) -> bool:
    """Whether PyTorch's CPU kernel for ``input`` rounds once from double (float32/float64, not the half types)."""
    return input._data.dtype in (np.float32, np.float64)


def _reduces_all(input: Tensor, dims: tuple) -> bool:
    """Whether PyTorch's CPU var/std takes ``std_var_all_cpu`` (``core._var_all``): a float32/float64 input whose
    kept dimensions all have size 1 (TensorIterator coalesces them away: every dimension left is reduced)."""
    x = input._data
    return _exact(input) and builtins.all(s == 1 for i, s in enumerate(x.shape) if i not in axes(dims, x.ndim))


@computes_in_float32
class Var(Function):
    node_name = "VarBackward0"
    op = "var"

    @classmethod
    def forward(cls, ctx, a, *, dims, keepdim, correction, whole=False, all_cpu=False, welford_ok=False):
        x = a._data
        xp = xp_of(x)
        ax = axes(dims, x.ndim)
        n = int(np.prod([x.shape[d] for d in ax]))
        ctx.in_shape, ctx.dims, ctx.keepdim, ctx.whole = x.shape, dims, keepdim, whole or x.ndim == 0
        ctx.factor = 2.0 / (n - correction) if n - correction > 0 else _INF
        if all_cpu and xp is np and x.size:  # var/std of everything: PyTorch's std_var_all_cpu (core._var_all)
            out = np.full([1 if i in ax else s for i, s in enumerate(x.shape)] if keepdim else
                          [s for i, s in enumerate(x.shape) if i not in ax], var_all(x, correction))
            ctx.save_for_backward(a)
            return cls.finish(ctx, a, out, None)
        if welford_ok and xp is np and x.ndim and x.size and welford_fits(x, ax):  # PyTorch's WelfordOps
            out, mu = welford(x, ax, correction, keepdim)
            ctx.save_for_backward(a)
            return cls.finish(ctx, a, out, mu.astype(x.dtype))
        # NOTE: PyTorch's CPU kernels carry a float32 or float16 variance in double (Welford's, or two passes over
        # everything) and round the variance, its square root and the mean once at the end; so does core
        w = x.astype(np.float64) if x.dtype.itemsize < 8 and x.dtype.kind == "f" and xp is np else x
        with np.errstate(divide="ignore", invalid="ignore"):
            mu = xp.sum(w, axis=ax, keepdims=True) / w.dtype.type(n)
            d = w - mu
            # the squares written over the deviations (a fresh array): one temporary of the input's size, not two
            sq = xp.multiply(d, d, out=d) if isinstance(d, xp.ndarray) and d.ndim else d * d
            out = xp.sum(sq, axis=ax, keepdims=keepdim) / w.dtype.type(n - correction if n > correction else 0)
        ctx.save_for_backward(a)
        mu = xp.asarray(mu if keepdim else mu.reshape([s for i, s in enumerate(x.shape) if i not in ax]))
        return cls.finish(ctx, a, xp.asarray(out, dtype=w.dtype), mu.astype(x.dtype, copy=False))

    @staticmethod
    def finish(ctx, a, out, mu):
        return out.astype(a._data.dtype, copy=False)

    @staticmethod
    def backward(ctx, g):
        (a,) = ctx.saved_tensors
        return var_backward(ctx, g, a)

    @classmethod
    def jvp(cls, ctx, t):
        x = ctx.inputs[0]
        var_t = sum((x - mean(x, ctx.dims, keepdim=True)) * t, ctx.dims, keepdim=ctx.keepdim) * ctx.factor
        if cls.op == "std":
            return var_t / (2 * ctx.output)
        return var_t


def var_backward(ctx, g: Tensor, a: Tensor) -> Tensor:
    """``2 / (N - correction) * g * (x - mean)``, written with differentiable ops.

    NOTE: PyTorch's ``var_backward`` order: the factor (rounded to the dtype) times the gradient first, then
    times the deviations; the factor last rounded differently on a third of the elements."""
    g, a = half_steps(ctx, g, a)  # a half-precision input: each op rounds to it, as in PyTorch's formula
    if ctx.whole:  # no dim: a 0-d gradient broadcasts, and the mean is mean() (MeanBackward0)
        return MulByNumber.apply(g, ctx.factor) * (a - mean(a))
    g = unsqueeze_reduced(g, ctx.in_shape, ctx.dims, ctx.keepdim)  # broadcast by the product, not expanded
    return MulByNumber.apply(g, ctx.factor) * (a - mean(a, ctx.dims, keepdim=True))


def std_to_var_grad(g: Tensor, res: Tensor) -> Tensor:
    """``g / (2 std)``, zero where std is zero: PyTorch's ``(grad / (result * 2)).masked_fill_(result == 0, 0)``."""
    return masked_fill(g / MulByNumber.apply(res, 2), wrap(res._data == 0), 0)


@computes_in_float32
class Std(Var):
    node_name = "StdBackward0"
    op = "std"

    @staticmethod
    def finish(ctx, a, out, mu):
        res = wrap(xp_of(out).sqrt(out).astype(a._data.dtype, copy=False))
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, res = ctx.saved_tensors
        g, res = half_steps(ctx, g, res)
        return var_backward(ctx, std_to_var_grad(g, res), a)


@computes_in_float32
class VarMean(Var):
    node_name = "VarMeanBackward0"

    @staticmethod
    def finish(ctx, a, out, mu):
        ctx.count = int(np.prod([s for i, s in enumerate(a._data.shape) if i in ctx.dims])) or 1
        return out.astype(a._data.dtype, copy=False), mu

    @staticmethod
    def backward(ctx, g_var, g_mean):
        (a,) = ctx.saved_tensors
        return var_backward(ctx, g_var, a) + expand_reduced(g_mean, ctx.in_shape, ctx.dims, ctx.keepdim) / ctx.count

    @staticmethod
    def jvp(ctx, t):
        x = ctx.inputs[0]
        var_t = sum((x - mean(x, ctx.dims, keepdim=True)) * t, ctx.dims, keepdim=ctx.keepdim) * ctx.factor
        return var_t, mean(t, ctx.dims, keepdim=ctx.keepdim)


@computes_in_float32
class StdMean(Var):
    node_name = "StdMeanBackward0"
    op = "std"

    @staticmethod
    def finish(ctx, a, out, mu):
        ctx.count = int(np.prod([s for i, s in enumerate(a._data.shape) if i in ctx.dims])) or 1
        res = wrap(xp_of(out).sqrt(out).astype(a._data.dtype, copy=False))
        ctx.save_for_backward(a, res)
        return res, wrap(mu)

    @staticmethod
    def backward(ctx, g_std, g_mean):
        a, res = ctx.saved_tensors
        g = var_backward(ctx, std_to_var_grad(g_std, res), a)
        return g + expand_reduced(g_mean, ctx.in_shape, ctx.dims, ctx.keepdim) / ctx.count

    @staticmethod
    def jvp(ctx, t):
        x = ctx.inputs[0]
        var_t = sum((x - mean(x, ctx.dims, keepdim=True)) * t, ctx.dims, keepdim=ctx.keepdim) * ctx.factor
        return var_t / (2 * ctx.output[0]), mean(t, ctx.dims, keepdim=ctx.keepdim)


def var(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    dims, c, whole = _var_args("var", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c)
    return Var.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                     all_cpu=_reduces_all(input, dims), welford_ok=_exact(input))


def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    dims, c, whole = _var_args("std", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c).sqrt()
    return Std.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                     all_cpu=_reduces_all(input, dims), welford_ok=_exact(input))


def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(var, mean)`` as a plain tuple, like PyTorch."""
    dims, c, whole = _var_args("var_mean", input, dim, unbiased, correction)
    if input.is_complex():  # a real variance (var's), the complex mean
        return _complex_var(input, dims, keepdim, c), mean(input, dims, keepdim=bool(keepdim))
    return tuple(VarMean.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                           welford_ok=_exact(input)))


def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(std, mean)`` as a plain tuple, like PyTorch."""
    dims, c, whole = _var_args("std_mean", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c).sqrt(), mean(input, dims, keepdim=bool(keepdim))
    return tuple(StdMean.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                           welford_ok=_exact(input)))


# ----- norm, dist --------------------------------------------------------------------------------


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

    @staticmethod
    def forward(ctx, a, *, p, dims, keepdim, named=None):
        x = a._data
        ax = axes(dims, x.ndim)
        _check_norm_input(x, p, ax)
        # (named: the dims the caller gave, () for none, which norm_backward leaves out when it unsqueezes)
        ctx.p, ctx.dims, ctx.keepdim, ctx.named = p, dims, keepdim, dims if named is None else named
        res = wrap(_vector_norm(x, p, ax, keepdim))
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, res = ctx.saved_tensors
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
    return LinalgVectorNorm.apply(input, p=p, dims=dims, keepdim=bool(keepdim), named=named)


class Dist(Function):
    node_name = "DistBackward0"

    @staticmethod
    def forward(ctx, a, b, *, p):
        check_same_device(a, b)

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
        a, b, res = ctx.saved_tensors
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
    return Dist.apply(input, other, p=float(p))


# ----- softmax, log_softmax ----------------------------------------------------------------------


def _softmax_input(input: Tensor, dim, dtype, name: str):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {tp_name(input)}")
    if dim is None:
        raise TypeError(f"{name}() missing 1 required positional argument: 'dim'")
    if type(dim) is not int:  # (an int: one identity test)
        refuse_bool_dim(name, dim)
        if isinstance(dim, str):  # (PyTorch's parser checks dim, then dtype)
            raise TypeError(f"{name}(): argument 'dim' (position 2) must be int, not str")
    if dtype is not None:
        if isinstance(dtype, (int, float, str)):
            raise TypeError(f"{name}(): argument 'dtype' (position 3) must be torch.dtype, not {tp_name(dtype)}")
        input = to(input, _dtype.to_dtype(dtype))
    d = normalize_dim(dim, input._data.ndim)
    if not input.dtype.is_floating_point and input._data.size:
        kernel = "lastdim_kernel_impl" if d >= input._data.ndim - 1 else "kernel_impl"
        raise NotImplementedError(f'"{name}_{kernel}" not implemented for \'{type_name(input.dtype)}\'')
    return input, d


def _shifted(x, dim, log=False):
    """``x - max(x)`` along ``dim``, and the exp of it (``log``: as log_softmax's kernel takes it). As in
    PyTorch's kernels the max is not guarded: a row holding +inf, or only -inf, gives nan (inf - inf)."""
    xp = xp_of(x)
    if x.size == 0:
        return x, x
    if x.ndim == 0:
        return x - x, xp.exp(x - x)
    # NOTE: NumPy's maximum.reduce is np.max without its Python wrapper (~2 µs of a small batch's loss); over the
    # last dim of many short rows ``row_max`` (a classifier's logits: ~2.5x faster, see core._lane_sum)
    if xp is not np:
        m = xp.max(x, axis=dim, keepdims=True)
    elif dim % x.ndim == x.ndim - 1:
        m = row_max(x)
    else:
        m = np.maximum.reduce(x, axis=dim, keepdims=True)
    s = x - m
    e = softmax_kernels.kernel_exp(s, dim, log, in_place=not log)  # float32: SLEEF's and glibc's exps, as
    # PyTorch's kernels (softmax's into ``s``, which it does not use)
    return s, precise(xp.exp, s) if e is None else e


@computes_in_float32
class Softmax(Function):
    node_name = "SoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, *, dim):
        x = a._data
        ctx.dim = dim
        with quiet():  # NOTE: np.errstate's cost at a third (~3 µs a call: the hot path of every loss's softmax)
            _, e = _shifted(x, dim)
            if x.dtype == np.float32 and x.ndim:  # PyTorch's kernels: their order of adds; over the last dim,
                lanes = HALF_LANES if getattr(ctx, "half_dtype", None) else LANES  # (a bfloat16/float16 input)
                total = softmax_sum(e, dim, lanes)  # times the reciprocal of the sum
                last = dim % x.ndim == x.ndim - 1
                if type(e) is np.ndarray and e.size:  # (a fresh array: scaled in place)
                    out = wrap(np.multiply(e, np.float32(1) / total, out=e) if last else np.divide(e, total, out=e))
                else:
                    out = wrap(e * (np.float32(1) / total) if last else e / total)
            else:  # float64 over the last dim (AVX-512): PyTorch's order of adds too (core._softmax_kernels)
                out = softmax_kernels.softmax_double(e, dim)
                if out is None:
                    out = (e / (e.sum(axis=dim, keepdims=True) if x.ndim else e)).astype(x.dtype, copy=False)
                out = wrap(out)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        if not grad_mode._state.enabled:  # a plain backward: PyTorch's kernel's roundings (core._softmax_kernels)
            lanes = HALF_LANES if getattr(ctx, "half_dtype", None) else LANES  # (a bfloat16/float16 input)
            out = softmax_kernels.softmax_backward(g._data, y._data, ctx.dim, lanes)
            if out is not None:
                return wrap(out)
        return softmax_backward_data(g, y, ctx.dim)  # NOTE: an op of its own, as PyTorch records it

    @staticmethod
    def jvp(ctx, t):
        y = ctx.output
        return y * (t - sum(y * t, ctx.kw["dim"], keepdim=True))


@computes_in_float32(forward=False)
class LogSoftmax(Function):
    node_name = "LogSoftmaxBackward0"

    @staticmethod
    def forward(ctx, a, *, dim):
        x = a._data
        ctx.dim = dim
        if is_reduced(x.dtype):  # bfloat16, float16: PyTorch's kernel rounds twice (core.ops._float32_compute)
            out = wrap(log_softmax_bfloat16(x, dim))
            ctx.save_for_backward(out.float())  # backward computes in float32 from the rounded values
            return out
        with quiet():  # (as in Softmax.forward)
            s, e = _shifted(x, dim, log=True)
            total = softmax_kernels.log_softmax_sum(e, dim) if x.ndim else e  # PyTorch's order of adds
            out = wrap((s - softmax_kernels.kernel_log(total)).astype(x.dtype, copy=False))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        if not grad_mode._state.enabled:
            out = softmax_kernels.log_softmax_backward(g._data, y._data, ctx.dim)
            if out is not None:
                return wrap(out)
        return log_softmax_backward_data(g, y, ctx.dim)

    @staticmethod
    def jvp(ctx, t):
        return t - sum(exp(ctx.output) * t, ctx.kw["dim"], keepdim=True)


def softmax(input: Tensor, dim=None, dtype=None, *, _stacklevel=3):
    input, d = _softmax_input(input, dim, dtype, "softmax")
    return Softmax.apply(input, dim=d)


def log_softmax(input: Tensor, dim=None, dtype=None, *, _stacklevel=3):
    input, d = _softmax_input(input, dim, dtype, "log_softmax")
    return LogSoftmax.apply(input, dim=d)


_LOGICAL_OVERLOADS = ("()", "(tuple of ints dim = None, bool keepdim = False)", "(int dim, bool keepdim = False)")


def _logical_keywords_check(name: str, method: bool):
    """A check of ``all``'s/``any``'s keyword call (``accept_numpy_names``): PyTorch's parser error where a keyword
    is unknown (``x.any(dim=0, out=None)``), ``keepdim`` is no bool, or a ``dim`` given among several keywords is no
    int or ints; its "didn't match" lines as the parser prints them for the call's argument count (observed)."""
    def check(args, kwargs):
        dim = kwargs.get("dim", kwargs.get("axis", args[1] if len(args) > 1 else None))
        keepdim = kwargs.get("keepdim", kwargs.get("keepdims", False))
        unknown = builtins.any(k not in ("dim", "axis", "keepdim", "keepdims") for k in kwargs)
        bad_dim = not (dim is None or is_index(dim) or (isinstance(dim, (tuple, list)) and builtins.all(
            is_index(d) for d in dim)))
        if not (unknown or not isinstance(keepdim, bool) or (bad_dim and len(kwargs) > 1)):
            return
        keys = list(reversed(kwargs))  # (the parser lists keywords last first)
        given = [tp_name(a) for a in args[1:]] + [f"{k}={tp_name(v)}" for k, v in reversed(kwargs.items())]
        count = len(given)
        if method:
            lines = [(" * " + o, keys if (count == 1 and i == 0) or (count == 2 and i == 1) else
                      [k for k in keys if k != "dim"] if count == 2 and i == 2 else [])
                     for i, o in enumerate(_LOGICAL_OVERLOADS)]
            listed = ", ".join(given) + (", " if len(args) == 1 else "")
        else:
            lines = [(f" * (Tensor input, {o[1:-1]}{', ' if o != '()' else ''}*, Tensor out = None)",
                      keys if count == 2 and i == 0 else []) for i, o in enumerate(_LOGICAL_OVERLOADS)]
            listed = ", ".join(["Tensor", *given])
        text = "".join(f"{line}\n" + (f"      didn't match because some of the keywords were incorrect: "
                                      f"{', '.join(why)}\n" if why else "") for line, why in lines)
        raise TypeError(f"{name}() received an invalid combination of arguments - got ({listed}), but expected one "
                        f"of:\n{text}")

    return check


_LOGICAL_CHECKS = {"all": _logical_keywords_check("all", False), "any": _logical_keywords_check("any", False),
                   "all_method": _logical_keywords_check("all", True),
                   "any_method": _logical_keywords_check("any", True)}
accept_numpy_names(globals(), [n for n in __all__ if n not in _cumulative_all], _LOGICAL_CHECKS)
accept_numpy_names(globals(), ["all_method", "any_method", "count_nonzero_method"], _LOGICAL_CHECKS)  # (x.all(axis=0))
