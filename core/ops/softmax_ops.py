"""softmax and log_softmax: the row-wise exponentials normalised, with PyTorch's CPU kernels' roundings.

Apart from the reductions because their forward and backward call their own kernels (``core._softmax_kernels``,
``core._lane_sum``) and record ``_softmax_backward_data``-style nodes as PyTorch does.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core import _softmax_kernels as softmax_kernels
from core._arg_types import refuse_bool_dim, tp_name
from core._lane_sum import HALF_LANES, LANES, row_max, softmax_sum
from core._precise import precise
from core._tensor import Tensor
from core.autograd import grad_mode
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32, is_reduced, log_softmax_bfloat16
from core.ops._strided import row_major
from core.ops._util import normalize_dim, quiet, wrap, xp_of
from core.ops.activation_backward import log_softmax_backward_data, softmax_backward_data
from core.ops.conversion import to
from core.ops.math_unary import exp
from core.ops.reduction import accept_numpy_names, sum, type_name

__all__ = ["softmax", "log_softmax"]


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
    saved_names = ("result",)
    _saved_dim = SavedFromCtx(lambda ctx: ctx.get("raw_dim", ctx["dim"]))  # the dim as the call gave it

    @staticmethod
    def forward(ctx, a, *, dim, raw_dim=None):
        x = a._data
        ctx.dim = dim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        with quiet():  # NOTE: np.errstate's cost at a third (~3 µs a call: the hot path of every loss's softmax)
            _, e = _shifted(x, dim)
            if x.dtype == np.float32 and x.ndim:  # PyTorch's kernels: their order of adds; over the last dim,
                lanes = HALF_LANES if getattr(ctx, "half_dtype", None) else LANES  # (a bfloat16/float16 input)
                total = softmax_sum(e, dim, lanes)  # times the reciprocal of the sum
                last = dim % x.ndim == x.ndim - 1
                if type(e) is np.ndarray and e.size:  # (a fresh array: scaled in place)
                    out = np.multiply(e, np.float32(1) / total, out=e) if last else np.divide(e, total, out=e)
                else:
                    out = e * (np.float32(1) / total) if last else e / total
            else:  # float64 over the last dim (AVX-512): PyTorch's order of adds too (core._softmax_kernels)
                out = softmax_kernels.softmax_double(e, dim)
                if out is None:
                    out = (e / (e.sum(axis=dim, keepdims=True) if x.ndim else e)).astype(x.dtype, copy=False)
            out = wrap(row_major(out))  # (torch's kernel writes a contiguous result whatever the input's layout)
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx._unpacked
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
    saved_names = ("result",)
    _saved_dim = SavedFromCtx(lambda ctx: ctx.get("raw_dim", ctx["dim"]))  # the dim as the call gave it

    @staticmethod
    def forward(ctx, a, *, dim, raw_dim=None):
        x = a._data
        ctx.dim = dim
        if raw_dim is not None:
            ctx.raw_dim = raw_dim
        if is_reduced(x.dtype):  # bfloat16, float16: PyTorch's kernel rounds twice (core.ops._float32_compute)
            out = wrap(row_major(log_softmax_bfloat16(x, dim)))
            ctx.save_for_backward(out.float())  # backward computes in float32 from the rounded values
            return out
        with quiet():  # (as in Softmax.forward)
            s, e = _shifted(x, dim, log=True)
            total = softmax_kernels.log_softmax_sum(e, dim) if x.ndim else e  # PyTorch's order of adds
            out = wrap(row_major((s - softmax_kernels.kernel_log(total)).astype(x.dtype, copy=False)))
        ctx.save_for_backward(out)
        return out

    @staticmethod
    def backward(ctx, g):
        (y,) = ctx._unpacked
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
    return Softmax.apply(input, dim=d) if d == dim else Softmax.apply(input, dim=d, raw_dim=dim)


def log_softmax(input: Tensor, dim=None, dtype=None, *, _stacklevel=3):
    input, d = _softmax_input(input, dim, dtype, "log_softmax")
    return LogSoftmax.apply(input, dim=d) if d == dim else LogSoftmax.apply(input, dim=d, raw_dim=dim)


accept_numpy_names(globals(), __all__)
