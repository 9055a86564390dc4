"""Elementwise binary and ternary math: pow, clamp, minimum/maximum, rounding divisions, remainders,
atan2, hypot, xlogy, logaddexp, copysign, heaviside, lerp, addcmul/addcdiv.

Result dtypes follow ``torch.result_type`` (computed here, never by NumPy); integer overflow wraps;
integer division by zero raises PyTorch's "ZeroDivisionError". Backward formulas use core ops and
follow PyTorch's edge conventions (noted with ``NOTE:``).
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype
from core._factories import zeros_like
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._util import broadcast_shapes, check_same_device, operand_arrays, xp_of
from core.ops.comparison import eq, ge, gt, isnan, le, lt, where
from core.ops.elementwise import _out, div
from core.ops.math_unary import log, not_implemented, sign

__all__ = ["pow", "float_power", "clamp", "clip", "clamp_min", "clamp_max", "minimum", "maximum", "fmax", "fmin",
           "floor_divide", "trunc_divide", "remainder", "fmod", "atan2", "arctan2", "hypot",
           "xlogy", "logaddexp", "copysign", "heaviside"]


def _shape(x):
    return x._data.shape if isinstance(x, Tensor) else ()


def _arrays(a, b, dt=None):
    """Both operands broadcast-checked, on one device, cast to ``dt`` (default: their promotion)."""
    broadcast_shapes(_shape(a), _shape(b))
    x, y, dt = operand_arrays(a, b, dt)
    return x, y, dt, xp_of(x)


def _result(res, dt):
    res = xp_of(res).asarray(res) if not isinstance(res, np.generic) else np.asarray(res)
    return res if res.dtype == dt.np else res.astype(dt.np)


def _save(ctx, a, b):
    ctx.save_for_backward(a if isinstance(a, Tensor) else None, b if isinstance(b, Tensor) else None)
    ctx.scalars = (a, b)


def _operands(ctx):
    a, b = ctx.saved_tensors
    sa, sb = ctx.scalars
    return (a if a is not None else sa), (b if b is not None else sb)


def _float_of(a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    return dt if dt.is_floating_point else _dtype.get_default_dtype()


def _floats_only(kernel, a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    if not dt.is_floating_point:
        raise not_implemented(kernel, dt)
    return dt


def _no_bool(kernel, dt):
    if dt is _dtype.bool:
        raise not_implemented(kernel, dt)


def _check_int_zero(x, y, dt):
    if not dt.is_floating_point and x.size and bool((y == 0).any()):
        raise RuntimeError("ZeroDivisionError")


# ----- pow ---------------------------------------------------------------------------------------
def _int_pow(xp, x, y):
    """Integer power; a negative exponent gives 1/x**n truncated (0 unless x is 1 or -1)."""
    neg = y < 0
    res = xp.power(x, xp.where(neg, 0, y).astype(x.dtype))
    if bool(neg.any()):
        odd = (y % 2) != 0
        inv = xp.where(x == 1, 1, xp.where(x == -1, xp.where(odd, -1, 1), 0)).astype(x.dtype)
        res = xp.where(neg, inv, res)
    return res


def _pow_dtype(a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    if dt is _dtype.bool and (isinstance(b, Tensor) or not isinstance(a, Tensor)):
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    if not dt.is_floating_point and isinstance(b, int) and not isinstance(b, bool) and b < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    return dt


class Pow(Function):
    """``tensor ** scalar``."""

    node_name = "PowBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _pow_dtype(a, b))
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            if dt is _dtype.bool:  # bool ** True is the tensor, bool ** False is all True
                res = x.copy() if b else xp.ones_like(x)
            else:
                res = xp.power(x, y) if dt.is_floating_point else _int_pow(xp, x, y)
        return _result(res, dt)

    @staticmethod
    def backward(ctx, g):
        x, e = _operands(ctx)
        if not isinstance(e, Tensor):
            return (zeros_like(g) if e == 0 else g * e * pow(x, e - 1)), None
        gx = gy = None
        if ctx.needs_input_grad[0]:  # NOTE: a zero exponent gives zero gradient, even at x = 0
            zero = eq(e, 0)
            safe = where(zero, 1, e)  # keeps 0 * inf (0 ** -1) out of the masked entries
            gx = where(zero, 0, g * safe * pow(x, safe - 1))
        if ctx.needs_input_grad[1]:  # NOTE: 0 ** e with e >= 0 gives zero exponent gradient
            if isinstance(x, Tensor):
                lg = where(eq(x, 0) & ge(e, 0), 0, log(x))
            else:
                lg = where(ge(e, 0), 0.0, -math.inf) if x == 0 else _log_scalar(x)
            gy = g * pow(x, e) * lg
        return gx, gy


def _log_scalar(v) -> float:
    return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)


class PowTensor(Pow):
    node_name = "PowBackward1"


class PowScalarBase(Pow):
    node_name = "PowBackward2"


def pow(input, exponent, *, out=None):  # noqa: A001 - PyTorch's name
    if not isinstance(input, Tensor):
        if not isinstance(exponent, Tensor):
            raise TypeError(f"pow(): argument 'input' must be Tensor, not {type(input).__name__}")
        return _out(PowScalarBase.apply(input, exponent), out)
    cls = PowTensor if isinstance(exponent, Tensor) else Pow
    return _out(cls.apply(input, exponent), out)


def float_power(input, exponent, *, out=None):
    """``pow`` computed and returned in float64."""
    a = input.to(_dtype.float64) if isinstance(input, Tensor) else float(input)
    b = exponent.to(_dtype.float64) if isinstance(exponent, Tensor) else float(exponent)
    return _out(pow(a, b), out)


# ----- clamp -------------------------------------------------------------------------------------
def _bounds_dtype(a, lo, hi) -> _dtype.dtype:
    return _dtype.result_type(a, *(v for v in (lo, hi) if v is not None))


def _clamp_arrays(a, lo, hi):
    dt = _bounds_dtype(a, lo, hi)
    shapes = [_shape(v) for v in (a, lo, hi) if v is not None]
    broadcast_shapes(*shapes)
    check_same_device(a, lo, hi)
    x, _, _ = operand_arrays(a, a, dt)
    xp = xp_of(x)
    with np.errstate(all="ignore"):
        if lo is not None:
            x = xp.maximum(x, operand_arrays(lo, a, dt)[0])
        if hi is not None:
            x = xp.minimum(x, operand_arrays(hi, a, dt)[0])
    return _result(x, dt)


class Clamp(Function):
    """Clamp by numbers: gradient passes where ``min <= x <= max`` (inclusive)."""

    node_name = "ClampBackward1"

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.bounds = (lo, hi)
        ctx.save_for_backward(a)
        return _clamp_arrays(a, lo, hi)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx.saved_tensors
        lo, hi = ctx.bounds
        keep = ge(x, lo) if lo is not None else None
        if hi is not None:
            keep = le(x, hi) if keep is None else keep & le(x, hi)
        return (where(keep, g, 0),) + (None,) * (len(ctx.needs_input_grad) - 1)


class ClampMin(Clamp):
    node_name = "ClampMinBackward0"


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"


class ClampTensor(Function):
    """Clamp by tensors (PyTorch's clamp_backward_min_max masks)."""

    node_name = "ClampBackward0"

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a, lo, hi)
        return _clamp_arrays(a, lo, hi)

    @staticmethod
    def backward(ctx, g):
        x, lo, hi = ctx.saved_tensors
        need = ctx.needs_input_grad
        gx = glo = ghi = None
        if lo is not None and hi is not None:
            gx = where(ge(x, lo) & le(x, hi), g, 0) if need[0] else None
            glo = where(lt(x, lo) & lt(lo, hi), g, 0) if need[1] else None
            ghi = where(gt(x, hi) | gt(lo, hi), g, 0) if need[2] else None
        elif lo is not None:
            gx = where(ge(x, lo), g, 0) if need[0] else None
            glo = where(lt(x, lo), g, 0) if need[1] else None
        else:
            gx = where(le(x, hi), g, 0) if need[0] else None
            ghi = where(gt(x, hi), g, 0) if need[2] else None
        return gx, glo, ghi


class ClampMinTensor(ClampTensor):
    node_name = "ClampMinBackward1"


class ClampMaxTensor(ClampTensor):
    node_name = "ClampMaxBackward1"


def check_bounds(name, lo, hi):
    """PyTorch's clamp takes two numbers or two tensors (or None), never one of each."""
    if (lo is not None and not isinstance(lo, Tensor)) or (hi is not None and not isinstance(hi, Tensor)):
        got = ", ".join(type(v).__name__ if not isinstance(v, Tensor) else "Tensor" for v in (lo, hi))
        raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, {got}), but "
                        "expected (Tensor input, Tensor min, Tensor max) or (Tensor input, Number min, Number max)")


def clamp(input, min=None, max=None, *, out=None):  # noqa: A002 - PyTorch's names
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    if isinstance(min, Tensor) or isinstance(max, Tensor):
        check_bounds("clamp", min, max)
        return _out(ClampTensor.apply(input, min, max), out)
    return _out(Clamp.apply(input, lo=min, hi=max), out)


clip = clamp


def clamp_min(input, min, *, out=None):  # noqa: A002
    if isinstance(min, Tensor):
        return _out(ClampMinTensor.apply(input, min, None), out)
    return _out(ClampMin.apply(input, lo=min), out)


def clamp_max(input, max, *, out=None):  # noqa: A002
    if isinstance(max, Tensor):
        return _out(ClampMaxTensor.apply(input, None, max), out)
    return _out(ClampMax.apply(input, hi=max), out)


# ----- minimum / maximum -----------------------------------------------------------------------------
def _tensors_only(name, a, b):
    for arg, what in ((a, "input"), (b, "other")):
        if not isinstance(arg, Tensor):
            raise TypeError(f"{name}(): argument '{what}' must be Tensor, not {type(arg).__name__}")


class Maximum(Function):
    node_name = "MaximumBackward0"
    ufunc = "maximum"

    @classmethod
    def forward(cls, ctx, a, b):
        x, y, dt, xp = _arrays(a, b)
        _save(ctx, a, b)
        return _result(getattr(xp, cls.ufunc)(x, y), dt)

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx.saved_tensors
        first, second = cls.masks(a, b)
        half = where(eq(a, b), g / 2, g)  # NOTE: ties split the gradient half and half, as PyTorch
        ga = where(first, 0, half) if ctx.needs_input_grad[0] else None
        gb = where(second, 0, half) if ctx.needs_input_grad[1] else None
        return ga, gb

    @staticmethod
    def masks(a, b):
        return lt(a, b), gt(a, b)


class Minimum(Maximum):
    node_name = "MinimumBackward0"
    ufunc = "minimum"

    @staticmethod
    def masks(a, b):
        return gt(a, b), lt(a, b)


class Fmax(Maximum):
    """NaN-ignoring maximum; ties (and a NaN ``other``) send the whole gradient to ``input``."""

    node_name = "FmaxBackward0"
    ufunc = "fmax"

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx.saved_tensors
        to_a = cls.first(a, b) | isnan(b)
        ga = where(to_a, g, 0) if ctx.needs_input_grad[0] else None
        gb = where(to_a, 0, g) if ctx.needs_input_grad[1] else None
        return ga, gb

    @staticmethod
    def first(a, b):
        return ge(a, b)


class Fmin(Fmax):
    node_name = "FminBackward0"
    ufunc = "fmin"

    @staticmethod
    def first(a, b):
        return le(a, b)


def _pairwise(cls, name):
    def op(input, other, *, out=None):
        _tensors_only(name, input, other)
        return _out(cls.apply(input, other), out)

    op.__name__ = op.__qualname__ = name
    return op


maximum, minimum = _pairwise(Maximum, "maximum"), _pairwise(Minimum, "minimum")
fmax, fmin = _pairwise(Fmax, "fmax"), _pairwise(Fmin, "fmin")


# ----- rounding divisions and remainders -------------------------------------------------------------
def _trunc_div(xp, x, y):
    if x.dtype.kind == "f":
        return xp.trunc(x / y)
    q = xp.floor_divide(x, y)
    r = x - q * y
    return q + ((r != 0) & ((x < 0) != (y < 0))).astype(x.dtype)


class DivRounding(Function):
    """``div(a, b, rounding_mode=...)``: piecewise constant, so zero gradients."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, *, mode):
        x, y, dt, xp = _arrays(a, b)
        _no_bool(f"div_{mode}_cpu", dt)
        _check_int_zero(x, y, dt)
        with np.errstate(all="ignore"):
            res = xp.floor_divide(x, y) if mode == "floor" else _trunc_div(xp, x, y)
        return _result(res, dt)

    @staticmethod
    def backward(ctx, g):
        return tuple(zeros_like(g) if n else None for n in ctx.needs_input_grad)


class FloorDivide(DivRounding):
    """``torch.floor_divide`` has no derivative in PyTorch (its grad_fn is ``NotImplemented``)."""

    node_name = "NotImplemented"

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def div_rounding(input, other, rounding_mode):
    """What ``div`` runs for ``rounding_mode`` 'floor' or 'trunc'."""
    return DivRounding.apply(input, other, mode=rounding_mode)


def floor_divide(input, other, *, out=None):
    """``input // other``: floors (Python's rule), with PyTorch's promotion."""
    return _out(FloorDivide.apply(input, other, mode="floor"), out)


def trunc_divide(input, other, *, out=None):
    return _out(DivRounding.apply(input, other, mode="trunc"), out)


class Remainder(Function):
    """Python's ``%``: the result takes the sign of the divisor."""

    node_name = "RemainderBackward0"
    ufunc, rounding = "remainder", "floor"

    @classmethod
    def forward(cls, ctx, a, b):
        x, y, dt, xp = _arrays(a, b)
        _no_bool(f"{cls.ufunc}_cpu", dt)
        _check_int_zero(x, y, dt)
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            return _result(getattr(xp, cls.ufunc)(x, y), dt)

    @classmethod
    def backward(cls, ctx, g):
        a, b = _operands(ctx)
        gb = -g * div(a, b, rounding_mode=cls.rounding) if ctx.needs_input_grad[1] else None
        return (g if ctx.needs_input_grad[0] else None), gb


class RemainderTensor(Remainder):
    node_name = "RemainderBackward1"


class Fmod(Remainder):
    """C's fmod: the result takes the sign of the dividend."""

    node_name = "FmodBackward0"
    ufunc, rounding = "fmod", "trunc"


class FmodTensor(Fmod):
    node_name = "FmodBackward1"


def remainder(input, other, *, out=None):
    return _out((RemainderTensor if isinstance(other, Tensor) else Remainder).apply(input, other), out)


def fmod(input, other, *, out=None):
    return _out((FmodTensor if isinstance(other, Tensor) else Fmod).apply(input, other), out)


# ----- atan2, hypot, xlogy, logaddexp, copysign, heaviside ---------------------------------------------
class Atan2(Function):
    node_name = "Atan2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        return _result(xp.arctan2(x, y), dt)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        den = a * a + b * b
        return (g * b / den if ctx.needs_input_grad[0] else None), (-g * a / den if ctx.needs_input_grad[1] else None)


class Hypot(Function):
    node_name = "HypotBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _floats_only("hypot_cpu", a, b))
        _save(ctx, a, b)
        return _result(xp.hypot(x, y), dt)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        out = hypot(a, b)
        return (g * a / out if ctx.needs_input_grad[0] else None), (g * b / out if ctx.needs_input_grad[1] else None)


class Xlogy(Function):
    """``x * log(y)``, 0 where x == 0 (unless y is NaN)."""

    node_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            return _result(xp.where((x == 0) & ~xp.isnan(y), 0, x * xp.log(y)), dt)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        ga = gb = None
        if ctx.needs_input_grad[0]:  # NOTE: zero where x == 0 and y <= 0, as PyTorch
            ga = xlogy(g, b)
            if isinstance(b, Tensor) or b <= 0:
                ga = where(eq(a, 0) & le(b, 0) if isinstance(b, Tensor) else eq(a, 0), 0, ga)
        if ctx.needs_input_grad[1]:
            gb = g * a / b
        return ga, gb


class XlogyScalarSelf(Xlogy):
    node_name = "XlogyBackward1"


class XlogyScalarOther(Xlogy):
    node_name = "XlogyBackward2"


class Logaddexp(Function):
    node_name = "LogaddexpBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _floats_only("logaddexp_cpu", a, b))
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            m = xp.maximum(x, y)
            res = xp.where(xp.isinf(x) & (x == y), x, m + xp.log1p(xp.exp(-xp.abs(x - y))))
        return _result(res, dt)

    @staticmethod
    def backward(ctx, g):
        from core.ops.math_unary import exp  # noqa: PLC0415

        a, b = _operands(ctx)
        ga = g / (1 + exp(b - a)) if ctx.needs_input_grad[0] else None
        gb = g / (1 + exp(a - b)) if ctx.needs_input_grad[1] else None
        return ga, gb


class Copysign(Function):
    node_name = "CopysignBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        return _result(xp.copysign(x, y), dt)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        ga = where(eq(a, 0), 0, g * sign(a) * sign(copysign(a, b))) if ctx.needs_input_grad[0] else None
        gb = zeros_like(b) if len(ctx.needs_input_grad) > 1 and ctx.needs_input_grad[1] else None
        return ga, gb


class CopysignScalar(Copysign):
    node_name = "CopysignBackward1"


class Heaviside(Function):
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        if a.dtype is not b.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        x, y, dt, xp = _arrays(a, b)
        return _result(xp.where(x == 0, y, x > 0), dt)

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


def atan2(input, other, *, out=None):
    return _out(Atan2.apply(input, other), out)


arctan2 = atan2


def hypot(input, other, *, out=None):
    return _out(Hypot.apply(input, other), out)


def xlogy(input, other, *, out=None):
    if not isinstance(input, Tensor):
        return _out(XlogyScalarSelf.apply(input, other), out)
    return _out((Xlogy if isinstance(other, Tensor) else XlogyScalarOther).apply(input, other), out)


def logaddexp(input, other, *, out=None):
    return _out(Logaddexp.apply(input, other), out)


def copysign(input, other, *, out=None):
    return _out((Copysign if isinstance(other, Tensor) else CopysignScalar).apply(input, other), out)


def heaviside(input, values, *, out=None):
    return _out(Heaviside.apply(input, values), out)

