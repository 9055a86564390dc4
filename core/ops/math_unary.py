"""Elementwise unary math (exp, log, trig, rounding, special functions...) with their gradients.

Every op is a ``_Unary`` subclass: ``compute(xp, x, **kw)`` on a backend array already cast to the
result dtype, and ``grad(ctx, g, x, out)`` written with differentiable core ops. ``ints`` says what
integer and bool inputs do: "float" (computed in the default float dtype, like ``exp(int)``),
"keep" (same dtype, like ``abs``) or "raise" (PyTorch's "not implemented for 'Long'").
"""

from __future__ import annotations

import math

import ml_dtypes  # finfo that knows bfloat16 and float8 (NumPy's finfo does not before ml_dtypes 0.7)
import numpy as np

from core import _cpu, _dtype, _exp2, _glibc, _mkl_asin, _mkl_atan, _mkl_erf, _mkl_tanhd, _mkl_trig, _mkl_vml
from core._alias import alias
from core._arg_types import tp_name
from core._factories import zeros_like
from core._memory_format import laid_out_like
from core._precise import precise
from core._sleef import log1pf_u10, loop_exp, loop_sigmoid, vector_loop
from core._sparse_coo_ops import sparse_function
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops import _special
from core.ops._fastpath import relu_grad
from core.ops._float32_compute import F16
from core.ops._recorded import recorded
from core.ops._util import quiet_off, quiet_on, xp_of
from core.ops.activation_backward import (
    sigmoid_backward,
    sigmoid_grad_arrays,
    tanh_backward,
    tanh_grad_arrays,
    threshold_backward,
)
from core.ops.comparison import eq, ge, gt, isfinite, le, lt, where
from core.ops.complex_ops import conj, real
from core.ops.elementwise import _TYPE_NAMES, _out
from core.ops.scalar_forms import add_s, mul_s, rsub_s, sub_s
from core.overrides import _given_out, handle_torch_function, has_torch_function_unary

__all__ = ["abs", "absolute", "exp", "exp2", "log", "log2", "log10", "log1p", "expm1", "sqrt", "rsqrt",
           "sin", "cos", "tan", "asin", "arcsin", "acos", "arccos", "atan", "arctan", "sinh", "cosh", "tanh",
           "asinh", "arcsinh", "acosh", "arccosh", "atanh", "arctanh", "sigmoid", "relu", "sign", "sgn",
           "signbit", "floor", "ceil", "round", "trunc", "fix", "frac", "reciprocal", "square", "erf", "erfc",
           "erfinv", "lgamma", "digamma", "polygamma", "logit", "sinc", "deg2rad", "rad2deg", "positive",
           "nan_to_num"]

_builtin_abs = abs
_grad_state = grad_mode._state
_LN2, _LN10 = 0.6931471805599453, 2.3025850929940456  # NOTE: derivatives.yaml's literals (math.log(10) is 1 ulp off)


def not_implemented(kernel: str, dt: _dtype.dtype):
    return NotImplementedError(f'"{kernel}" not implemented for \'{_TYPE_NAMES[dt.name]}\'')


class _Unary(Function):
    saves = ""         # what backward needs: "x" (the input), "o" (the result), "xo" (both)
    ints = "float"     # int/bool inputs: "float", "keep" or "raise"
    kernel = ""        # PyTorch's kernel name in "not implemented" errors
    bool_error = None  # the error a bool input raises, when it differs from ints' rule
    raw = None         # the gradient rule on backend arrays ``raw(xp, g, out)``, for a backward that records nothing
    saved_names = ()   # PyTorch's names of what is saved (grad_fn._saved_self / _saved_result), set by _op
    real_result = False  # a complex input gives a real result (abs)
    complex_error = None  # (exception, message) PyTorch raises for a complex input ("{dtype}": its name)
    holomorphic = True  # a complex gradient is conj(grad(conj(g))); False: ``grad`` handles complex itself
    # A half type's kernel on float32 values where its vector loop or its scalar loop (the last n % 32 elements, a
    # strided input) differs from ``compute``: ``half_vector(xp, v)`` (Vectorized<float>'s own functions),
    # ``half_scalar(xp, v, low)`` (c10's math of a half returns a half: rounded between steps)
    half_forms, half_vector, half_scalar = False, None, None

    @classmethod
    def result_dtype(cls, a: Tensor) -> _dtype.dtype:
        d = a.dtype
        if d.is_floating_point:
            return d
        if d.is_complex:
            if cls.complex_error is not None:
                raise cls.complex_error[0](cls.complex_error[1].replace("{dtype}", _TYPE_NAMES[d.name]))
            return d.to_real() if cls.real_result else d
        if d is _dtype.bool and cls.bool_error is not None:
            raise cls.bool_error[0](cls.bool_error[1])
        if cls.ints == "float":
            return _dtype.get_default_dtype()
        if cls.ints == "keep":
            return d
        raise not_implemented(cls.kernel, d)

    @classmethod
    def forward(cls, ctx, a, **kw):
        x = a._data
        want = x.dtype  # NOTE: a float input is its own result dtype: no core dtype lookup on the hot path
        half = want is F16  # (NumPy's native float16 dtype is one object: the float32 path pays an identity test)
        if half:  # float16: computed in float32, rounded once below (as PyTorch's kernels)
            x = x.astype(np.float32)
        elif want.kind != "f":
            want = cls.result_dtype(a).np
            if x.dtype != want and x.dtype.kind != "c":  # (a complex input computes as it is: abs is real)
                x = x.astype(want)
            elif want.kind == "V":  # bfloat16: computed in float32, rounded once below (as PyTorch's kernels)
                x = x.astype(np.float32)
                half = True
        xp = xp_of(x)
        token = quiet_on()
        try:
            if half and cls.half_forms and type(x) is np.ndarray and x.ndim:
                # NOTE: the loop split follows the input's own layout (a strided half tensor runs torch's scalar
                # loop throughout); its float32 copy is contiguous
                vec, tail = cls.half_vector or cls.compute, cls.half_scalar
                res = vector_loop(a._data, lambda v: vec(xp, v.astype(np.float32), **kw),
                                  (lambda v: cls.compute(xp, v.astype(np.float32), **kw)) if tail is None
                                  else (lambda v: tail(xp, v.astype(np.float32), want, **kw)))
            else:
                res = cls.compute(xp, x, **kw)
        finally:
            quiet_off(token)
        if type(res) is not type(x):  # a NumPy scalar from a 0-d input
            res = xp.asarray(res)
        if res.dtype != want:
            res = res.astype(want)
        out = new_tensor(laid_out_like(res, a._data))
        ctx.kw = kw
        ctx.save_for_backward(a if "x" in cls.saves else None, out if "o" in cls.saves else None)
        return out

    @classmethod
    def backward(cls, ctx, g):
        x, out = ctx._unpacked
        if g._data.dtype.kind == "c" and cls.holomorphic:  # NOTE: z's gradient is g conj(f'(z)) = conj(conj(g) f'(z))
            return conj(cls.grad(ctx, conj(g), x, out))
        raw = cls.raw
        if raw is not None and not _grad_state.enabled and g._data.dtype == out._data.dtype:
            o = out._data
            xp = xp_of(o)
            token = quiet_on()  # NOTE: the fast path of a plain backward (nothing records)
            try:
                return new_tensor(xp.asarray(raw(xp, g._data, o)))
            finally:
                quiet_off(token)
        return cls.grad(ctx, g, x, out)

    @staticmethod
    def grad(ctx, g, x, out):
        return zeros_like(g)  # NOTE: piecewise-constant ops (floor, sign...) have zero gradient

    @classmethod
    def jvp(cls, ctx, t):
        return cls.grad(ctx, t, ctx.inputs[0], ctx.output)  # NOTE: a diagonal Jacobian: the vjp rule is the jvp rule


def _op(name, node, compute, grad=None, saves="", ints="float", kernel="", bool_error=None, raw=None, shown=None):
    """A ``_Unary`` subclass named after PyTorch's grad_fn, from its forward and gradient rules (``shown``: more
    ``_saved_<name>`` attributes its node lists, as PyTorch's)."""
    ns = {**(shown or {}), "node_name": node, "compute": staticmethod(compute), "saves": saves, "ints": ints,
          "kernel": kernel or f"{name}_cpu", "bool_error": bool_error, "raw": raw and staticmethod(raw),
          "saved_names": ("self" if "x" in saves else "", "result" if "o" in saves else "")}
    if grad is not None:
        ns["grad"] = staticmethod(grad)
    return type(name.capitalize(), (_Unary,), ns)


def check_tensor(name, input):
    if not isinstance(input, Tensor):
        raise TypeError(f"{name}(): argument 'input' (position 1) must be Tensor, not {tp_name(input)}")


def _public(cls, name):
    def op(input, *, out=None):
        if type(input) is not Tensor:  # NOTE: a dense tensor pays this identity test only (it replaced an isinstance)
            if out is None:
                res = sparse_function(name, input)  # a COO tensor's own method: sparse, as torch's (or its error)
                if res is not None:
                    return res
            if not isinstance(input, Tensor):
                if has_torch_function_unary(input):  # a tensor-like (MaskedTensor) takes the call
                    return handle_torch_function(op, (input,), input, **_given_out(out))
                check_tensor(name, input)
        return _out(cls.apply(input), out, input)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"``torch.{name}``: elementwise, with gradient ``{cls.node_name}``."
    return op


def _sigmoid_exp(xp, x):
    """exp(-x) as PyTorch's sigmoid kernel computes it for float32 (SLEEF's in its vectorised loop, glibc's for
    the rest and for a strided input: core._sleef)."""
    return loop_exp(x, negate=True) if x.dtype == np.float32 and type(x) is np.ndarray else precise(xp.exp, -x)


def _sigmoid(xp, x):
    """sigmoid as PyTorch's kernel computes it: ``1 / (1 + exp(-x))`` in the input's dtype, its exp as
    ``_sigmoid_exp`` (float32 NumPy arrays: ``core._sleef.loop_sigmoid``, the same steps in place)."""
    if x.dtype == np.float32 and type(x) is np.ndarray:
        return loop_sigmoid(x)
    if x.dtype == np.float64 and type(x) is np.ndarray and _cpu.capability() == "AVX512":
        return _sigmoid_double(x)  # NOTE: AVX2's bits too, but 27-130x NumPy's exp: not taken there (measured, Zen 3)
    return 1 / (1 + _sigmoid_exp(xp, x))


def _sigmoid_double(x: np.ndarray) -> np.ndarray:
    """float64 sigmoid as ATen's AVX-512 kernel computes it: its vector loop ``(0 - x).exp()`` (SLEEF's
    ``expd_u10``, ``Sleef_expd8_u10``), ``+ 1``, ``reciprocal()`` (one division), two 8-double vectors a step; its
    scalar loop ``1 / (1 + std::exp(-x))`` (glibc's exp) for the last ``n % 16`` elements and a short or strided
    tensor (``core._sleef.vector_loop``). NumPy's exp differed from torch's in ~3% of the results."""
    from core.nn.functional._flash_cpu import expd_u10  # (core.nn imports core: not at core's import)
    return vector_loop(x, lambda v: 1 / (1 + expd_u10(-v)),  # NOTE: glibc's for a large strided tensor too
                       lambda v: 1 / (1 + _glibc.exp(-v, any_size=True)))  # (~0.3 us an element: < expd_u10)


def _log1p(xp, x):
    """log1p as PyTorch's kernel computes it: float32 with SLEEF's ``log1pf_u10`` on every element (its VML map
    takes the tail and a strided input as a padded vector too), other dtypes rounded once from float64."""
    return log1pf_u10(x) if x.dtype == np.float32 and type(x) is np.ndarray else precise(xp.log1p, x)


# ----- gradient rules (g: incoming gradient, x: input, out: result) --------------------------------
def _exp_grad(ctx, g, x, out):
    return g * out


def _rsqrt_grad(ctx, g, x, out):
    if out._data.dtype == F16:  # float16's pow(3) is x * x * x in float32, rounded once (bfloat16's rounds twice)
        wide = out.float()
        return -0.5 * g * (wide * wide * wide).to(out.dtype)
    return mul_s(g, -0.5) * out.pow(3)  # NOTE: torch's -0.5 * grad * result.pow(3) (MulBackward1, PowBackward0)


def _sigmoid_grad(ctx, g, x, out):
    return sigmoid_backward(g, out)  # NOTE: an op of its own, recorded as PyTorch's SigmoidBackwardBackward0


_sigmoid_grad_arrays = sigmoid_grad_arrays  # (the fused RNN cells' name for it)


def _tanh_grad(ctx, g, x, out):
    return tanh_backward(g, out)  # NOTE: an op of its own, so a recorded backward rounds as the plain one


def _relu(xp, x):
    """``max(0, x)`` as torch's clamp_min kernel: relu(-0.) is -0. and nan stays nan (NumPy's maximum returns its
    second operand on a tie of zeros; ``maximum(x, 0)`` gave +0.)."""
    return xp.maximum(xp.zeros((), x.dtype), x)


def _relu_grad(ctx, g, x, out):
    return threshold_backward(g, out)  # NOTE: relu'(0) = 0, a nan input passes g; differentiable in out too (zeros)


def _abs_grad(ctx, g, x, out):
    return g * sgn(x)  # NOTE: abs'(0) = sgn(0) = 0; a complex z's gradient is g * z / |z|, as PyTorch's


def _sgn_grad(ctx, g, x, out):
    """0 for real inputs; for complex z, PyTorch's sgn_backward: (g - Re(g conj(s)) s) / |z|, 0 at z = 0."""
    if not x.is_complex():
        return zeros_like(g)
    r = abs(x)
    token = quiet_on()  # (0 / 0 where z = 0, masked below)
    try:
        d = (g - real(g * conj(out)) * out) / r
    finally:
        quiet_off(token)
    return where(eq(r, 0), 0, d)


# NOTE: the rules below are derivatives.yaml's formulas op for op, a C++ Scalar as core.ops.scalar_forms records it,
# so that create_graph=True records torch's nodes (and rounds as torch's)
def _acosh_grad(ctx, g, x, out):
    return g * rsqrt(sub_s(x * x, 1))


def _asin_grad(ctx, g, x, out):
    return g * rsqrt(add_s(-x * x, 1))


def _acos_grad(ctx, g, x, out):
    return g * -rsqrt(add_s(-x * x, 1))


def _erfinv_grad(ctx, g, x, out):
    return mul_s(exp(out.pow(2)), 0.5 * math.sqrt(math.pi)) * g


def _sinc_grad(ctx, g, x, out):
    """torch's sinc_backward: ``grad * ((x pi cos(x pi) - sin(x pi)) / (x x pi))``, 0 where ``x x pi`` is 0."""
    self_pi, squared_pi = mul_s(x, math.pi), mul_s(x * x, math.pi)
    # NOTE: C++ evaluates an overloaded operator's operands right to left here (GCC): sin(x pi) is recorded before
    # cos(x pi), which sets the order a second backward runs them in and adds their gradients in
    sin_pi = sin(self_pi)
    return where(eq(squared_pi, 0.0), 0, g * ((self_pi * cos(self_pi) - sin_pi) / squared_pi))


def _logit_grad(ctx, g, x, out):
    """torch's logit backward: recording, ``infinitely_differentiable_logit_backward`` (a where over
    ``lo <= x <= hi``); else its kernel's ``x < lo or x > hi`` (a NaN input's NaN passes there)."""
    eps = ctx.kw.get("eps")
    if _grad_state.enabled:
        lo, hi = (0.0, 1.0) if eps is None else (eps, 1.0 - eps)
        inside = ge(x, lo) & le(x, hi)
        return where(inside, g / (x * rsub_s(1.0, x)), x.new_full((), math.nan if eps is None else 0.0))
    d = g / (x * (1 - x))
    if eps is None:
        return where(lt(x, 0) | gt(x, 1), math.nan, d)
    return where(lt(x, eps) | gt(x, 1 - eps), 0, d)


def _round_compute(xp, x, decimals=0):
    if x.dtype.kind != "f":
        return x.copy()
    if decimals == 0:
        return xp.rint(x)
    ten = x.dtype.type(10.0 ** _builtin_abs(decimals))
    return xp.rint(x / ten) * ten if decimals < 0 else xp.rint(x * ten) / ten


def _sgn_compute(xp, x):
    if x.dtype.kind == "c":  # z / |z|, 0 at 0
        r = xp.abs(x)
        return xp.where(r == 0, 0, x / xp.where(r == 0, 1, r)).astype(x.dtype)
    return _sign_compute(xp, x)


def _sign_compute(xp, x):
    if x.dtype.kind == "b":
        return x.copy()
    return (x > 0).astype(x.dtype) - (x < 0).astype(x.dtype)  # NOTE: sign(nan) = 0 in PyTorch


def _int_or(fn):
    """``fn`` for float arrays; a copy for ints (floor/ceil/trunc of an int is the int)."""
    return lambda xp, x: fn(xp, x) if x.dtype.kind == "f" else x.copy()


def _logit_compute(xp, x, eps=None, low=None):
    """``log(x / (1 - x))``; for a half type (``low``) as PyTorch's kernel computes it: eps, ``1 - x`` and the ratio
    each rounded to the half type, the log in float32."""
    def rounded(v):
        return v if low is None else xp.asarray(v).astype(low).astype(x.dtype)

    if eps is not None:
        eps = float(rounded(x.dtype.type(eps)))
        hi = float(rounded(x.dtype.type(1 - eps)))
        if eps > 0.5:  # PyTorch's kernel tests x < eps first: with eps > 1 - eps that is no clip
            x = xp.where(x < eps, x.dtype.type(eps), xp.where(x > hi, x.dtype.type(hi), x))
        else:
            x = xp.clip(x, eps, hi)
    return xp.log(rounded(x / rounded(1 - x)))


_NO_BOOL = "Boolean inputs not supported for relu"
Abs = _op("abs", "AbsBackward0", lambda xp, x: xp.abs(x), _abs_grad, "x", "keep",
          bool_error=(NotImplementedError, "\"abs_cpu\" not implemented for 'Bool'"))
Abs.real_result = True
Exp = _op("exp", "ExpBackward0", _mkl_vml.exp, _exp_grad, "o", raw=lambda xp, g, o: g * o)  # MKL's on an AMD CPU
Exp2 = _op("exp2", "Exp2Backward0", _exp2.exp2,  # SLEEF's and glibc's (float32)
           lambda c, g, x, o: mul_s(g * o, _LN2), "o")
Log = _op("log", "LogBackward0", _mkl_vml.log, lambda c, g, x, o: g / x, "x")  # MKL's on an AMD CPU
Log2 = _op("log2", "Log2Backward0", lambda xp, x: precise(xp.log2, x), lambda c, g, x, o: g / mul_s(x, _LN2), "x")
Log10 = _op("log10", "Log10Backward0", lambda xp, x: precise(xp.log10, x), lambda c, g, x, o: g / mul_s(x, _LN10), "x")
Log1p = _op("log1p", "Log1PBackward0", lambda xp, x: _log1p(xp, x),  # NOTE: torch's g / (self + 1), its + 1 a Scalar
            lambda c, g, x, o: g / add_s(x, 1), "x")  # (AddBackward1)
Expm1 = _op("expm1", "Expm1Backward0", lambda xp, x: precise(xp.expm1, x), lambda c, g, x, o: g * add_s(o, 1), "o")
Sqrt = _op("sqrt", "SqrtBackward0", _mkl_vml.sqrt, lambda c, g, x, o: g / mul_s(o, 2), "o")  # MKL's on some CPUs
# NOTE: a half type's sqrt, exp and log are ATen's own float32 loops (correctly rounded), never MKL's (core._mkl_vml)
Sqrt.half_forms, Sqrt.half_vector = True, staticmethod(lambda xp, v: xp.sqrt(v))
Sqrt.half_scalar = staticmethod(lambda xp, v, low: xp.sqrt(v))
Exp.half_forms, Exp.half_vector = True, staticmethod(lambda xp, v: precise(xp.exp, v))
Exp.half_scalar = staticmethod(lambda xp, v, low: precise(xp.exp, v))
Log.half_forms, Log.half_vector = True, staticmethod(lambda xp, v: precise(xp.log, v))
Log.half_scalar = staticmethod(lambda xp, v, low: precise(xp.log, v))
Rsqrt = _op("rsqrt", "RsqrtBackward0", lambda xp, x: 1 / xp.sqrt(x), _rsqrt_grad, "o")
Rsqrt.half_forms = True
Rsqrt.half_scalar = staticmethod(lambda xp, v, low: 1 / np.sqrt(v).astype(low).astype(np.float32))  # 1 / sqrt(half)
Sin = _op("sin", "SinBackward0", _mkl_trig.sin, lambda c, g, x, o: g * cos(x), "x")  # MKL's (float32)
Cos = _op("cos", "CosBackward0", _mkl_trig.cos, lambda c, g, x, o: g * -sin(x), "x")  # MKL's (float32)
Tan = _op("tan", "TanBackward0", _mkl_trig.tan, lambda c, g, x, o: g * add_s(o.pow(2), 1), "o")  # MKL's on an AMD CPU
Asin = _op("asin", "AsinBackward0", _mkl_asin.asin, _asin_grad, "x")  # MKL's on AMD Zen 4 (float32)
Acos = _op("acos", "AcosBackward0", _mkl_asin.acos, _acos_grad, "x")  # MKL's on AMD Zen 4 (float32)
Atan = _op("atan", "AtanBackward0", _mkl_atan.atan, lambda c, g, x, o: g / add_s(x * x, 1), "x")  # MKL's on AMD Zen 4
Sinh = _op("sinh", "SinhBackward0", lambda xp, x: precise(xp.sinh, x), lambda c, g, x, o: g * cosh(x), "x")
Cosh = _op("cosh", "CoshBackward0", lambda xp, x: precise(xp.cosh, x), lambda c, g, x, o: g * sinh(x), "x")
Tanh = _op("tanh", "TanhBackward0", _mkl_tanhd.tanh, _tanh_grad, "o", raw=tanh_grad_arrays)  # MKL's on an AMD CPU
Asinh = _op("asinh", "AsinhBackward0", lambda xp, x: precise(xp.arcsinh, x),
            lambda c, g, x, o: g * rsqrt(add_s(x.pow(2), 1)), "x")
Acosh = _op("acosh", "AcoshBackward0", lambda xp, x: precise(xp.arccosh, x), _acosh_grad, "x")
Atanh = _op("atanh", "AtanhBackward0", lambda xp, x: precise(xp.arctanh, x),  # NOTE: torch's grad * 1 / (1 - x²)
            lambda c, g, x, o: mul_s(g, 1) / rsub_s(1, x.pow(2)), "x")
Sigmoid = _op("sigmoid", "SigmoidBackward0", lambda xp, x: _sigmoid(xp, x), _sigmoid_grad, "o",
              raw=lambda xp, g, o: sigmoid_grad_arrays(g, o))
Relu = _op("relu", "ReluBackward0", lambda xp, x: _relu(xp, x), _relu_grad, "o", "keep",
           bool_error=(RuntimeError, _NO_BOOL), raw=relu_grad)
Sign = _op("sign", "SignBackward0", _sign_compute, ints="keep")
Sgn = _op("sgn", "SgnBackward0", _sgn_compute, _sgn_grad, "xo", ints="keep")
Sgn.holomorphic = False
Floor = _op("floor", "FloorBackward0", _int_or(lambda xp, x: xp.floor(x)), ints="keep",
            bool_error=(NotImplementedError, "\"floor_vml_cpu\" not implemented for 'Bool'"))
Ceil = _op("ceil", "CeilBackward0", _int_or(lambda xp, x: xp.ceil(x)), ints="keep",
           bool_error=(NotImplementedError, "\"ceil_vml_cpu\" not implemented for 'Bool'"))
Trunc = _op("trunc", "TruncBackward0", _int_or(lambda xp, x: xp.trunc(x)), ints="keep",
            bool_error=(NotImplementedError, "\"trunc_vml_cpu\" not implemented for 'Bool'"))
Round = _op("round", "RoundBackward0", _round_compute, ints="keep",
            bool_error=(NotImplementedError, "\"round_vml_cpu\" not implemented for 'Bool'"))
RoundDecimals = _op("round", "RoundBackward1", _round_compute, ints="raise", kernel="round_cpu")
RoundZeroDecimals = _op("round", "RoundBackward1", _round_compute, ints="raise", kernel="round_vml_cpu")
Frac = _op("frac", "FracBackward0", lambda xp, x: x - xp.trunc(x), lambda c, g, x, o: g, ints="raise")
Reciprocal = _op("reciprocal", "ReciprocalBackward0", lambda xp, x: 1 / x, lambda c, g, x, o: -g * (o * o), "o")
Erf = _op("erf", "ErfBackward0", lambda xp, x: _mkl_erf.erf(x, _special.erf),  # MKL's on an AMD CPU (float32)
          lambda c, g, x, o: mul_s(exp(-(x.pow(2))), 2.0 / math.sqrt(math.pi)) * g, "x")  # NOTE: torch's order
Erf.half_forms, Erf.half_vector = True, staticmethod(lambda xp, v: _special.erf_vector_form(v))
Erfc = _op("erfc", "ErfcBackward0", lambda xp, x: _special.erfc(x),
           lambda c, g, x, o: mul_s(exp(-(x.pow(2))), -2.0 / math.sqrt(math.pi)) * g, "x")
Erfinv = _op("erfinv", "ErfinvBackward0", lambda xp, x: _special.erfinv(x), _erfinv_grad, "o")
Lgamma = _op("lgamma", "LgammaBackward0", lambda xp, x: _special.lgamma(x), lambda c, g, x, o: g * digamma(x), "x")
Digamma = _op("digamma", "DigammaBackward0", lambda xp, x: _special.digamma(x),
              lambda c, g, x, o: g * polygamma(1, x), "x")
Polygamma = _op("polygamma", "PolygammaBackward0", lambda xp, x, n: _special.polygamma(n, x),
                lambda c, g, x, o: g * polygamma(c.kw["n"] + 1, x), "x")
Logit = _op("logit", "LogitBackward0", _logit_compute, _logit_grad, "x")
Sinc = _op("sinc", "SincBackward0", lambda xp, x: xp.sinc(x), _sinc_grad, "x")
Deg2rad = _op("deg2rad", "Deg2RadBackward0", lambda xp, x: x * x.dtype.type(math.pi / 180),
              lambda c, g, x, o: mul_s(g, math.pi / 180))
Rad2deg = _op("rad2deg", "Rad2DegBackward0", lambda xp, x: x * x.dtype.type(180 / math.pi),
              lambda c, g, x, o: mul_s(g, 180 / math.pi))
Square = _op("square", "PowBackward0", lambda xp, x: x * x,  # NOTE: torch's pow(x, 2)'s pow_backward
             lambda c, g, x, o: g * mul_s(x.pow(1.0), 2.0), "x", "keep",
             shown={"_saved_exponent": SavedFromCtx(lambda ctx: 2)})  # (pow(x, 2)'s int exponent)

_NO_COMPLEX = "is not supported for complex inputs"
for _cls, _error in ((Relu, "clamp is not supported for complex types"), (Floor, f"floor {_NO_COMPLEX}"),
                     (Ceil, f"ceil {_NO_COMPLEX}"), (Trunc, f"trunc {_NO_COMPLEX}"),
                     (Sign, "Unlike NumPy, torch.sign is not intended to support complex numbers. Please use "
                            "torch.sgn instead.")):
    _cls.complex_error = (NotImplementedError, _error)
for _cls, _kernel in ((Round, "round_vml_cpu"), (RoundDecimals, "round_cpu"), (RoundZeroDecimals, "round_vml_cpu"),
                      (Frac, "frac_cpu"), (Erf, "erf_vml_cpu"), (Erfc, "erfc_vml_cpu"), (Erfinv, "erfinv_vml_cpu"),
                      (Logit, "logit_cpu"), (Lgamma, "lgamma_vml_cpu"), (Digamma, "digamma_vml_cpu")):
    _cls.complex_error = (NotImplementedError, f"\"{_kernel}\" not implemented for '{{dtype}}'")

abs = _public(Abs, "abs")
absolute = alias(abs, "absolute")  # PyTorch's aliases are functions of their own
exp, exp2, log, log2, log10 = (_public(c, n) for c, n in ((Exp, "exp"), (Exp2, "exp2"), (Log, "log"),
                                                          (Log2, "log2"), (Log10, "log10")))
log1p, expm1, sqrt, rsqrt = (_public(c, n) for c, n in ((Log1p, "log1p"), (Expm1, "expm1"), (Sqrt, "sqrt"),
                                                        (Rsqrt, "rsqrt")))
sin, cos, tan = _public(Sin, "sin"), _public(Cos, "cos"), _public(Tan, "tan")
asin, acos, atan = _public(Asin, "asin"), _public(Acos, "acos"), _public(Atan, "atan")
arcsin, arccos, arctan = alias(asin, "arcsin"), alias(acos, "arccos"), alias(atan, "arctan")
sinh, cosh, tanh = _public(Sinh, "sinh"), _public(Cosh, "cosh"), _public(Tanh, "tanh")
asinh, acosh, atanh = _public(Asinh, "asinh"), _public(Acosh, "acosh"), _public(Atanh, "atanh")
arcsinh, arccosh, arctanh = alias(asinh, "arcsinh"), alias(acosh, "arccosh"), alias(atanh, "arctanh")
sigmoid, relu = _public(Sigmoid, "sigmoid"), _public(Relu, "relu")
sign, sgn = _public(Sign, "sign"), _public(Sgn, "sgn")
floor, ceil = _public(Floor, "floor"), _public(Ceil, "ceil")
trunc = _public(Trunc, "trunc")
fix = alias(trunc, "fix")
frac, reciprocal = _public(Frac, "frac"), _public(Reciprocal, "reciprocal")
erf, erfc, erfinv = _public(Erf, "erf"), _public(Erfc, "erfc"), _public(Erfinv, "erfinv")
lgamma, digamma = _public(Lgamma, "lgamma"), _public(Digamma, "digamma")
sinc, deg2rad, rad2deg = _public(Sinc, "sinc"), _public(Deg2rad, "deg2rad"), _public(Rad2deg, "rad2deg")


def square(input, *, out=None):
    """``input ** 2``: bool squares to int64 like ``pow(bool, 2)``."""
    if type(input) is not Tensor and out is None and (res := sparse_function("square", input)) is not None:
        return res
    if input.dtype is _dtype.bool:
        input = input.to(_dtype.int64)
    return _out(Square.apply(input), out, input)


def round(input, *, decimals=None, out=None):  # PyTorch's name
    """Half to even; an explicit ``decimals`` (even 0) is PyTorch's other overload (RoundBackward1)."""
    if decimals is not None:
        cls = RoundDecimals if decimals else RoundZeroDecimals
        return _out(cls.apply(input, decimals=int(decimals)), out, input)
    if type(input) is not Tensor and out is None and (res := sparse_function("round", input)) is not None:
        return res
    return _out(Round.apply(input), out, input)


def polygamma(n: int, input, *, out=None):
    if isinstance(n, Tensor) and not isinstance(input, Tensor):  # the method form: x.polygamma(n)
        n, input = input, n
    if n < 0:
        raise RuntimeError("polygamma(n, x) does not support negative n.")
    if n == 0:
        return _out(Digamma.apply(input), out, n, input)
    return _out(Polygamma.apply(input, n=int(n)), out, n, input)


def logit(input, eps=None, *, out=None):
    if type(input) is not Tensor and out is None and (res := sparse_function("logit", input)) is not None:
        return res  # (torch has no sparse kernel: its NotImplementedError)
    eps = None if eps is None else float(eps)
    if isinstance(input, Tensor) and input.dtype in (_dtype.float16, _dtype.bfloat16):
        return _out(Logit.apply(input, eps=eps, low=input._data.dtype), out, input)  # (rounded between steps: as torch)
    return _out(Logit.apply(input, eps=eps), out, input)


@recorded
def signbit(input, *, out=None):
    """True where the sign bit is set (-0.0 included); never differentiable."""
    if type(input) is not Tensor and out is None and (res := sparse_function("signbit", input)) is not None:
        return res
    x = input._data
    if x.dtype.kind == "V":  # bfloat16 and the float8 types: through float32, exactly (-0.0 keeps its sign bit)
        x = x.astype(np.float32)
    res = xp_of(x).signbit(x) if x.dtype.kind == "f" else (x < 0)
    return _out(new_tensor(xp_of(x).asarray(res)), out, input)


def positive(input):
    if input.dtype is _dtype.bool:
        raise RuntimeError("The `+` operator, on a bool tensor is not supported.")
    return input


class NanToNum(Function):
    node_name = "NanToNumBackward0"
    edgeless_inputs = (1, 2, 3)  # the numbers

    @staticmethod
    def forward(ctx, a, nan=0.0, posinf=None, neginf=None):
        x = a._data
        if x.dtype.kind != "f":
            return x.copy()
        xp = xp_of(x)
        info = ml_dtypes.finfo(x.dtype)
        hi = info.max if posinf is None else posinf
        lo = info.min if neginf is None else neginf
        with np.errstate(all="ignore"):
            res = xp.where(xp.isnan(x), x.dtype.type(nan), x)
            res = xp.where(res == np.inf, x.dtype.type(hi), res)
            res = xp.where(res == -np.inf, x.dtype.type(lo), res)
        ctx.save_for_backward(a)
        return xp.asarray(res)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return where(isfinite(x), g, 0), None, None, None  # NOTE: nan and +-inf positions get no gradient


def nan_to_num(input, nan=0.0, posinf=None, neginf=None, *, out=None):
    if type(input) is not Tensor or (out is not None and type(out) is not Tensor):
        from core._sparse_coo_ops import nan_to_num as sparse_nan_to_num

        if (res := sparse_nan_to_num(input, nan, posinf, neginf, out)) is not None:  # sparse, as torch's kernels
            return res
    return _out(NanToNum.apply(input, nan, posinf, neginf), out, input)

