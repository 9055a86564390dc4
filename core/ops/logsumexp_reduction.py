"""logsumexp: ``log(sum(exp(x)))`` over dims, shifted by the max as PyTorch's kernel does (real and complex).

A reduction with its own gradient (the softmax-weighted one); kept apart from var/std, which it shares nothing
with but the reduction helpers.
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _mkl_vml
from core._arg_types import refuse_bool_dim, require_bool
from core._cascade_sum import ordered_sum
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._saved_attrs import dims_as_given
from core.ops._util import wrap, xp_of
from core.ops.math_unary import exp, log
from core.ops.reduction import accept_numpy_names, axes, const, expand_reduced, reduce_dims, sum, unsqueeze_reduced

__all__ = ["logsumexp"]


class Logsumexp(Function):
    node_name = "LogsumexpBackward0"
    saved_names = ("self", "result")
    _saved_dim, _saved_keepdim = dims_as_given("raw_dim", fallback="dims"), SavedFromCtx(lambda c: c["keepdim"])

    @staticmethod
    def forward(ctx, a, *, dims, keepdim, dt, raw_dim=None):
        x = a._data.astype(dt.np, copy=False)
        xp = xp_of(x)
        ax = axes(dims, x.ndim)
        ctx.in_shape, ctx.dims, ctx.keepdim = x.shape, dims, keepdim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
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
        a, res = ctx._unpacked  # NOTE: PyTorch's grad * (self - result).exp(), both unsqueezed and broadcast
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
    require_bool("logsumexp", "keepdim", 3, keepdim)
    if input.is_complex():
        return _complex_logsumexp(input, reduce_dims(input, dim), bool(keepdim))
    dt = input.dtype if input.dtype.is_floating_point else _dtype.get_default_dtype()
    return Logsumexp.apply(input, dims=reduce_dims(input, dim), keepdim=bool(keepdim), dt=dt, raw_dim=dim)


def _complex_logsumexp(input: Tensor, dims, keepdim: bool) -> Tensor:
    """``log(sum(exp(x - m))) + m`` with m the largest real part (0 where it is not finite), composed as PyTorch's
    complex logsumexp: a complex result, differentiable through its ops."""
    x = input._data
    xp = xp_of(x)
    m = xp.max(x.real, axis=axes(dims, x.ndim), keepdims=True) if x.size else xp.zeros((1,) * x.ndim, x.real.dtype)
    m = const(xp.where(xp.isfinite(m), m, 0).astype(x.real.dtype), input)
    out = log(sum(exp(input - m), dims, keepdim=True)) + m
    return out if keepdim else out.squeeze(dims)


accept_numpy_names(globals(), __all__)
