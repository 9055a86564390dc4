"""Elementwise binary math, part two: rounding divisions, remainder/fmod, atan2, hypot, xlogy, logaddexp,
copysign and heaviside.

Result dtypes follow ``torch.result_type``; integer division (or remainder) by zero raises PyTorch's
"ZeroDivisionError"; backward formulas use core ops (PyTorch's edge conventions marked ``NOTE:``).
"""

from __future__ import annotations

import numpy as np

from core import _dtype, _glibc, _libm
from core._alias import alias
from core._arg_types import require_one_tensor, require_tensor_input, require_tensors
from core._factories import zeros_like
from core._tensor import Tensor, new_tensor
from core.autograd.function import Function
from core.ops._binary_operands import (
    _arrays,
    _check_int_zero,
    _float_of,
    _floats_only,
    _no_bool,
    _operands,
    _result,
    _save,
)
from core.ops._float32_compute import is_reduced
from core.ops.comparison import eq, le, masked_fill
from core.ops.elementwise import _out, div
from core.ops.math_unary import exp, not_implemented
from core.ops.scalar_forms import add_s, mul_s

__all__ = ["floor_divide", "trunc_divide", "remainder", "fmod", "atan2", "arctan2", "hypot", "xlogy", "logaddexp",
           "copysign", "heaviside"]


# ----- rounding divisions and remainders -------------------------------------------------------------
def _trunc_div(xp, x, y):
    if x.dtype.kind in "fV":  # (bfloat16 too: trunc of the quotient in its dtype)
        return xp.trunc(x / y)
    q = xp.floor_divide(x, y)
    r = x - q * y
    return q + ((r != 0) & ((x < 0) != (y < 0))).astype(x.dtype)


def _div_floor(xp, a, b):
    """c10's ``div_floor_floating`` (Python's floor division from fmod) in the arrays' dtype, each step rounded
    there as its half-type kernel does (NumPy's floor_divide of float16 computes in float32 and rounds once)."""
    mod = xp.fmod(a, b)
    div = (a - mod) / b
    div = xp.where((mod != 0) & ((b < 0) != (mod < 0)), div - a.dtype.type(1), div)
    floor = xp.floor(div)
    floor = xp.where(div - floor > a.dtype.type(0.5), floor + a.dtype.type(1), floor)
    res = xp.where(div != 0, floor, xp.copysign(xp.zeros_like(div), a / b))
    return xp.where(b == 0, a / b, res)


class DivRounding(Function):
    """``div(a, b, rounding_mode=...)``: piecewise constant, so zero gradients."""

    node_name = "DivBackward2"

    @staticmethod
    def forward(ctx, a, b, *, mode):
        x, y, dt, xp = _arrays(a, b)
        _no_bool(f"div_{mode}_cpu", dt)
        _check_int_zero(x, y, dt)
        if is_reduced(x.dtype) and (isinstance(b, (int, float)) or isinstance(b, Tensor) and b.numel() == 1):
            # NOTE: a half type's kernel with a scalar divisor (a number, a one-element tensor) divides in float32
            # (opmath), the scalar's own value as a float32 (x // 0.3: by float32's 0.3, not the half type's);
            # otherwise in the half type, each step rounded
            x, y = x.astype(np.float32), np.float32(b if isinstance(b, (int, float)) else b.item())
        with np.errstate(all="ignore"):
            if mode == "floor":
                res = _div_floor(xp, x, y) if is_reduced(x.dtype) else xp.floor_divide(x, y)
            else:
                res = _trunc_div(xp, x, y)
        return _result(res, dt, x, y)

    @staticmethod
    def backward(ctx, g):
        return tuple(zeros_like(g) if n else None for n in ctx.needs_input_grad)


class FloorDivide(DivRounding):
    """``torch.floor_divide`` has no derivative in PyTorch (its grad_fn is ``NotImplemented``, one edge)."""

    node_name = "NotImplemented"
    edgeless_inputs = (1,)

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("derivative for aten::floor_divide is not implemented")


def div_rounding(input, other, rounding_mode):
    """What ``div`` runs for ``rounding_mode`` 'floor' or 'trunc'."""
    return DivRounding.apply(input, other, mode=rounding_mode)


class FloorDivideScalarSelf(FloorDivide):
    """``number // tensor``: one edge, the tensor's."""

    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, b, *, number, mode):
        return DivRounding.forward(ctx, number, b, mode=mode)


def floor_divide(input, other, *, out=None):
    """``input // other``: floors (Python's rule), with PyTorch's promotion."""
    if not isinstance(input, Tensor):
        return _out(FloorDivideScalarSelf.apply(other, number=input, mode="floor"), out, input, other)
    return _out(FloorDivide.apply(input, other, mode="floor"), out, input, other)


def trunc_divide(input, other, *, out=None):
    return _out(DivRounding.apply(input, other, mode="trunc"), out, input, other)


class Remainder(Function):
    """Python's ``%``: the result takes the sign of the divisor."""

    node_name = "RemainderBackward0"
    edgeless_inputs = (1,)  # a number divisor (the Tensor overload's node has both edges)
    ufunc, rounding = "remainder", "floor"

    @classmethod
    def forward(cls, ctx, a, b):
        x, y, dt, xp = _arrays(a, b)
        _no_bool(f"{cls.ufunc}_cpu", dt)
        _check_int_zero(x, y, dt)
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            if cls.ufunc == "remainder" and dt.is_floating_point:
                return _result(_float_remainder(xp, x, y), dt, x, y)
            return _result(getattr(xp, cls.ufunc)(x, y), dt, x, y)

    @classmethod
    def backward(cls, ctx, g):
        a, b = _operands(ctx)
        gb = -g * div(a, b, rounding_mode=cls.rounding) if ctx.needs_input_grad[1] else None
        return (g if ctx.needs_input_grad[0] else None), gb


def _float_remainder(xp, x, y):
    """PyTorch's float remainder: C's ``fmod``, plus the divisor when the two differ in sign, so a zero result
    keeps the dividend's sign (``remainder(-3., 3.)`` is ``-0.``; NumPy's takes the divisor's)."""
    m = xp.fmod(x, y)
    return xp.where((m != 0) & ((y < 0) != (m < 0)), m + y, m)


class RemainderTensor(Remainder):
    node_name = "RemainderBackward1"
    edgeless_inputs = ()


class Fmod(Remainder):
    """C's fmod: the result takes the sign of the dividend."""

    node_name = "FmodBackward0"
    ufunc, rounding = "fmod", "trunc"


class FmodTensor(Fmod):
    node_name = "FmodBackward1"
    edgeless_inputs = ()


class RemainderScalarSelf(Remainder):
    """``remainder(number, tensor)`` has no derivative in PyTorch; its node has one edge, the tensor's."""

    node_name = "NotImplemented"

    @classmethod
    def forward(cls, ctx, b, *, number):
        return super().forward(ctx, number, b)

    @classmethod
    def backward(cls, ctx, g):
        raise RuntimeError("derivative for aten::remainder is not implemented")


def remainder(input, other, *, out=None):
    if not isinstance(input, Tensor):
        require_one_tensor("remainder", input, other)
        return _out(RemainderScalarSelf.apply(other, number=input), out, input, other)
    return _out((RemainderTensor if isinstance(other, Tensor) else Remainder).apply(input, other), out, input, other)


def fmod(input, other, *, out=None):
    require_tensor_input("fmod", input, other)
    return _out((FmodTensor if isinstance(other, Tensor) else Fmod).apply(input, other), out, input, other)


# ----- atan2, hypot, xlogy, logaddexp, copysign, heaviside ---------------------------------------------
def _rounded_once(f, x, y):
    """``f(x, y)`` of float32 (or narrower) NumPy arrays computed in float64 and rounded once to float32, as the
    C library's nearly correctly rounded ``atan2f``/``hypotf`` give (NumPy's float32 loops are 1-2 ulp off)."""
    if type(x) is np.ndarray and x.dtype.kind == "f" and x.dtype.itemsize <= 4:
        return f(x.astype(np.float64), y.astype(np.float64)).astype(np.float32)
    return f(x, y)


class Atan2(Function):
    node_name = "Atan2Backward0"
    saved_names = ("self", "other")

    @staticmethod
    def forward(ctx, a, b):
        for t in (a, b):
            if isinstance(t, Tensor) and t.is_complex():
                raise not_implemented("atan2_cpu", t.dtype)
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        return _result(_rounded_once(xp.arctan2, x, y), dt, x, y)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        denom = a * a + b * b  # NOTE: torch's atan2_backward: grad * other * recip, grad * -self * recip, with
        recip = masked_fill(denom.reciprocal(), denom == 0, 0)  # recip 0 at the origin (no NaN there)
        need = ctx.needs_input_grad
        return (g * b * recip if need[0] else None), (g * -a * recip if need[1] else None)


class Hypot(Function):
    """``sqrt(a² + b²)``; as PyTorch's, the gradients divide by the saved result (a write to it fails backward)."""

    node_name = "HypotBackward0"
    saved_names = ("self", "other", "result")

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _floats_only("hypot_cpu", a, b))
        _save(ctx, a, b)
        out = _result(_rounded_once(xp.hypot, x, y), dt, x, y)
        out = out if isinstance(out, Tensor) else new_tensor(out)
        need = ctx.needs_input_grad or (False, False)  # (each operand only for its own gradient, as PyTorch saves)
        ctx.save_for_backward(*(t if n else None for t, n in zip(ctx._saved, need)), out)
        return out

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        out = ctx._unpacked[2]
        return (g * a / out if ctx.needs_input_grad[0] else None), (g * b / out if ctx.needs_input_grad[1] else None)


def _times_c_log(xp, x, y):
    """``x * std::log(y)`` as PyTorch's scalar xlogy kernel computes it: glibc's ``logf`` for float32 and the half
    types (whose log is rounded to the half type before the product), ``log`` for float64 (NumPy's vectorised logs
    differ from them in the last bit for a fraction of inputs)."""
    if xp is not np or y.dtype.kind != "f" and not is_reduced(y.dtype):
        return x * xp.log(y)
    if y.dtype == np.float64:
        return x * _libm.log(y)
    return x * _glibc.logf(y.astype(np.float32)).astype(y.dtype)


class Xlogy(Function):
    """``x * log(y)``, 0 where x == 0 (unless y is NaN)."""

    node_name = "XlogyBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            return _result(xp.where((x == 0) & ~xp.isnan(y), 0, _times_c_log(xp, x, y)), dt, x, y)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        ga = gb = None
        if ctx.needs_input_grad[1]:  # (the other's first, as torch's generated code: sorted by name)
            gb = (g * a if isinstance(a, Tensor) else mul_s(g, a)) / b  # (a number self: C++'s Scalar, MulBackward1)
        if ctx.needs_input_grad[0]:  # NOTE: zero where x == 0 and y <= 0, as PyTorch
            ga = xlogy(g, b)
            if isinstance(b, Tensor) or b <= 0:  # (PyTorch's masked_fill: a C-contiguous gradient then)
                ga = masked_fill(ga, eq(a, 0) & le(b, 0) if isinstance(b, Tensor) else eq(a, 0), 0)
        return ga, gb


class XlogyScalarSelf(Xlogy):
    node_name = "XlogyBackward1"
    edgeless_inputs = (0,)  # the number


class XlogyScalarOther(Xlogy):
    node_name = "XlogyBackward2"
    edgeless_inputs = (1,)  # the number


class Logaddexp(Function):
    node_name = "LogaddexpBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _floats_only("logaddexp_cpu", a, b))
        _save(ctx, a, b)
        if is_reduced(x.dtype):  # PyTorch's half kernels compute in float32 and round once
            x, y = x.astype(np.float32), y.astype(np.float32)
        with np.errstate(all="ignore"):
            m = xp.maximum(x, y)
            res = xp.where(xp.isinf(x) & (x == y), x, m + xp.log1p(xp.exp(-xp.abs(x - y))))
        return _result(res, dt, x, y)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        # NOTE: torch's grad / (1 + exp(other - self)), its 1 + a Scalar (AddBackward1); the other's gradient first,
        # as torch's generated code computes them (derivatives in the sorted order of their names)
        gb = g / add_s(exp(a - b), 1) if ctx.needs_input_grad[1] else None
        ga = g / add_s(exp(b - a), 1) if ctx.needs_input_grad[0] else None
        return ga, gb


class Copysign(Function):
    node_name = "CopysignBackward0"

    @staticmethod
    def forward(ctx, a, b):
        x, y, dt, xp = _arrays(a, b, _float_of(a, b))
        _save(ctx, a, b)
        return _result(xp.copysign(x, y), dt, x, y)

    @staticmethod
    def backward(ctx, g):
        a, b = _operands(ctx)
        ga = None
        if ctx.needs_input_grad[0]:  # NOTE: torch's copysign_tensor_self_backward: grad * (result / self), 0 at self 0
            ga = g * masked_fill(copysign(a, b) / a, eq(a, 0), 0)
        gb = zeros_like(b) if len(ctx.needs_input_grad) > 1 and ctx.needs_input_grad[1] else None
        return ga, gb


class CopysignScalar(Copysign):
    node_name = "CopysignBackward1"
    edgeless_inputs = (1,)  # the number


class Heaviside(Function):
    node_name = "NotImplemented"

    @staticmethod
    def forward(ctx, a, b):
        if a.dtype is not b.dtype:
            raise RuntimeError("heaviside is not yet implemented for tensors with different dtypes.")
        x, y, dt, xp = _arrays(a, b)
        return _result(xp.where(x == 0, y, x > 0), dt, x, y)

    @staticmethod
    def backward(ctx, g):
        raise RuntimeError("derivative for aten::heaviside is not implemented")


def atan2(input, other, *, out=None):
    require_tensors("atan2", input=(1, input), other=(2, other))
    return _out(Atan2.apply(input, other), out, input, other)


arctan2 = alias(atan2, "arctan2")


def hypot(input, other, *, out=None):
    require_tensors("hypot", input=(1, input), other=(2, other))
    return _out(Hypot.apply(input, other), out, input, other)


def xlogy(input, other, *, out=None):
    refuse_complex_kernel("xlogy", input, other)
    if not isinstance(input, Tensor):
        require_one_tensor("xlogy", input, other)
        return _out(XlogyScalarSelf.apply(input, other), out, input, other)
    return _out((Xlogy if isinstance(other, Tensor) else XlogyScalarOther).apply(input, other), out, input, other)


def logaddexp(input, other, *, out=None):
    require_tensors("logaddexp", input=(1, input), other=(2, other))
    return _out(Logaddexp.apply(input, other), out, input, other)


def any_complex(*values) -> bool:
    """Whether a Python complex number or a complex tensor is among ``values``."""
    return any(isinstance(v, complex) or (isinstance(v, Tensor) and v._data.dtype.kind == "c") for v in values)


def refuse_complex_kernel(fn: str, input, other) -> None:
    """PyTorch has no complex kernel for ``fn`` (copysign, xlogy): its error, naming the promoted dtype."""
    if any_complex(input, other):
        name = _dtype.SCALAR_NAMES[_dtype.result_type(input, other).name]
        raise NotImplementedError(f"\"{fn}_cpu\" not implemented for '{name}'")


def refuse_complex_heaviside(input, values) -> None:
    if any_complex(input, values):
        raise RuntimeError("heaviside is not yet implemented for complex tensors.")


def copysign(input, other, *, out=None):
    require_tensor_input("copysign", input, other)
    refuse_complex_kernel("copysign", input, other)
    return _out((Copysign if isinstance(other, Tensor) else CopysignScalar).apply(input, other), out, input, other)


def heaviside(input, values, *, out=None):
    require_tensors("heaviside", input=(1, input), values=(2, values))
    refuse_complex_heaviside(input, values)
    return _out(Heaviside.apply(input, values), out, input, values)

