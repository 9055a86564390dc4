"""Activations. Piecewise-linear ones save their 0/1 slope as a constant (exact at every order);
smooth ones write their backward with differentiable core ops so double backward works. ``gelu`` and its kernel
routes are in ``activation_gelu`` (exported here); hardshrink, softshrink, rrelu and gumbel_softmax in
``activation_more``.
"""

from __future__ import annotations

import numpy as np

import core
from core import _fused as fused
from core import _glibc as glibc
from core._arg_types import number_arg
from core._dtype import SCALAR_NAMES
from core._precise import precise
from core._scalar_fit import check_scalar_fits
from core._select import where as select
from core._sleef import expf_u10, log1pf_u10, vector_loop
from core._sleef_logd import log1pd_u10
from core._tensor import Tensor, new_tensor
from core._user_warning import warn_caller
from core.autograd import profiler as _profiler
from core.autograd.function import Function
from core.nn.functional import _activation_f32 as f32
from core.nn.functional import _activation_grads as grads
from core.nn.functional import activation_kernels as kernels
from core.nn.functional._activation_checks import _float_check, _plain_float32, _plain_float64
from core.nn.functional._flash_cpu import expd_u10
from core.nn.functional.activation_gelu import gelu
from core.ops._float32_compute import computes_in_float32
from core.ops._saved_attrs import kept
from core.ops._util import xp_of
from core.ops.elementwise import AddByNumber, _out, check_inplace, write_inplace

__all__ = ["relu", "relu_", "relu6", "leaky_relu", "leaky_relu_", "elu", "selu", "celu", "gelu", "silu", "mish",
           "softplus", "sigmoid", "tanh", "hardtanh", "hardsigmoid", "hardswish", "logsigmoid", "softsign",
           "tanhshrink", "threshold", "softmax", "log_softmax", "softmin", "glu"]


def _times_slope(g, slope):
    """``g * slope`` on arrays, +0 where the slope is 0 (torch selects there: a negative ``g`` leaves +0, not -0)."""
    res = g * slope
    return xp_of(res).where(slope != 0, res, 0) if (slope == 0).any() else res


class _SlopeGrad(Function):
    """The gradient of a ``_Slope`` op recorded under ``create_graph=True``, an op of its own as PyTorch's
    ``leaky_relu_backward``/``hardtanh_backward``/``threshold_backward(grad, self, ...)``: ``grad`` times the slope,
    and, with PyTorch's zero derivative, a function of ``self`` too, so a second derivative reaches the input as
    zeros (a product by a constant slope was not connected to it: ``autograd.grad`` refused)."""

    @staticmethod
    def forward(ctx, g, x, *, slope):
        ctx.slope = slope
        ctx.save_for_backward(x)
        return xp_of(g._data).asarray(_times_slope(g._data, slope))

    @classmethod
    def backward(cls, ctx, gg):
        (x,) = ctx._unpacked
        return cls.apply(gg, x, slope=ctx.slope), core.zeros_like(gg)  # NOTE: d/d self is zeros, as PyTorch's

    @classmethod
    def jvp(cls, ctx, tg, tx):
        g, x = ctx.inputs
        return cls.apply(tg, x, slope=ctx.kw["slope"]) if tg is not None else core.zeros_like(g)


class _Slope(Function):
    """y = x * slope(x) with a piecewise-constant slope: the backward multiplies by the saved slope (a recorded
    backward through ``grad_op``, PyTorch's ``*_backward`` op, which depends on the input too)."""

    grad_op = None
    saved_names = ("self",)  # grad_fn._saved_self; the call's numbers (``keep``) under the subclass's names

    @staticmethod
    def forward(ctx, x, *, fn, keep=()):
        out, slope = fn(x._data)
        ctx.slope, ctx.keep = slope, keep
        ctx.save_for_backward(x)
        return out

    @classmethod
    def backward(cls, ctx, g):
        (x,) = ctx._unpacked
        if core.is_grad_enabled() and cls.grad_op is not None and g.dtype == x.dtype and g.shape == x.shape:
            return cls.grad_op.apply(g, x, slope=ctx.slope)
        slope = new_tensor(ctx.slope)
        if not (ctx.slope == 0).any():
            return g * slope
        return core.where(slope != 0, g * slope, 0)  # NOTE: +0 where the slope is 0, as torch selects (not -0)


def _grad_op(name):
    return type(name, (_SlopeGrad,), {"node_name": name})


@computes_in_float32  # (the slope in float32, as PyTorch's half kernels take it)
class LeakyRelu(_Slope):
    node_name = "LeakyReluBackward0"
    grad_op = _grad_op("LeakyReluBackwardBackward0")
    _saved_negative_slope = kept("keep", 0)


class Hardtanh(_Slope):
    node_name = "HardtanhBackward0"
    grad_op = _grad_op("HardtanhBackwardBackward0")
    _saved_min_val, _saved_max_val = kept("keep", 0), kept("keep", 1)


class Threshold(_Slope):
    node_name = "ThresholdBackward0"
    grad_op = _grad_op("ThresholdBackwardBackward0")
    _saved_threshold = kept("keep", 0)


class _Inplace(Function):
    """``op_(x)``: the out-of-place primitive on a copy of x, written back into x (marked dirty)."""

    inner = None
    writes_self = True  # (the profiler's name: aten::leaky_relu_)

    @classmethod
    def forward(cls, ctx, x, **kw):
        x0 = Tensor._wrap(x._data.copy())
        res = cls.inner.forward(ctx, x0, **kw)
        xp_of(x._data).copyto(x._data, res, casting="unsafe")
        ctx.mark_dirty(x)
        return x

    @classmethod
    def backward(cls, ctx, g):
        return cls.inner.backward(ctx, g)


_INPLACE = {}


# the in-place overloads' nodes where PyTorch's have their own (elu_, leaky_relu_, celu_, threshold_ save the result)
_INPLACE_NODES = {"EluBackward0": "EluBackward1", "LeakyReluBackward0": "LeakyReluBackward1",
                  "CeluBackward0": "CeluBackward1", "ThresholdBackward0": "ThresholdBackward1"}


def _apply(cls, input: Tensor, inplace: bool, **kw) -> Tensor:
    """Run activation ``cls`` out of place, or in place with PyTorch's checks and history rebasing."""
    if not inplace:
        return cls.apply(input, **kw)
    check_inplace(input)
    if input._requires_grad and core.is_grad_enabled():
        if cls not in _INPLACE:
            name = _INPLACE_NODES.get(cls.node_name, cls.node_name)
            _INPLACE[cls] = type(cls.__name__ + "Inplace", (_Inplace,), {"inner": cls, "node_name": name})
        return _INPLACE[cls].apply(input, **kw)
    ahead = _profiler.open_ahead(cls, _profiler.op_name(cls) + "_") if _profiler._recording else None
    try:  # (a profile shows PyTorch's in-place name, aten::silu_)
        with core.no_grad():
            out = cls.apply(input, **kw)
    finally:
        _profiler.close_ahead(ahead)
    write_inplace(input, out._data)
    return input


def relu(input: Tensor, inplace: bool = False) -> Tensor:
    if isinstance(input, Tensor) and input.is_quantized:  # (a converted model's nn.ReLU: still quantized)
        return input.relu()
    return core.relu_(input) if inplace else core.relu(input)


def relu_(input: Tensor) -> Tensor:
    return core.relu_(input)


def leaky_relu(input: Tensor, negative_slope: float = 0.01, inplace: bool = False) -> Tensor:
    return slope_activation(LeakyRelu, input, negative_slope, inplace)


def slope_activation(op, input: Tensor, negative_slope: float, inplace: bool) -> Tensor:
    """leaky_relu recorded by ``op`` (``LeakyRelu``, or a subclass named as another of PyTorch's nodes: rrelu's
    eval mode is ``rrelu_with_noise``)."""
    _float_check(input, "leaky_relu_cpu")
    check_scalar_fits(negative_slope, input.dtype, opmath=True)

    def fn(a):  # (the slope picked in the input's dtype by a branch-free select: no float64 array between)
        dt, xp = a.dtype.type, xp_of(a)
        slope = (select if xp is np else xp.where)(a > 0, dt(1), dt(negative_slope))
        return a * slope, slope.astype(a.dtype, copy=False)
    return _apply(op, input, inplace, fn=fn, keep=(negative_slope,))


def leaky_relu_(input: Tensor, negative_slope: float = 0.01) -> Tensor:
    return leaky_relu(input, negative_slope, True)


def hardtanh(input: Tensor, min_val: float = -1.0, max_val: float = 1.0, inplace: bool = False) -> Tensor:
    min_val, max_val = number_arg("hardtanh", "min_val", 2, min_val), number_arg("hardtanh", "max_val", 3, max_val)
    if min_val > max_val:
        raise ValueError("min_val cannot be greater than max_val")
    if input.dtype is core.bool:
        raise RuntimeError("Bool inputs not supported for hardtanh")
    check_scalar_fits(min_val, input.dtype)
    check_scalar_fits(max_val, input.dtype)

    def fn(a):
        xp = xp_of(a)
        # NOTE: hardtanh_backward passes g unless a <= min or a >= max: a nan input passes it
        return xp.clip(a, min_val, max_val).astype(a.dtype), (~((a <= min_val) | (a >= max_val))).astype(a.dtype)
    return _apply(Hardtanh, input, inplace, fn=fn, keep=(min_val, max_val))


def relu6(input: Tensor, inplace: bool = False) -> Tensor:
    return hardtanh(input, 0, 6, inplace)  # (ints, as torch's relu6 calls it: grad_fn._saved_max_val is 6)


def threshold(input: Tensor, threshold: float, value: float, inplace: bool = False) -> Tensor:
    threshold, value = number_arg("threshold", "threshold", 2, threshold), number_arg("threshold", "value", 3, value)
    if input.dtype is core.bool:
        raise NotImplementedError("\"threshold_cpu\" not implemented for 'Bool'")
    check_scalar_fits(threshold, input.dtype, opmath=True)
    check_scalar_fits(value, input.dtype, opmath=True)

    def fn(a):
        keep = ~(a <= threshold)  # NOTE: torch's test, x <= threshold ? value : x: a nan stays, and passes g
        return xp_of(a).where(keep, a, value).astype(a.dtype), keep.astype(a.dtype)
    return _apply(Threshold, input, inplace, fn=fn, keep=(threshold,))


@computes_in_float32
class Elu(Function):
    node_name = "EluBackward0"
    saved_names = ("self",)
    _saved_alpha, _saved_scale, _saved_input_scale = kept("params", 0), kept("params", 1), kept("params", 2)

    @staticmethod
    def forward(ctx, x, *, alpha, scale, input_scale):
        a = x._data
        xp = xp_of(a)
        ctx.save_for_backward(x)
        ctx.params = alpha, scale, input_scale
        dt = a.dtype.type  # PyTorch's kernel: coefficients in the tensor's dtype, expm1 below zero
        negcoef, poscoef, negipt = dt(alpha) * dt(scale), dt(scale), dt(input_scale)
        if a.dtype == np.float32 and type(a) is np.ndarray:  # SLEEF's expm1 in the vector loop, glibc's otherwise

            def form(expm1):
                return lambda v: select(v < 0, expm1(np.minimum(v, 0) * negipt) * negcoef, v * poscoef)
            with np.errstate(over="ignore"):
                return vector_loop(a, form(lambda z: precise(np.expm1, z)), form(glibc.expm1f))
        with np.errstate(over="ignore"):
            neg = precise(xp.expm1, xp.minimum(a, 0) * negipt) * negcoef
        return xp.where(a > 0, a * poscoef, neg).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        return elu_backward(g, x, *ctx.params)


_ELU_GRAD = grads.grad_op("EluBackwardBackward0")


def elu_backward(g: Tensor, x: Tensor, alpha, scale, input_scale) -> Tensor:
    """``elu_backward(grad_output, alpha, scale, input_scale, False, self)``, one recorded node under
    ``create_graph=True`` (``_activation_grads``)."""
    return grads.recorded(_ELU_GRAD, _elu_grad, grads.elu_double, g, x, alpha, scale, input_scale)


def _elu_grad(g: Tensor, x: Tensor, alpha, scale, input_scale) -> Tensor:
    b, a = x._data, g._data
    if _plain_float32(x, g):
        negcoef, poscoef, negipt = np.float32(alpha) * np.float32(scale), np.float32(scale), np.float32(input_scale)

        def neg(exp):  # elu_backward's kernel (not is_result): a * negiptcoef * negcoef * exp(b * negiptcoef)
            return lambda v, w: w * negipt * negcoef * exp(np.minimum(v, 0) * negipt)
        def vec(v, w):  # NOTE: the vector form tests x > 0, the scalar one x <= 0: a nan differs (_vector_nan)
            return select(v > 0, w * poscoef, neg(expf_u10)(v, w))

        def scalar(v, w):
            return select(v <= 0, neg(glibc.expf)(v, w), w * poscoef)
        with np.errstate(over="ignore"):
            return new_tensor(vector_loop(b, vec, scalar, a))
    neg = g * input_scale * (alpha * scale) * core.exp(core.clamp(x, max=0) * input_scale)  # (the kernel's order)
    negative = x <= 0
    if _nan_split_known(x, g):
        negative = negative | _vector_nan(x, g)
    return core.where(negative, neg, g * scale)


def _nan_split_known(x: Tensor, g: Tensor) -> bool:
    """Whether ``_vector_nan`` knows the kernel's split for these float64 operands (NumPy arrays of one shape)."""
    b, a = x._data, g._data
    return type(b) is np.ndarray and type(a) is np.ndarray and b.dtype == np.float64 and a.shape == b.shape


def _vector_nan(x: Tensor, g: Tensor):
    """Where ``elu_backward``'s kernel takes its negative branch at a nan input: its vector form tests ``x > 0`` (a nan
    gets the negative branch, nan), its scalar form ``x <= 0`` (a nan gets ``g * scale``), so a nan's gradient
    follows ``vector_loop``'s split (measured against torch 2.13: a nan among 16 float32 or, on AVX2, 8 float64
    elements gets nan, among 8 float32 elements g * scale); a bool tensor (``_nan_split_known`` operands)."""
    b, a = x._data, g._data
    return core.tensor(vector_loop(b, lambda v, w: np.isnan(v), lambda v, w: np.zeros_like(v), a) != 0)


def elu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    _float_check(input, "elu_cpu")
    check_scalar_fits(alpha, input.dtype, opmath=True)
    return _apply(Elu, input, inplace, alpha=alpha, scale=1, input_scale=1)  # (torch's int defaults)


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def selu(input: Tensor, inplace: bool = False) -> Tensor:
    _float_check(input, "elu_cpu")
    return _apply(Elu, input, inplace, alpha=_SELU_ALPHA, scale=_SELU_SCALE, input_scale=1)


class Celu(Elu):
    node_name = "CeluBackward0"  # PyTorch's celu is elu with input_scale 1 / alpha, under its own node
    _saved_scale = _saved_input_scale = None  # (torch's node keeps alpha only)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        alpha, scale, _ = ctx.params  # NOTE: derivatives.yaml's input_scale is 1.0 / alpha.toFloat(): float32's alpha
        return elu_backward(g, x, alpha, scale, 1.0 / float(np.float32(alpha)))


def celu(input: Tensor, alpha: float = 1.0, inplace: bool = False) -> Tensor:
    if alpha == 0:
        raise RuntimeError("ZeroDivisionError")
    _float_check(input, "elu_cpu")
    check_scalar_fits(alpha, input.dtype, opmath=True)
    return _apply(Celu, input, inplace, alpha=alpha, scale=1.0, input_scale=1.0 / alpha)


@computes_in_float32
class Silu(Function):
    node_name = "SiluBackward0"
    saved_names = ("self",)

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        a = x._data
        if f32.plain(a):  # silu's kernel, its denominator 1 + exp(-x) kept for the backward (a block at a time)
            out, den = f32.silu_forward(a)
            f32.keep(ctx, a, den)
            return out
        with np.errstate(over="ignore"):
            if a.dtype == np.float32 and type(a) is np.ndarray:  # silu's kernel: x / (1 + exp(-x)), SLEEF or glibc
                return vector_loop(a, lambda v: v / (1 + expf_u10(-v)), lambda v: v / (1 + glibc.expf(-v)))
            if a.dtype == np.float64 and type(a) is np.ndarray:  # (SLEEF's expd_u10, glibc's exp)
                return vector_loop(a, lambda v: v / (1 + expd_u10(-v)), lambda v: v / (1 + glibc.exp(-v)))
            return (a / (1 + precise(xp_of(a).exp, -a))).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        b, a = x._data, g._data
        if _plain_float32(x, g) and (den := f32.kept(ctx, b, a)) is not None:
            return new_tensor(f32.silu_backward(b, a, den))
        if _plain_float32(x, g) or _plain_float64(x, g):
            one = b.dtype.type(1)

            def form(exp):  # silu_backward's kernel: dy * sigmoid * (1 + x * (1 - sigmoid)), the sum fused
                def f(v, dy):  # NOTE: GCC contracts x * (1 - sigmoid) + 1 to an fma in both of torch's forms
                    sig = 1 / (1 + exp(-v))
                    return dy * sig * fused.fma(np, v, 1 - sig, one)
                return f
            vec, scalar = (expf_u10, glibc.expf) if b.dtype == np.float32 else (expd_u10, glibc.exp)
            with np.errstate(over="ignore"):
                return new_tensor(vector_loop(b, form(vec), form(scalar), a))
        s = core.sigmoid(x)
        if core.is_grad_enabled():  # create_graph: FunctionsManual's infinitely_differentiable_silu_backward, as
            # C++ records 1.0 + t and 1.0 - t; NOTE: the right operand first, as GCC evaluates it, so the nodes
            # are created (and their gradients later added) in PyTorch's order
            right = AddByNumber.apply(x * (core.full_like(s, 1) - s), 1.0)
            return g * s * right
        return g * (s * (1 + x * (1 - s)))


def silu(input: Tensor, inplace: bool = False) -> Tensor:
    _float_check(input, "silu_cpu")
    return _apply(Silu, input, inplace)


def mish(input: Tensor, inplace: bool = False) -> Tensor:
    _float_check(input, "mish_cpu")
    return _apply(kernels.Mish, input, inplace)


@computes_in_float32
class Softplus(Function):
    node_name = "SoftplusBackward0"
    saved_names = ("self",)
    _saved_beta, _saved_threshold = kept("params", 0), kept("params", 1)

    @staticmethod
    def forward(ctx, x, *, beta, threshold):
        ctx.save_for_backward(x)
        ctx.params = beta, threshold
        a = x._data
        xp = xp_of(a)
        if f32.plain(a):  # (the same kernel a block at a time, exp(x beta) kept for the backward)
            out, exp = f32.softplus_forward(a, beta, threshold)
            f32.keep(ctx, a, exp)
            return out
        if a.dtype == np.float32 and type(a) is np.ndarray:  # SLEEF's exp and log1p in the vectorised loop, glibc's
            return vector_loop(a, _softplus_form(beta, threshold, expf_u10, log1pf_u10),  # for the rest
                               _softplus_form(beta, threshold, glibc.expf, glibc.log1pf))
        if a.dtype == np.float64 and type(a) is np.ndarray:  # SLEEF's expd_u10 and log1pd_u10 in the vector
            return vector_loop(a, _softplus_form(beta, threshold, expd_u10, log1pd_u10, np.float64),  # loop, the
                               _softplus_form(beta, threshold, glibc.exp, glibc.log1p, np.float64))  # C library's after
        z = a * beta
        with np.errstate(over="ignore"):
            soft = precise(xp.log1p, precise(xp.exp, z)) / beta  # PyTorch's formula: log1p(exp(z)) below threshold
        return xp.where(z > threshold, a, soft).astype(a.dtype)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        if _plain_float32(x, g) and (exp := f32.kept(ctx, x._data, g._data)) is not None:
            return new_tensor(f32.softplus_backward(x._data, g._data, exp, *ctx.params))
        return grads.recorded(_SOFTPLUS_GRAD, _softplus_grad, grads.softplus_double, g, x, *ctx.params)


_SOFTPLUS_GRAD = grads.grad_op("SoftplusBackwardBackward0")


def _softplus_grad(g: Tensor, x: Tensor, beta, threshold) -> Tensor:
    if _plain_float32(x, g) or _plain_float64(x, g):  # softplus_backward's kernel: z = exp(x beta); g z / (z + 1)
        dtype = x._data.dtype.type                       # below the threshold (beta, threshold in x's dtype)
        b, t = dtype(beta), dtype(threshold)

        def form(exp):
            def f(v, w):
                z = exp(v * b)
                return select(v * b > t, w, w * z / (z + 1))
            return f
        vec, scalar = (expf_u10, glibc.expf) if dtype is np.float32 else (expd_u10, glibc.exp)
        with np.errstate(over="ignore", invalid="ignore"):
            return new_tensor(vector_loop(x._data, form(vec), form(scalar), g._data))
    z = x * beta  # softplus_backward's formula, g z / (z + 1) with z = exp(x beta), below the threshold
    ez = core.exp(z.clamp(max=threshold))  # (clamped where the threshold passes g: no inf / inf there)
    return core.where(z > threshold, g, g * ez / (ez + 1))


def _softplus_form(beta, threshold, exp, log1p, dtype=np.float32):
    """softplus's kernel with the given exp and log1p: ``x`` where ``x beta > threshold``, else
    ``log1p(exp(x beta)) / beta``, beta and threshold in the input's dtype (float32 or float64)."""
    b, t = dtype(beta), dtype(threshold)

    def form(v):
        z = v * b
        with np.errstate(over="ignore"):
            return select(z > t, v, log1p(exp(z)) / b)
    return form


def nn_out(result: Tensor, out, input: Tensor) -> Tensor:
    """``out=`` of torch's structured nn kernels (``torch._C._nn.softplus``...): ``out`` must have the result's dtype
    ("Found dtype Double but expected Float"), then it is written as any op's out."""
    if out is None:
        return result
    if out.dtype != result.dtype:
        raise RuntimeError(f"Found dtype {SCALAR_NAMES[out.dtype.name]} but expected "
                           f"{SCALAR_NAMES[result.dtype.name]}")
    return _out(result, out, input)


def softplus(input: Tensor, beta: float = 1.0, threshold: float = 20.0, *, out=None) -> Tensor:
    _float_check(input, "softplus_cpu")
    beta, threshold = number_arg("softplus", "beta", 2, beta), number_arg("softplus", "threshold", 3, threshold)
    check_scalar_fits(beta, input.dtype, opmath=True)
    check_scalar_fits(threshold, input.dtype, opmath=True)
    return nn_out(Softplus.apply(input, beta=beta, threshold=threshold), out, input)


def sigmoid(input: Tensor) -> Tensor:
    return input.sigmoid()  # (torch's: a TorchFunctionMode sees Tensor.sigmoid, not F.sigmoid)


def tanh(input: Tensor) -> Tensor:
    return input.tanh()  # (torch's: a mode sees Tensor.tanh)


def hardsigmoid(input: Tensor, inplace: bool = False) -> Tensor:
    _float_check(input, "hardsigmoid_cpu")
    return _apply(kernels.Hardsigmoid, input, inplace)


def hardswish(input: Tensor, inplace: bool = False) -> Tensor:
    _float_check(input, "hardswish_cpu")
    return _apply(kernels.Hardswish, input, inplace)


def logsigmoid(input: Tensor, *, out=None) -> Tensor:
    _float_check(input, "log_sigmoid_cpu")
    return nn_out(kernels.LogSigmoid.apply(input), out, input)


def softsign(input: Tensor) -> Tensor:
    return input / (1 + core.abs(input))


def tanhshrink(input: Tensor) -> Tensor:
    return input - core.tanh(input)


def _softmax_dim(name: str, ndim: int) -> int:
    warn_caller(f"Implicit dimension choice for {name} has been deprecated. Change the call to include dim=X "
                "as an argument.")
    return 0 if ndim in (0, 1, 3) else 1


# NOTE: as in PyTorch, these call the input's methods (input.dim(), input.softmax(...)), so a non-tensor input
# (ResNet code that calls self.softmax(1)) fails with torch's AttributeError: 'int' object has no attribute 'softmax'
def softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmax", input.dim())
    return input.softmax(dim) if dtype is None else input.softmax(dim, dtype=dtype)


def log_softmax(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("log_softmax", input.dim())
    return input.log_softmax(dim) if dtype is None else input.log_softmax(dim, dtype=dtype)


def softmin(input: Tensor, dim=None, _stacklevel: int = 3, dtype=None) -> Tensor:
    if dim is None:
        dim = _softmax_dim("softmin", input.dim())
    return (-input).softmax(dim) if dtype is None else (-input).softmax(dim, dtype=dtype)


def glu(input: Tensor, dim: int = -1) -> Tensor:
    if input.ndim == 0:
        raise RuntimeError("glu does not support scalars because halving size must be even")
    size = input.shape[dim]
    if size % 2:
        raise RuntimeError(f"Halving dimension must be even, but dimension {dim % input.ndim} is size {size}")
    _float_check(input, "glu_cpu")
    return kernels.Glu.apply(input, dim=dim % input.ndim, raw_dim=dim)
