"""Activations PyTorch runs as one kernel each (mish, hardswish, hardsigmoid, logsigmoid, glu, softshrink,
hardshrink): one primitive each here too, so a result prints PyTorch's ``grad_fn=<MishBackward0>`` (not the
``MulBackward0`` of a composition) and the forward rounds as PyTorch's CPU kernel does (its formula, in the
tensor's dtype, transcendental functions rounded once as ``core._precise`` does). Backward formulas are PyTorch's,
written with differentiable core ops so double backward works.
"""

from __future__ import annotations

import numpy as np

import core
from core import _fused as fused
from core import _glibc as glibc
from core._glibc import expf as glibc_expf
from core._precise import precise
from core._sleef import _f32fma, expf_u10, log1pf_u10, tanhf_u10, vector_loop
from core._sleef_logd import log1pd_u10
from core._sleef_tanhd import tanhd_u10
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.nn.functional import _activation_grads as grads
from core.nn.functional._flash_cpu import expd_u10
from core.ops._float32_compute import computes_in_float32
from core.ops._saved_attrs import DIM_AS_GIVEN
from core.ops._strided import row_major
from core.ops._util import xp_of

_ALL_ONES = np.array(0xFFFFFFFF, np.uint32).view(np.float32)  # the NaN of a float32 mask of ones
_ALL_ONES_64 = np.array(0xFFFFFFFFFFFFFFFF, np.uint64).view(np.float64)  # (a float64 one's)

__all__ = ["Mish", "Hardswish", "Hardsigmoid", "LogSigmoid", "Glu", "Softshrink", "Hardshrink"]


@computes_in_float32
class Mish(Function):
    node_name = "MishBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        xp = xp_of(a)
        if a.dtype == np.float32 and type(a) is np.ndarray:  # SLEEF's exp, log1p and tanh two vectors at a time,
            with np.errstate(over="ignore"):  # glibc's for the rest
                return vector_loop(a, lambda v: v * tanhf_u10(log1pf_u10(expf_u10(v))),
                                   lambda v: v * glibc.tanhf(glibc.log1pf(glibc_expf(v))))
        if a.dtype == np.float64 and type(a) is np.ndarray:  # (SLEEF's double functions, glibc's)
            with np.errstate(over="ignore"):
                return vector_loop(a, lambda v: v * tanhd_u10(log1pd_u10(expd_u10(v))),
                                   lambda v: v * glibc.tanh(glibc.log1p(glibc.exp(v))))
        with np.errstate(over="ignore"):  # x * tanh(log1p(exp(x))), as PyTorch's kernel
            return (a * precise(xp.tanh, precise(xp.log1p, precise(xp.exp, a)))).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        a, d = x._data, g._data
        if (a.dtype == np.float32 and d.dtype == np.float32 and type(a) is np.ndarray and type(d) is np.ndarray
                and a.shape == d.shape and not core.is_grad_enabled()):
            with np.errstate(over="ignore"):
                return new_tensor(vector_loop(a, _mish_grad_form(expf_u10, log1pf_u10, tanhf_u10),
                                              _mish_grad_form(glibc_expf, glibc.log1pf, glibc.tanhf), d))
        if (a.dtype == np.float64 and d.dtype == np.float64 and type(a) is np.ndarray and type(d) is np.ndarray
                and a.shape == d.shape and not core.is_grad_enabled()):
            with np.errstate(over="ignore"):
                return new_tensor(vector_loop(a, _mish_grad_form(expd_u10, log1pd_u10, tanhd_u10, np.float64),
                                              _mish_grad_form(glibc.exp, glibc.log1p, glibc.tanh, np.float64), d))
        if core.is_grad_enabled():  # create_graph: FunctionsManual's infinitely_differentiable_mish_backward
            # NOTE: its operands in the order GCC evaluates them (right to left), so the nodes are created, and
            # their gradients later added, in PyTorch's order
            sigmoid, tanh_softplus = x.sigmoid(), x.exp().log1p().tanh()
            one_minus = core.full_like(x, 1) - tanh_softplus * tanh_softplus
            return g * (tanh_softplus + x * sigmoid * one_minus)
        t = core.tanh(core.nn.functional.softplus(x))
        return g * (t + x * core.sigmoid(x) * (1 - t * t))


def _mish_grad_form(exp, log1p, tanh, dtype=np.float32):
    """mish_backward's kernel: ``dy (t + x sigmoid(x) (1 - t^2))``, t = tanh(log1p(exp(x))), sigmoid as
    1 / (1 + exp(-x)); NOTE: its compiled loop fuses ``1 - t t`` and ``t + (x sigmoid) (...)`` into two fused
    multiply-adds (without them 31% of the float32 gradients were the other neighbour of torch's)."""
    one = dtype(1)
    fma = _f32fma if dtype is np.float32 else (lambda a, b, c: fused.fma(np, a, b, c))

    def form(v, dy):
        sig = one / (one + exp(-v))
        t = tanh(log1p(exp(v)))
        return dy * fma(v * sig, fma(-t, t, one), t)
    return form


@computes_in_float32
class Hardswish(Function):
    node_name = "HardswishBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        dt = a.dtype.type
        return (a * xp_of(a).clip(a + dt(3), dt(0), dt(6)) / dt(6)).astype(a.dtype)  # x * min(max(x + 3, 0), 6) / 6

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return grads.recorded(_HARDSWISH_GRAD, _hardswish_grad, grads.hardswish_double, g, x)


_HARDSWISH_GRAD = grads.grad_op("HardswishBackwardBackward0")


def _hardswish_grad(g, x):
    middle = g * (x / 3 + 0.5)  # (PyTorch's edges: 0 at x = -3, g at x = 3)
    return core.where(x <= -3, core.zeros_like(g), core.where(x < 3, middle, g))


_ONE_SIXTH = float(np.float32(1 / 6))  # PyTorch's kernel: grad * (1.0f / 6.0f), a float32 constant for any dtype


@computes_in_float32
class Hardsigmoid(Function):
    node_name = "HardsigmoidBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        dt = a.dtype.type
        return (xp_of(a).clip(a + dt(3), dt(0), dt(6)) / dt(6)).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return grads.recorded(_NOT_IMPLEMENTED, _hardsigmoid_grad, _HARDSIGMOID_DOUBLE, g, x)


# NOTE: PyTorch has no derivative for hardsigmoid_backward: its recorded gradient's node is NotImplemented, which
# raises when a second derivative reaches it
_NOT_IMPLEMENTED = grads.grad_op("torch::autograd::NotImplemented")
_HARDSIGMOID_DOUBLE = grads.not_implemented("hardsigmoid_backward")


def _hardsigmoid_grad(g, x):
    return core.where((x > -3) & (x < 3), g * _ONE_SIXTH, core.zeros_like(g))


@computes_in_float32
class LogSigmoid(Function):
    node_name = "LogSigmoidBackward0"
    saved_names = ("self",)
    # (PyTorch's CPU kernel keeps exp(-|x|), its forward's intermediate, for the backward: shown, not read)
    _saved_buffer = SavedFromCtx(lambda c: Tensor._wrap(c["buffer"]), tensor=True)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        xp = xp_of(a)
        if a.dtype in (np.float32, np.float64) and type(a) is np.ndarray:  # NOTE: the kernel's vectorised form
            exp, log1p = (expf_u10, log1pf_u10) if a.dtype == np.float32 else (expd_u10, log1pd_u10)  # takes every
            with np.errstate(over="ignore", invalid="ignore"):  # element (a tail as a padded vector): SLEEF's exp
                z = np.asarray(exp(-np.abs(a).reshape(-1))).reshape(a.shape)
                out = np.minimum(a, a.dtype.type(0)) - log1p(z.reshape(-1)).reshape(a.shape)  # and log1p (on a
                out = np.asarray(out)  # 1-d view: a 0-d one's steps would give NumPy scalars)
            low = ctx.__dict__.get("half_dtype")
            ctx.buffer = z if low is None else z.astype(low.np)
            if np.isnan(out).any():  # NOTE: Vectorized's minimum ors an all-ones mask into a NaN: its sign bit is set
                out[np.isnan(a)] = _ALL_ONES if a.dtype == np.float32 else _ALL_ONES_64
            return out
        z = precise(xp.exp, -xp.abs(a))  # min(x, 0) - log1p(exp(-|x|)), as PyTorch's kernel
        ctx.buffer = z.astype(a.dtype)
        return (xp.minimum(a, 0) - precise(xp.log1p, z)).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return grads.recorded(_LOGSIGMOID_GRAD, _logsigmoid_grad, grads.logsigmoid_double, g, x,
                              ctx.__dict__.get("half_dtype"))


_LOGSIGMOID_GRAD = grads.grad_op("LogSigmoidBackwardBackward0")


def _logsigmoid_grad(g, x, low):
    """``log_sigmoid_backward``: its float32 kernel where nothing is recorded (``low``: a half input's dtype, whose
    buffer is kept in that dtype), else ``g * sigmoid(-x)``."""
    a, d = x._data, g._data
    if (a.dtype in (np.float32, np.float64) and d.dtype == a.dtype and type(a) is np.ndarray
            and type(d) is np.ndarray and a.shape == d.shape and not core.is_grad_enabled()):
        f = a.dtype.type  # the forward kernel's exp(-|x|) (SLEEF's, its tail loaded partially)
        with np.errstate(over="ignore", invalid="ignore"):
            buffer = (expf_u10 if f is np.float32 else expd_u10)(-np.abs(a).reshape(-1)).reshape(a.shape)
        if low is not None:
            buffer = buffer.astype(low.np).astype(np.float32)
        neg = a < 0  # log_sigmoid_backward's kernel: (max_deriv - sign * (b / (1 + b))) * grad
        max_deriv, sign = neg.astype(f), np.where(neg, f(1), f(-1))
        return new_tensor(np.asarray((max_deriv - sign * (buffer / (1 + buffer))) * d))  # (0-d: an array)
    return g * core.sigmoid(-x)


@computes_in_float32
class Glu(Function):
    node_name = "GluBackward0"
    saved_names = ("self",)
    _saved_dim = DIM_AS_GIVEN

    @staticmethod
    def forward(ctx, x, *, dim, raw_dim=None):
        ctx.save_for_backward(x)
        ctx.dim = dim
        if raw_dim is not None and raw_dim != dim:
            ctx.raw_dim = raw_dim  # (grad_fn._saved_dim: as the call gave it)
        xp = xp_of(x._data)
        a, b = xp.split(x._data, 2, axis=dim)
        with np.errstate(over="ignore"):
            if a.dtype == np.float32 and type(a) is np.ndarray:  # glu's kernel over the two halves (views)
                one = np.float32(1)
                return vector_loop(b, lambda v, u: u * (one / (one + expf_u10(-v))),
                                   lambda v, u: u * (one / (one + glibc_expf(-v))), a)
            return (a * (1 / (1 + precise(xp.exp, -b)))).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        low = ctx.__dict__.get("half_dtype")
        if core.is_grad_enabled() and g.dtype == x.dtype and g.dim() == x.dim():  # create_graph: torch's node
            return GluBackward.apply(g, x, dim=ctx.dim, low=low)
        return _glu_grad(g, x, ctx.dim, low)


_KERNEL_TYPES = (np.float32, np.float64)


def _glu_grad(g, x, dim, low):
    """``glu_backward(g, x, dim)``: PyTorch's kernel for float32 and float64 NumPy arrays (``low``: the half type whose
    sigmoid, a tensor of that dtype, is rounded to it), else the formula with core ops."""
    a, b = core.chunk(x, 2, dim)
    if x._data.dtype in _KERNEL_TYPES and g._data.dtype == x._data.dtype and not core.is_grad_enabled():
        s = core.sigmoid(b)._data  # glu_backward_cpu: sigmoid of the second half, then
        d, first = g._data, a._data  # (1 - s) s a grad for it and s grad for the first
        if low is not None:
            s = s.astype(low.np).astype(np.float32)
        return new_tensor(row_major(np.concatenate([s * d, (1 - s) * s * first * d], axis=dim)))  # (contiguous, as
        # glu_backward_cpu's output: NumPy's concatenate keeps a transposed input's order)
    s = core.sigmoid(b)
    return core.cat([g * s, g * a * s * (1 - s)], dim)


class GluBackward(Function):
    """``glu_backward(grad_output, self, dim)`` as an op of its own, recorded under ``create_graph=True`` as
    PyTorch's ``GluBackwardBackward0``; its derivatives are FunctionsManual's ``glu_double_backward_grad_output``
    and ``glu_double_backward``, term for term."""

    node_name = "GluBackwardBackward0"

    @staticmethod
    def forward(ctx, g, x, *, dim, low):
        ctx.dim, ctx.low = dim, low
        ctx.save_for_backward(g, x)
        return _glu_grad(g, x, dim, low)._data

    @staticmethod
    def backward(ctx, gg):
        g, x = ctx._unpacked
        return (_glu_double_grad_output(gg, x, ctx.dim, ctx.low) if ctx.needs_input_grad[0] else None,
                _glu_double(gg, g, x, ctx.dim) if ctx.needs_input_grad[1] else None)

    @staticmethod
    def jvp(ctx, tg, tx):
        g, x = ctx.inputs
        dim, low = ctx.kw["dim"], ctx.kw["low"]
        total = None if tg is None else GluBackward.apply(tg, x, dim=dim, low=low)
        if tx is not None:  # (the Hessian of <g, glu(x)> is symmetric: the VJP's formula is the JVP's)
            extra = _glu_double(tx, g, x, dim)
            total = extra if total is None else total + extra
        return core.zeros_like(x) if total is None else total


def _glu_double_grad_output(gg, x, dim, low):
    """``tmp = gg * glu_backward(ones, x)``, its two halves added."""
    half = x.shape[dim] // 2
    ones = core.ones(x.shape[:dim] + (half,) + x.shape[dim + 1:], dtype=x.dtype, device=x.device)
    tmp = gg * GluBackward.apply(ones, x, dim=dim, low=low)
    return tmp.narrow(dim, 0, half) + tmp.narrow(dim, half, half)


def _glu_double(gg, g, x, dim):
    half = x.shape[dim] // 2
    first, second = x.narrow(dim, 0, half), x.narrow(dim, half, half)
    sig = second.sigmoid()
    one_sub_sig = core.full_like(sig, 1) - sig  # (C++'s 1 - t: SubBackward0 of a filled tensor)
    sig_one_sub_sig = sig * one_sub_sig
    gg_first, gg_second = gg.narrow(dim, 0, half), gg.narrow(dim, half, half)
    gg_second_times_first = gg_second * first
    gi_first = gg_second * g * sig_one_sub_sig
    second_order = sig_one_sub_sig * one_sub_sig - sig * sig_one_sub_sig
    gi_second = gg_second_times_first * g * second_order + gg_first * g * sig_one_sub_sig
    return core.cat([gi_first, gi_second], dim)


class _Shrink(Function):
    """``x - shift`` where ``|x| > lambd`` (shift lambd or -lambd for softshrink, 0 for hardshrink), else 0."""

    soft = False

    @classmethod
    def forward(cls, ctx, x, *, lambd):
        a = x._data
        xp = xp_of(a)
        dt = a.dtype.type
        ctx.save_for_backward(x)
        ctx.lambd = lambd
        lam = dt(lambd)
        if not cls.soft:  # hardshrink: (x >= -l && x <= l) ? 0 : x, so nan passes through
            return xp.where((a >= -lam) & (a <= lam), dt(0), a).astype(a.dtype)

        def form(zero):  # softshrink: x - l, x + l, else 0 (nan passes; the scalar form's x * 0 keeps the sign)
            return lambda v: xp.where(v > lam, v - lam, xp.where(v < -lam, v + lam, zero(v)))
        vec, scalar = form(lambda v: xp.where(xp.isnan(v), v, dt(0))), form(lambda v: v * dt(0))
        if a.dtype in (np.float32, np.float64) and type(a) is np.ndarray:
            return vector_loop(a, vec, scalar, pair=16)  # (torch's AVX2 build of the kernel)
        return vec(a).astype(a.dtype)

    @classmethod
    def backward(cls, ctx, g):
        (x,) = ctx._unpacked
        return grads.recorded(cls.grad_op, _shrink_grad, grads.zero_double, g, x, ctx.lambd)


def _shrink_grad(g, x, lambd):
    return core.where((x > lambd) | (x < -lambd), g, core.zeros_like(g))


class Softshrink(_Shrink):
    node_name = "SoftshrinkBackward0"
    soft = True
    grad_op = grads.grad_op("SoftshrinkBackwardBackward0")


class Hardshrink(_Shrink):
    node_name = "HardshrinkBackward0"
    grad_op = grads.grad_op("HardshrinkBackwardBackward0")
