"""Elementwise binary math, part one: pow, float_power and minimum/maximum/fmax/fmin, and the family's clamp,
clip, clamp_min and clamp_max (``math_clamp``); the operand plumbing the binary ops share is ``_binary_operands``.

Result dtypes follow ``torch.result_type`` (computed here, never by NumPy); integer overflow wraps;
integer division by zero raises PyTorch's "ZeroDivisionError". Backward formulas use core ops and
follow PyTorch's edge conventions (noted with ``NOTE:``).
"""

from __future__ import annotations

import cmath
import math

import numpy as np

from core import _cpu, _dtype, _mkl_vml
from core._factories import zeros_like
from core._from_data import check_scalar_fits
from core._memory_format import laid_out_like
from core._precise import precise
from core._sleef import vector_loop
from core._sleef_pow import pow_float32, powf_u10
from core._sleef_powd import pow_float64, pow_number_float64
from core._sparse_coo_ops import sparse_function
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.forward_ad import total
from core.autograd.function import Function
from core.ops._binary_operands import _arrays, _operands, _result, _save
from core.ops._float32_compute import F16, is_reduced, with_number
from core.ops._saved_attrs import kept
from core.ops._util import quiet_off, quiet_on, xp_of
from core.ops.comparison import eq, ge, gt, isnan, le, lt, where
from core.ops.complex_ops import conj_of
from core.ops.elementwise import DivByNumber, _out
from core.ops.math_clamp import clamp, clamp_max, clamp_min, clip
from core.ops.math_unary import log
from core.ops.scalar_forms import mul_s, sub_s
from core.overrides import _given_out, handle_torch_function, has_torch_function_unary

__all__ = ["pow", "float_power", "clamp", "clip", "clamp_min", "clamp_max", "minimum", "maximum", "fmax", "fmin"]

_grad_state = grad_mode._state


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
    for v in (a, b):
        if type(v) is int and not -2**63 <= v < 2**64:  # (no Scalar holds it: torch's parser refuses)
            _dtype.int_scalar_overflow(v)
    dt = _dtype.result_type(a, b)
    if dt is _dtype.bool and (isinstance(b, Tensor) or not isinstance(a, Tensor)):
        raise NotImplementedError("\"pow\" not implemented for 'Bool'")
    if dt.category < 2 and isinstance(b, int) and not isinstance(b, bool) and b < 0:
        raise RuntimeError("Integers to negative integer powers are not allowed.")
    if isinstance(a, Tensor) and isinstance(b, (int, float)) and not isinstance(b, bool) and (
            dt.category == 1 or dt is _dtype.float16 or dt is _dtype.bfloat16):
        # NOTE: torch's kernel takes the exponent in the tensor's type for integers and the half types (float and
        # double keep a double exponent): one that does not fit is c10's overflow error (ones(uint8) ** 300)
        if dt.category == 1 and isinstance(b, int) and not -2**63 <= b < 2**63:
            raise RuntimeError("value cannot be converted to type int64_t without overflow")
        check_scalar_fits(b, dt)
    return dt


def _float_pow(x, e):
    """``x ** e`` on a float array with torch's special cases: ``x*x*x`` for 3 and ``1/(x*x)`` for -2 (NumPy's
    ``power`` rounds those differently; 2, -1 and 0.5 already agree); other exponents as the C library's pow."""
    res = _float_pow_steps(x, e)
    return res if res.dtype == x.dtype else res.astype(x.dtype)  # bfloat16 and a Python number: float32 before
    # ml_dtypes 0.7, which computes in float32 too and rounds once, so the cast gives the same bits


def _float_pow_steps(x, e):
    if x.dtype == F16 and e in (0.5, -0.5):
        # NOTE: float16's pow kernel has no sqrt/rsqrt route (float, double and bfloat16 take one): powf in float32
        # (SLEEF's in its vector loop), rounded once, with pow's signs: pow(-0, 0.5) = 0, pow(-inf, 0.5) = inf
        xp = xp_of(x)
        v = x.astype(np.float32)
        res = xp.power(v, np.float32(e))
        if e == 0.5:
            res = xp.where(v == -np.inf, np.float32(np.inf), res) + np.float32(0)
        return res.astype(F16)
    if x.dtype == F16 and e in (3, -2):  # float16's kernel: in float32, rounded once (bfloat16's rounds each step)
        return _float_pow_steps(x.astype(np.float32), e).astype(x.dtype)
    if e == 3:
        return x * x * x
    if e == -2:
        return 1 / (x * x)
    if e == -0.5:
        if x.dtype.kind == "V" and type(x) is np.ndarray and x.ndim:  # bfloat16's pow is its rsqrt kernel: in
            # float32, rounded once, in its vector loop; its scalar loop (a tail, a strided input) rounds the sqrt
            return vector_loop(x, lambda v: 1 / np.sqrt(v.astype(np.float32)),
                               lambda v: 1 / np.sqrt(v.astype(np.float32)).astype(x.dtype).astype(np.float32),
                               pair=2 * _cpu.vector_bytes() // 2)  # (two vectors of 2-byte elements: 64 a step)
        if x.dtype.kind == "V":  # bfloat16: in float32, rounded once
            return (1 / x.astype(np.float32) ** 0.5).astype(x.dtype)
        return 1 / x ** 0.5  # rsqrt
    if e == 0.5 and x.dtype in (np.float32, np.float64):  # PyTorch's pow takes its sqrt: MKL's on some CPUs
        return laid_out_like(_mkl_vml.sqrt(xp_of(x), x), x)  # (MKL's result is C-ordered; torch's keeps x's layout)
    if e in (2, -1, 0.5, 1, 0):  # NumPy's power takes the exact route PyTorch takes for these (x*x, 1/x, sqrt...)
        return x ** e
    if x.dtype == np.float32:  # PyTorch's float kernel: its vector loop takes the exponent as a float (SLEEF's
        # powf_u10: core._sleef_pow; correctly rounded powf differed from it in ~1.8% of elements, this in ~1e-4),
        # its scalar loop (the last n % 32 elements, a small or strided tensor) as the double it is: std::pow(float,
        # double)
        vector_e, scalar_e = np.float32(e), float(e)
        if type(x) is not np.ndarray or not x.ndim:
            return precise(lambda v: v ** scalar_e, x)
        return vector_loop(x, lambda v: powf_u10(v, vector_e), lambda v: precise(lambda w: w ** scalar_e, v))
    if x.dtype == np.float64 and type(x) is np.ndarray:  # PyTorch's double kernel: SLEEF's pow_u10 two vectors at a
        # time, the C library's pow on the last n % 16 elements and all of a short or strided tensor
        # (core._sleef_powd; NumPy's power differed from each in the last bit on ~6% of elements)
        return pow_number_float64(x, e)
    if x.dtype.kind == "V":
        e = float(x.dtype.type(e))  # and its bfloat16 kernel as a bfloat16 (1.7 -> 1.703125)
    return precise(lambda v: v ** e, x)  # the C library's pow, rounded once (core._precise)


class Pow(Function):
    """``tensor ** scalar``."""

    node_name = "PowBackward0"
    saved_names = ("self", "exponent")  # grad_fn._saved_self / _saved_exponent, as PyTorch names them
    saved_numbers = ("exponent",)  # (a number: no _raw_saved_exponent)

    @staticmethod
    def forward(ctx, a, b):
        if isinstance(b, np.generic) and b.dtype.kind in "iuf":  # NOTE: torch takes a NumPy number as the Python
            b = b.item()  # number it holds: tensor ** np.float64(1.7) is its tensor ** number kernel
        if (type(b) is int or type(b) is float) and isinstance(a, Tensor) and a._data.dtype.kind in "fV":
            x = a._data  # NOTE: the hot path, float tensor ** Python number: NumPy keeps the tensor's dtype
            _save(ctx, a, b)
            token = quiet_on()
            try:
                res = _float_pow(x, b)
            finally:
                quiet_off(token)
            return res if type(res) is type(x) else xp_of(x).asarray(res)
        x, y, dt, xp = _arrays(a, b, _pow_dtype(a, b))
        _save(ctx, a, b)
        with np.errstate(all="ignore"):
            if dt is _dtype.bool:  # bool ** True is the tensor, bool ** False is all True
                res = x.copy() if b else xp.ones_like(x)
            elif (type(b) is int or type(b) is float) and dt.is_floating_point and xp is np:
                res = _float_pow(x, b)  # NOTE: an integer tensor ** a float: cast, then the float tensor ** number
                # kernel (special cases, its split): int32 ** -0.5 is its rsqrt, int64 ** 1.7's tail std::pow
            else:
                # NOTE: float32 is SLEEF's powf_u10 and the C library's powf in the tail (core._sleef_pow), as
                # PyTorch's kernel: NumPy's float32 power differed in ~20% of elements (2 ** x, 10000 ** (i / d));
                # float64 SLEEF's pow_u10 and the C library's pow (core._sleef_powd), for a tensor exponent
                res = pow_float32(x, y) if dt is _dtype.float32 and xp is np else \
                    pow_float64(x, y) if dt is _dtype.float64 and xp is np and isinstance(b, Tensor) else \
                    xp.power(x, y) if dt.is_floating_point or dt.is_complex else _int_pow(xp, x, y)
        return _result(res, dt, x, y)

    @staticmethod
    def backward(ctx, g):
        x, e = _operands(ctx)
        if g._data.dtype.kind == "c":
            return _complex_pow_grads(ctx, g, x, e)
        if not isinstance(e, Tensor):
            if e == 0:
                return zeros_like(g), None
            if (type(e) is int or type(e) is float) and not _grad_state.enabled and g._data.dtype == x._data.dtype:
                xa = x._data  # NOTE: a plain backward records nothing: the rule on arrays
                token = quiet_on()
                try:
                    res = g._data * with_number(np.multiply, _float_pow(xa, e - 1), e)  # NOTE: torch's grouping
                finally:
                    quiet_off(token)
                return new_tensor(res if type(res) is type(xa) else xp_of(xa).asarray(res)), None
            e = float(e) if type(e) is int else e  # NOTE: torch's pow_backward: exp * self.pow(exp - 1), exp a double
            return g * mul_s(pow(x, e - 1), e), None  # (MulBackward1 over PowBackward0 under create_graph)
        gx = gy = None
        if ctx.needs_input_grad[0]:  # NOTE: torch's pow_backward_self: a zero exponent gives zero gradient, even at
            # x = 0, where the other branch holds 0 * inf: its double backward is NaN there, as torch's
            gx = where(eq(e, 0), 0, g * (e * pow(x, sub_s(e, 1))))
        if ctx.needs_input_grad[1]:  # NOTE: 0 ** e with e >= 0 gives zero exponent gradient
            if isinstance(x, Tensor):
                gy = _pow_exponent_grad(g, x, e, pow(x, e))
            else:
                gy = g * pow(x, e) * (where(ge(e, 0), 0.0, -math.inf) if x == 0 else _log_scalar(x))
        return gx, gy

    @staticmethod
    def jvp(ctx, tx, te=None):
        x, e = ctx.inputs
        return total(None if tx is None else _pow_base_tangent(tx, x, e),
                     None if te is None else te * ctx.output * _pow_log(x, e))


def _pow_exponent_grad(g, x, e, result):
    """torch's ``pow_backward_exponent``: ``grad * where(x == 0 & e >= 0, 0, result * log(x))``, in that grouping (at
    x = -0 the masked entry is +0, and the double backward through the masked ``0 * -inf`` is NaN, as torch's)."""
    base = x if x.dtype == result.dtype else x.to(result.dtype)
    return g * where(eq(x, 0) & ge(e, 0), 0, result * log(base))


def _complex_pow_grads(ctx, g, x, e):
    """``x ** e``'s gradients when the result is complex: g * conj(d/dx) and g * conj(d/de) (holomorphic)."""
    need = ctx.needs_input_grad
    gx = g * conj_of(e * pow(x, e - 1)) if need[0] and isinstance(x, Tensor) else None
    gy = None
    if len(need) > 1 and need[1] and isinstance(e, Tensor):
        lg = log(x) if isinstance(x, Tensor) else cmath.log(x)
        gy = g * conj_of(pow(x, e) * lg)
    return gx, gy


def _log_scalar(v) -> float:
    return math.log(v) if v > 0 else (-math.inf if v == 0 else math.nan)


def _pow_base_tangent(t, x, e):
    """``t * d(x ** e)/dx`` with backward's conventions (a zero exponent gives zero)."""
    if not isinstance(e, Tensor):
        return zeros_like(t) if e == 0 else t * e * pow(x, e - 1)
    zero = eq(e, 0)
    safe = where(zero, 1, e)
    return where(zero, 0, t * safe * pow(x, safe - 1))


def _pow_log(x, e):
    """``log(x)`` as the exponent's derivative uses it (0 ** e with e >= 0 gives zero)."""
    if isinstance(x, Tensor):
        return where(eq(x, 0) & ge(e, 0), 0, log(x))
    return where(ge(e, 0), 0.0, -math.inf) if x == 0 else _log_scalar(x)


class PowTensor(Pow):
    """``tensor ** tensor``: as PyTorch's, the result is saved for the exponent's gradient (``grad * (result *
    log(self))``), so writing it in place before backward is the version counter's error."""

    node_name = "PowBackward1"
    saved_names = ("self", "exponent", "result")
    saved_numbers = ()

    @staticmethod
    def forward(ctx, a, b):
        out = new_tensor(Pow.forward(ctx, a, b))
        ctx.save_for_backward(*ctx._saved, out)
        return out

    @staticmethod
    def backward(ctx, g):
        if g._data.dtype.kind == "c" or not ctx.needs_input_grad[1]:
            return Pow.backward(ctx, g)
        # NOTE: the exponent's gradient first, as torch's generated code (derivatives in the sorted order of their
        # names): it sets the order a second backward runs their nodes in, and so adds x.pow(x)'s two in
        x, e = _operands(ctx)
        ge = _pow_exponent_grad(g, x, e, ctx._unpacked[2])
        gx = Pow.backward(ctx, g)[0] if ctx.needs_input_grad[0] else None
        return gx, ge


class PowScalar(Pow):
    """``tensor ** number``: the number is no input of the node (one edge, as in PyTorch's ``pow.Tensor_Scalar``)."""

    node_name = "PowBackward0"
    saved_names = ("self", "exponent")

    @staticmethod
    def forward(ctx, a, *, exponent):
        return Pow.forward(ctx, a, exponent)

    @staticmethod
    def backward(ctx, g):
        return Pow.backward(ctx, g)[0]

    @staticmethod
    def jvp(ctx, tx):
        return _pow_base_tangent(tx, ctx.inputs[0], ctx.kw["exponent"])


class PowScalarBase(Function):
    """``number ** tensor``: the number is no input of the node (one edge, as in PyTorch)."""

    node_name = "PowBackward2"

    saved_names = ("", "exponent", "result")
    _saved_self = kept("base")  # (the number, as torch's Scalar self)

    @staticmethod
    def forward(ctx, e, *, base):
        ctx.base = base
        res = Pow.forward(ctx, base, e)
        # NOTE: PyTorch allocates number ** tensor's output contiguous (pow_Scalar's meta gives no strides)
        out = new_tensor(res if res.ndim < 2 else xp_of(res).ascontiguousarray(res))
        ctx.save_for_backward(*ctx._saved, out)  # (the result, as PyTorch's: a write to it fails the backward)
        return out

    @staticmethod
    def backward(ctx, g):
        x, e = _operands(ctx)  # NOTE: 0 ** e with e >= 0 gives zero exponent gradient
        result = ctx._unpacked[2]
        if x == 0:  # NOTE: torch's result * log(base), the log a Scalar (MulBackward1)
            return g * where(ge(e, 0), 0.0, mul_s(result, -math.inf))
        return g * mul_s(result, _log_scalar(x))

    @staticmethod
    def jvp(ctx, te):
        return te * ctx.output * _pow_log(ctx.kw["base"], ctx.inputs[0])


def pow(input, exponent, *, out=None):  # PyTorch's name
    if not isinstance(input, Tensor):
        if not isinstance(exponent, Tensor):
            if has_torch_function_unary(input):  # a tensor-like (MaskedTensor) takes the call
                return handle_torch_function(pow, (input,), input, exponent, **_given_out(out))
            raise TypeError(f"pow(): argument 'input' must be Tensor, not {type(input).__name__}")
        return _out(PowScalarBase.apply(exponent, base=input), out, input, exponent)
    if isinstance(exponent, Tensor):
        return _out(PowTensor.apply(input, exponent), out, input, exponent)
    if type(input) is not Tensor and out is None and (res := sparse_function("pow", input, exponent)) is not None:
        return res  # a COO tensor's s.pow(p): sparse, as torch's (its error for p == 0)
    if input._data.dtype is F16 or input._data.dtype.kind == "V":  # (the float32 route would not see the half type)
        _pow_dtype(input, exponent)
    return _out(PowScalar.apply(input, exponent=exponent), out, input, exponent)


def float_power_dtype(input, exponent) -> _dtype.dtype:
    """float_power's dtype: float64, or complex128 when either operand is complex (a number or a tensor)."""
    complex_ = any(isinstance(v, complex) or (isinstance(v, Tensor) and v._data.dtype.kind == "c")
                   for v in (input, exponent))
    return _dtype.complex128 if complex_ else _dtype.float64


def float_power(input, exponent, *, out=None):
    """``pow`` computed and returned in float64 (complex128 for complex operands: float() would drop the
    imaginary part)."""
    dt = float_power_dtype(input, exponent)
    number = complex if dt.is_complex else float
    a = input.to(dt) if isinstance(input, Tensor) else number(input)
    b = exponent.to(dt) if isinstance(exponent, Tensor) else number(exponent)
    return _out(pow(a, b), out, input, exponent)


# ----- minimum / maximum -----------------------------------------------------------------------------
def _tensors_only(name, a, b, first=1):
    """PyTorch's TypeError for a number operand; a method counts from its argument (``t.maximum(2.)``: position 1)."""
    for position, (arg, what) in enumerate(((a, "input"), (b, "other")), first):
        if not isinstance(arg, Tensor):
            raise TypeError(f"{name}(): argument '{what}' (position {position}) must be Tensor, not "
                            f"{type(arg).__name__}")


def _zero_ties(x, y, res, vector_second: bool):
    """Which zero torch's kernel returns where ``x`` and ``y`` are zeros of opposite signs: its scalar loop (a tail
    of fewer than two vectors, a strided operand) returns the first operand (``std::max(a, b)``, fmax's and fmin's
    everywhere but in bfloat16), its vector loop the second (``_mm256_max_ps(a, b)``; two AVX2 vectors a step: 16
    floats, 8 doubles, 32 halves)."""
    if type(res) is not np.ndarray or res.dtype.kind not in "fV" or not res.size:
        return res
    ties = (x == 0) & (y == 0)
    if not ties.any():
        return res
    if not vector_second:  # fmax/fmin: the first operand (bfloat16's: the second, as its c10 fmax picks)
        return np.where(ties, y if res.dtype.kind == "V" else x, res)
    pair = 32 if is_reduced(res.dtype) else 16
    if y.size == 1 and x.size > 1:  # a scalar operand keeps the loop vectorised (0-d: vector_loop's broadcast)
        pick = vector_loop(x, lambda a, b: np.broadcast_to(b, a.shape), lambda a, b: a, y.reshape(()), pair=pair)
    elif x.size == 1 and y.size > 1:
        pick = vector_loop(y, lambda b, a: b, lambda b, a: np.broadcast_to(a, b.shape), x.reshape(()), pair=pair)
    else:
        xb, yb = np.broadcast_arrays(x, y)
        pick = vector_loop(xb, lambda a, b: b, lambda a, b: a, yb, pair=pair)
    return np.where(ties, pick, res)


class Maximum(Function):
    node_name = "MaximumBackward0"
    saved_names = ("self", "other")
    ufunc = "maximum"
    vector_second = True  # (fmax/fmin: False, see _zero_ties)

    @classmethod
    def forward(cls, ctx, a, b):
        x, y, dt, xp = _arrays(a, b)
        _save(ctx, a, b)
        return _result(_zero_ties(x, y, getattr(xp, cls.ufunc)(x, y), cls.vector_second), dt, x, y)

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx._unpacked
        first, second = cls.masks(a, b)
        # NOTE: torch's formula, node for node (MaskedFillBackward0 <- WhereBackward0 <- DivBackward1 in a double
        # backward): ties split the gradient half and half, the smaller operand's share is masked out
        # NOTE: masked_fill_ in place, as torch's formula: the where's layout stays (out of place it is contiguous)
        ga = where(eq(a, b), DivByNumber.apply(g, 2), g).masked_fill_(first, 0) if ctx.needs_input_grad[0] else None
        gb = where(eq(a, b), DivByNumber.apply(g, 2), g).masked_fill_(second, 0) if ctx.needs_input_grad[1] else None
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
    vector_second = False

    @classmethod
    def backward(cls, ctx, g):
        a, b = ctx._unpacked
        to_a = cls.first(a, b) | isnan(b)
        ga = g.masked_fill(~to_a, 0) if ctx.needs_input_grad[0] else None  # (torch's: MaskedFillBackward0)
        gb = g.masked_fill(to_a, 0) if ctx.needs_input_grad[1] else None
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


def _pairwise(cls, name, first=1):
    def op(input, other, *, out=None):
        _tensors_only(name, input, other, first)
        if input.is_complex() or other.is_complex():
            raise RuntimeError(f"{name} not implemented for complex tensors.")
        if out is not None and grad_mode.is_grad_enabled() and (input.requires_grad or other.requires_grad):
            raise RuntimeError(f"{name}(): functions with out=... arguments don't support automatic "
                               "differentiation, but one of the arguments requires grad.")
        return _out(cls.apply(input, other), out, input, other)

    op.__name__ = op.__qualname__ = name
    return op


maximum, minimum = _pairwise(Maximum, "maximum"), _pairwise(Minimum, "minimum")
fmax, fmin = _pairwise(Fmax, "fmax"), _pairwise(Fmin, "fmin")
# The Tensor methods: the same ops, whose errors count ``other`` as argument 1 (``self`` is not one)
maximum_method, minimum_method = _pairwise(Maximum, "maximum", 0), _pairwise(Minimum, "minimum", 0)
fmax_method, fmin_method = _pairwise(Fmax, "fmax", 0), _pairwise(Fmin, "fmin", 0)
