"""Backward kernels that are ops of their own, as in PyTorch (``tanh_backward``), so that a gradient built with
``create_graph=True`` rounds as a plain backward does and can be differentiated again.

``tanh``'s gradient ``g * (1 - out²)`` is one fused kernel in PyTorch (``1 - out²`` rounded once in float32). A
backward that records (``create_graph=True``, ``torch.func``'s transforms) calls the same kernel through
``TanhBackward``, whose own backward gives the second derivatives with differentiable ops (grad_fn
``TanhBackwardBackward0``): without it, Jacobians from ``jacrev``/``vjp`` differed from plain ``autograd.grad``
rows in the last bit.
"""

from __future__ import annotations

import numpy as np

from core import _softmax_kernels as softmax_kernels
from core._factories import zeros_like
from core._fused import fma
from core._memory_format import laid_out_like_operands
from core._mkl_tanhd import one_minus_square
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._fastpath import relu_grad
from core.ops._float32_compute import BF16 as _BF16
from core.ops._float32_compute import is_reduced
from core.ops._util import quiet_off, quiet_on, xp_of
from core.ops.comparison import le, where
from core.ops.elementwise import AddByNumber, MulByNumber
from core.ops.scalar_forms import mul_s

__all__ = ["tanh_backward", "tanh_grad_arrays", "sigmoid_backward", "sigmoid_grad_arrays", "threshold_backward",
           "softmax_backward_data", "log_softmax_backward_data"]


_ONE64 = np.array(1.0)  # (a 0-d array: a ufunc converts a Python or NumPy scalar operand on every call)


def tanh_grad_arrays(xp, g, o):
    """``g * (1 - o²)`` with ``1 - o²`` rounded once, as PyTorch's fused multiply-add kernel does (float32)."""
    if o.dtype == np.float32:  # NOTE: o² is exact in float64, so one rounding to float32 is the FMA's
        if type(o) is np.ndarray and type(g) is np.ndarray and g.dtype == o.dtype and g.shape == o.shape:
            # NOTE: every tanh layer's backward: the same steps in place on one float64 copy and one float32 result
            # (a 200x8 gradient 5.0 -> 3.7 µs: ``square(o, dtype=float64)`` casts through NumPy's buffers)
            wide = o.astype(np.float64)
            np.multiply(wide, wide, out=wide)
            np.subtract(_ONE64, wide, out=wide)
            res = wide.astype(np.float32)
            return np.multiply(g, res, out=res)
        return g * (1 - xp.square(o, dtype=np.float64)).astype(np.float32)
    if is_reduced(o.dtype) and g.dtype == o.dtype:  # bfloat16/float16: the kernel computes in float32, rounds once
        return tanh_grad_arrays(xp, g.astype(np.float32), o.astype(np.float32)).astype(o.dtype)
    if o.dtype == np.float64 and xp is np:  # NOTE: the kernel's compiled ``1 - o * o`` is one fma in float64 too, in
        factor = one_minus_square(o)  # its vector and scalar loops (NumPy's two roundings differed in ~55%); a
        factor = fma(np, -o, o, _ONE64) if factor is None else factor  # tanh's output (|o| <= 1): ~2x cheaper
        if np.isnan(np.add.reduce(factor, axis=None)):  # NOTE: the FMA instruction passes a NaN ``o`` on with its
            factor = np.where(np.isnan(o), o, factor)  # sign (the product's negation leaves a NaN as it is)
        res = g * factor  # (1 - o² is never +inf: its sum is NaN only where an element is)
        return res if res.ndim < 2 else laid_out_like_operands(res, g, o)  # (one_minus_square's is C-ordered)
    return g * (1 - o * o)


class TanhBackward(Function):
    """``tanh_backward(grad_output, output)``: the gradient of ``tanh`` as an op of its own."""

    node_name = "TanhBackwardBackward0"

    @staticmethod
    def forward(ctx, g, out):
        ctx.save_for_backward(g, out)
        token = quiet_on()
        try:
            return xp_of(out._data).asarray(tanh_grad_arrays(xp_of(out._data), g._data, out._data))
        finally:
            quiet_off(token)

    @staticmethod
    def backward(ctx, gg):
        g, out = ctx._unpacked
        # NOTE: PyTorch's formulas: d/d grad_output is tanh_backward itself, d/d output is gg * (-2 * out * g)
        return tanh_backward(gg, out), gg * (mul_s(out, -2) * g)  # (-2 * out: MulBackward1)

    @staticmethod
    def jvp(ctx, tg, tout):
        g, out = ctx.inputs
        total = None if tg is None else tanh_backward(tg, out)
        if tout is not None:
            # NOTE: PyTorch's formula, tanh_backward(tg, out) + tout * (-2 * out * g), with a missing tg as zeros: its
            # +0 term turns a -0.0 of the other into +0.0 (jacfwd(jacfwd(tanh)) prints torch's zeros)
            extra = tout * (-2 * out * g)
            total = tanh_backward(g.new_zeros(()).expand(g.shape), out) + extra if total is None else total + extra
        return total


def tanh_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    """``torch.ops.aten.tanh_backward``: ``grad_output * (1 - output²)``, differentiable again."""
    if grad_output.dtype != output.dtype or grad_output.dim() < output.dim():
        return grad_output * (1 - output * output)  # mixed dtypes or broadcasting: the composite rule
    if grad_output.shape != output.shape:  # a batch of tangents in front (jacfwd): the op on each, as torch's vmap
        try:
            output = output.expand(grad_output.shape)
        except RuntimeError:
            return grad_output * (1 - output * output)
    return TanhBackward.apply(grad_output, output)


def sigmoid_grad_arrays(g, o):
    """``g * (1 - o) * o`` on arrays (PyTorch's order of the products); bfloat16's in float32, rounded once
    (sigmoid_backward's kernel; float16's rounds each step)."""
    if o.dtype == _BF16:
        return sigmoid_grad_arrays(g.astype(np.float32), o.astype(np.float32)).astype(o.dtype)
    return g * (1 - o) * o


class SigmoidBackward(Function):
    """``sigmoid_backward(grad_output, output)``: the gradient of ``sigmoid`` as an op of its own, recorded under
    ``create_graph=True`` as PyTorch's ``SigmoidBackwardBackward0``."""

    node_name = "SigmoidBackwardBackward0"

    @staticmethod
    def forward(ctx, g, out):
        ctx.save_for_backward(g, out)
        token = quiet_on()
        try:
            return xp_of(out._data).asarray(sigmoid_grad_arrays(g._data, out._data))
        finally:
            quiet_off(token)

    @staticmethod
    def backward(ctx, gg):
        g, out = ctx._unpacked
        # NOTE: derivatives.yaml's: d/d grad_output is sigmoid_backward itself, d/d output is
        # grad * grad_output * (-2 * output + 1) (MulBackward1, AddBackward1 as C++ records the scalars)
        return (sigmoid_backward(gg, out) if ctx.needs_input_grad[0] else None,
                gg * g * _one_minus_twice(out) if ctx.needs_input_grad[1] else None)

    @staticmethod
    def jvp(ctx, tg, tout):
        g, out = ctx.inputs
        total = None if tg is None else sigmoid_backward(tg, out)
        if tout is not None:
            extra = tout * g * _one_minus_twice(out)
            total = extra if total is None else total + extra
        return zeros_like(g) if total is None else total


def _one_minus_twice(out: Tensor) -> Tensor:
    """``-2 * out + 1`` as C++ records it: MulBackward1, AddBackward1."""
    return AddByNumber.apply(MulByNumber.apply(out, -2), 1)


def sigmoid_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    """``torch.ops.aten.sigmoid_backward``: ``grad_output * (1 - output) * output``, differentiable again."""
    if grad_output.dtype != output.dtype or grad_output.dim() < output.dim():
        return grad_output * (1 - output) * output  # mixed dtypes or broadcasting: the composite rule
    if grad_output.shape != output.shape:  # a batch of tangents in front (jacfwd): the op on each
        try:
            output = output.expand(grad_output.shape)
        except RuntimeError:
            return grad_output * (1 - output) * output
    return SigmoidBackward.apply(grad_output, output)


class ThresholdBackward(Function):
    """``threshold_backward(grad_output, self, 0)``: ReLU's gradient, ``grad_output`` where ``self > 0`` and +0
    elsewhere (``self`` the ReLU's result), as an op of its own, as PyTorch records it under ``create_graph=True``
    (grad_fn ``ThresholdBackwardBackward0``). Its result depends on ``self`` too, with PyTorch's zero derivative, so
    a second derivative through a ReLU network reaches the network's input as zeros (and carries a grad_fn even where
    ``grad_output`` is a constant): a selection by a constant mask did not, and ``autograd.grad`` refused (DeepXDE's
    Hessians of a ReLU net)."""

    node_name = "ThresholdBackwardBackward0"

    @staticmethod
    def forward(ctx, g, out):
        ctx.save_for_backward(out)
        xp = xp_of(out._data)
        return xp.asarray(relu_grad(xp, g._data, out._data))

    @staticmethod
    def backward(ctx, gg):
        (out,) = ctx._unpacked
        # NOTE: PyTorch's formulas: d/d grad_output is threshold_backward itself, d/d self is zeros_like(grad)
        return threshold_backward(gg, out), zeros_like(gg)

    @staticmethod
    def jvp(ctx, tg, tout):
        g, out = ctx.inputs
        return threshold_backward(tg, out) if tg is not None else zeros_like(g)


def threshold_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    """``torch.ops.aten.threshold_backward(grad_output, output, 0)``: ReLU's gradient, differentiable again."""
    if grad_output.dtype != output.dtype or grad_output.shape != output.shape:  # (mixed dtypes, broadcasting)
        return where(le(output, 0), 0, grad_output)
    return ThresholdBackward.apply(grad_output, output)


class SoftmaxBackwardData(Function):
    """``_softmax_backward_data(grad_output, output, dim)``: softmax's gradient ``y * (g - sum(g * y))`` as an op
    of its own, as PyTorch records it under ``create_graph=True`` (``SoftmaxBackwardDataBackward0``)."""

    node_name = "SoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, g, y, *, dim):
        ctx.dim = dim
        ctx.save_for_backward(g, y)
        gx, yx = g._data, y._data
        with np.errstate(invalid="ignore", over="ignore"):
            out = softmax_kernels.softmax_backward(gx, yx, dim)  # PyTorch's kernel's roundings where covered
            if out is None:
                out = yx * (gx - (gx * yx).sum(axis=dim, keepdims=True))
        return xp_of(yx).asarray(out, dtype=yx.dtype)

    @staticmethod
    def backward(ctx, gg):
        g, y = ctx._unpacked
        d = ctx.dim  # NOTE: PyTorch's softmax_double_backward for the output
        gy = g * gg - (y * g).sum(d, keepdim=True) * gg - g * (y * gg).sum(d, keepdim=True)
        return softmax_backward_data(gg, y, d), gy

    @staticmethod
    def jvp(ctx, tg, ty):
        g, y = ctx.inputs
        d = ctx.dim
        total = None if tg is None else softmax_backward_data(tg, y, d)
        if ty is not None:
            extra = ty * (g - (g * y).sum(d, keepdim=True)) - y * (g * ty).sum(d, keepdim=True)
            total = extra if total is None else total + extra
        return total


class LogSoftmaxBackwardData(Function):
    """``_log_softmax_backward_data(grad_output, output, dim)``: ``g - exp(y) * sum(g)`` as an op of its own
    (``LogSoftmaxBackwardDataBackward0`` under ``create_graph=True``, as in PyTorch)."""

    node_name = "LogSoftmaxBackwardDataBackward0"

    @staticmethod
    def forward(ctx, g, y, *, dim):
        ctx.dim = dim
        ctx.save_for_backward(g, y)
        gx, yx = g._data, y._data
        with np.errstate(invalid="ignore", over="ignore"):
            out = softmax_kernels.log_softmax_backward(gx, yx, dim)
            if out is None:
                out = gx - xp_of(yx).exp(yx) * gx.sum(axis=dim, keepdims=True)
        return xp_of(yx).asarray(out, dtype=yx.dtype)

    @staticmethod
    def backward(ctx, gg):
        g, y = ctx._unpacked
        d = ctx.dim  # NOTE: PyTorch's formulas: gg - sum(gg * exp(y)) and -sum(g) * exp(y) * gg
        return gg - (gg * y.exp()).sum(d, keepdim=True), -g.sum(d, keepdim=True) * y.exp() * gg

    @staticmethod
    def jvp(ctx, tg, ty):
        g, y = ctx.inputs
        d = ctx.dim
        total = None if tg is None else log_softmax_backward_data(tg, y, d)
        if ty is not None:
            extra = -g.sum(d, keepdim=True) * y.exp() * ty
            total = extra if total is None else total + extra
        return total


def softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int) -> Tensor:
    """``torch.ops.aten._softmax_backward_data``'s value, differentiable again."""
    return SoftmaxBackwardData.apply(grad_output, output, dim=dim)


def log_softmax_backward_data(grad_output: Tensor, output: Tensor, dim: int) -> Tensor:
    """``torch.ops.aten._log_softmax_backward_data``'s value, differentiable again."""
    return LogSoftmaxBackwardData.apply(grad_output, output, dim=dim)
