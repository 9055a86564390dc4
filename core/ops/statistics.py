"""Statistics: var, std and their ``_mean`` pairs; the other reduction families re-exported from their modules.

Like the reductions, each primitive keeps forward (on backend arrays) and backward (with differentiable core ops)
together. all/any/count_nonzero (``core.ops.logical_reductions``), logsumexp (``core.ops.logsumexp_reduction``),
the vector norms and dist (``core.ops.vector_norms``), softmax/log_softmax (``core.ops.softmax_ops``) and the
cumulative ops (``core.ops.cumulative``) live in their own modules and are re-exported here, where code and
pickles of earlier versions find them.
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from core._arg_types import require_bool, std_dim_error, tp_name
from core._tensor import Tensor
from core._user_warning import warn_user
from core._var_all import var_all, welford, welford_fits
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32, half_steps
from core.ops._saved_attrs import dims_as_given
from core.ops._util import wrap, xp_of
from core.ops.comparison import masked_fill
from core.ops.cumulative import *  # noqa: F403 - one family for users
from core.ops.cumulative import __all__ as _cumulative_all
from core.ops.elementwise import MulByNumber
from core.ops.logical_reductions import (  # noqa: F401 - re-exported: the names this module held
    all,
    all_method,
    any,
    any_method,
    count_nonzero,
    count_nonzero_method,
)
from core.ops.logsumexp_reduction import Logsumexp, logsumexp  # noqa: F401
from core.ops.reduction import accept_numpy_names, axes, expand_reduced, mean, reduce_dims, sum, unsqueeze_reduced
from core.ops.softmax_ops import LogSoftmax, Softmax, log_softmax, softmax  # noqa: F401
from core.ops.vector_norms import Dist, LinalgVectorNorm, _vector_norm, dist, norm, norm_backward  # noqa: F401

__all__ = ["all", "any", "count_nonzero", "logsumexp", "var", "std", "var_mean", "std_mean", "norm", "dist",
           "softmax", "log_softmax", *_cumulative_all]

_INF = math.inf


def _var_args(op: str, input: Tensor, dim, unbiased, correction):
    """(dims, correction, whole) from PyTorch's overloads: ``var(unbiased)``, ``var(dim, unbiased)``,
    ``correction=``; ``whole``: no dim given (its backward then records ``mean()``, as PyTorch's)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    elif isinstance(dim, (float, str)):  # (no int to PyTorch's parser; the method's words for var/std, whose function
        more = () if unbiased is None else (tp_name(unbiased),)  # (the arguments after it, as the parser lists them)
        raise std_dim_error(op, dim, method=op in ("var", "std"), keyword=False, more=more)  # form rewords it: out_arg)
    if unbiased is not None:
        require_bool(op, "unbiased", 3, unbiased)
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
    saved_names = ("self",)
    # (the dims as the call gave them, its correction: None where it gave neither dims nor unbiased nor correction)
    _saved_dim, _saved_correction = dims_as_given("given", fallback="dims"), SavedFromCtx(lambda c: c["shown"])
    _saved_keepdim = SavedFromCtx(lambda c: c["keepdim"])

    @classmethod
    def forward(cls, ctx, a, *, dims, keepdim, correction, whole=False, all_cpu=False, welford_ok=False,
                given=None, shown=None):
        ctx.given, ctx.shown = given, shown
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
        (a,) = ctx._unpacked
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
    saved_names = ("self", "result")

    @staticmethod
    def finish(ctx, a, out, mu):
        res = wrap(xp_of(out).sqrt(out).astype(a._data.dtype, copy=False))
        ctx.save_for_backward(a, res)
        return res

    @staticmethod
    def backward(ctx, g):
        a, res = ctx._unpacked
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
        (a,) = ctx._unpacked
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
    saved_names = ("self", "result0")

    @staticmethod
    def finish(ctx, a, out, mu):
        ctx.count = int(np.prod([s for i, s in enumerate(a._data.shape) if i in ctx.dims])) or 1
        res = wrap(xp_of(out).sqrt(out).astype(a._data.dtype, copy=False))
        ctx.save_for_backward(a, res)
        return res, wrap(mu)

    @staticmethod
    def backward(ctx, g_std, g_mean):
        a, res = ctx._unpacked
        g = var_backward(ctx, std_to_var_grad(g_std, res), a)
        return g + expand_reduced(g_mean, ctx.in_shape, ctx.dims, ctx.keepdim) / ctx.count

    @staticmethod
    def jvp(ctx, t):
        x = ctx.inputs[0]
        var_t = sum((x - mean(x, ctx.dims, keepdim=True)) * t, ctx.dims, keepdim=ctx.keepdim) * ctx.factor
        return var_t / (2 * ctx.output[0]), mean(t, ctx.dims, keepdim=ctx.keepdim)


def _shown(dim, unbiased, correction) -> dict:
    """What var's/std's node shows as ``_saved_dim`` and ``_saved_correction``: the dims as given, and the
    correction PyTorch's overload passes (``x.var()`` passes none; NOTE: ``x.var(None)``, which torch shows as 1,
    cannot be told from it here)."""
    if isinstance(dim, bool):
        dim, unbiased = None, dim
    if correction is None and (unbiased is not None or dim is not None):
        correction = 1 if unbiased is None or unbiased else 0
    return {"given": dim, "shown": correction}


def var(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    require_bool("var", "keepdim", 4, keepdim)
    dims, c, whole = _var_args("var", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c)
    return Var.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                     all_cpu=_reduces_all(input, dims), welford_ok=_exact(input), **_shown(dim, unbiased, correction))


def std(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    require_bool("std", "keepdim", 4, keepdim)
    dims, c, whole = _var_args("std", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c).sqrt()
    return Std.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                     all_cpu=_reduces_all(input, dims), welford_ok=_exact(input), **_shown(dim, unbiased, correction))


def var_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(var, mean)`` as a plain tuple, like PyTorch."""
    require_bool("var_mean", "keepdim", 4, keepdim)
    dims, c, whole = _var_args("var_mean", input, dim, unbiased, correction)
    if input.is_complex():  # a real variance (var's), the complex mean
        return _complex_var(input, dims, keepdim, c), mean(input, dims, keepdim=bool(keepdim))
    return tuple(VarMean.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                               welford_ok=_exact(input), **_shown(dim, unbiased, correction)))


def std_mean(input: Tensor, dim=None, unbiased=None, keepdim: bool = False, *, correction=None):
    """``(std, mean)`` as a plain tuple, like PyTorch."""
    require_bool("std_mean", "keepdim", 4, keepdim)
    dims, c, whole = _var_args("std_mean", input, dim, unbiased, correction)
    if input.is_complex():
        return _complex_var(input, dims, keepdim, c).sqrt(), mean(input, dims, keepdim=bool(keepdim))
    return tuple(StdMean.apply(input, dims=dims, keepdim=bool(keepdim), correction=c, whole=whole,
                               welford_ok=_exact(input), **_shown(dim, unbiased, correction)))


accept_numpy_names(globals(), ["var", "std", "var_mean", "std_mean"])
