"""``binary_cross_entropy``, ``smooth_l1_loss``, ``huber_loss`` and ``soft_margin_loss`` as single primitives.

PyTorch computes each with one kernel, so ``print(loss)`` shows ``grad_fn=<BinaryCrossEntropyBackward0>`` (and
``SmoothL1LossBackward0``, ``HuberLossBackward0``, ``SoftMarginLossBackward0``), the names tutorials print. The
forward and backward follow the kernels' formulas (BCE's ``log1p(-x)`` clamped at -100 and its gradient's
``max(x (1 - x), 1e-12)``); the weight is a constant, as in PyTorch. Like ``_loss_primitives``, each backward
runs on arrays in a plain backward and on differentiable core ops under ``create_graph=True``.
"""

from __future__ import annotations

import numpy as np

import core
from core import _glibc, _glibc_logf
from core._precise import precise
from core._sleef import vector_loop
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromNode
from core.nn.functional._loss_primitives import _reduced, _result, _scale, contiguous, laid_out, recording
from core.ops._float32_compute import is_reduced
from core.ops._saved_attrs import kept, operand_shape, reduction_code
from core.ops._util import quiet, xp_of

__all__ = ["BinaryCrossEntropy", "SmoothL1Loss", "HuberLoss", "SoftMarginLoss"]

_EPSILON = 1e-12  # PyTorch's floor of x (1 - x) in BCE's gradient
# NOTE: float32 elements up to which BCE's forward calls the C library's logf and log1pf element by element (~1 µs
# each: a binary classifier's (batch, 1) outputs); larger inputs (an autoencoder's reconstruction) take their NumPy
# ports (core._glibc_logf, the same bits, ~0.2 µs an element) where those are available, else the logs rounded
# once from float64, which equal the C library's on ~93% of elements
_C_LIBRARY_LOGS = 4096
_F32 = np.float32


def _expanded_weight(node):
    """BCE's ``_saved_weight``: the weight the node kept, expanded to the input's shape as PyTorch's function expands
    it before its kernel (None where none was given)."""
    w = node.w
    return None if w is None else Tensor._wrap(xp_of(w).broadcast_to(w, operand_shape(node, 0, 0)))


def _grads(gx, need):
    """(input grad, target grad = -input grad) as the backward returns them."""
    return (gx if need[0] else None), (-gx if need[1] else None)


class BinaryCrossEntropy(Function):
    """-w (t max(log x, -100) + (1 - t) max(log1p(-x), -100)); d/dx = w g (x - t) / max(x (1 - x), 1e-12)."""

    node_name = "BinaryCrossEntropyBackward0"
    edgeless_inputs = (2,)  # the weight (torch's node: input and target)
    saved_names = ("self", "target")
    _saved_reduction, _saved_weight = reduction_code(), SavedFromNode(lambda node: _expanded_weight(node), tensor=True)

    @staticmethod
    def forward(ctx, input, target, weight, *, reduction):
        x, t = input._data, target._data
        xp = xp_of(x)
        with quiet():
            if type(x) is np.ndarray and x.dtype == _F32 and x.size <= _C_LIBRARY_LOGS:
                # NOTE: PyTorch's kernel is a scalar loop: std::log and std::log1p of a float are the C library's
                # logf and log1pf (log1pf is not correctly rounded: ~7% of sigmoid outputs' log1p(-x) differ
                # from the rounded double), then (t - 1) * log_q - t * log_p, each step in float32
                log_p = np.maximum(_glibc.logf(x), _F32(-100))
                log_q = np.maximum(_glibc.log1pf(-x), _F32(-100))
            elif type(x) is np.ndarray and x.dtype == _F32 and _glibc_logf.available():
                log_p = np.maximum(_glibc_logf.logf(x), _F32(-100))
                log_q = np.maximum(_glibc_logf.log1pf(-x), _F32(-100))
            else:
                log_p = xp.maximum(precise(xp.log, x), -100)
                log_q = xp.maximum(precise(xp.log1p, -x), -100)
            loss = ((t - 1) * log_q - t * log_p).astype(x.dtype, copy=False)
            if weight is not None:
                loss = loss * weight._data
            out = _reduced(xp, laid_out(loss, x), reduction)  # (PyTorch's kernel writes into empty_like(input))
        ctx.reduction, ctx.w = reduction, None if weight is None else weight._data
        ctx.save_for_backward(input, target)
        return out

    @staticmethod
    def backward(ctx, g):
        input, target = ctx._unpacked
        need, w, n = ctx.needs_input_grad, ctx.w, input.numel()
        if recording():
            gx = g * (input - target) / core.clamp((1 - input) * input, min=_EPSILON)
            gt = -core.logit(input) * g
            if w is not None:
                gx, gt = gx * Tensor._wrap(w), gt * Tensor._wrap(w)
            if ctx.reduction == "mean":
                gx, gt = gx / n, gt / n
            return (gx if need[0] else None), (gt if need[1] else None), None
        x, t, ga = input._data, target._data, g._data
        xp = xp_of(x)
        with quiet():
            gx = ga * (x - t) / xp.maximum((1 - x) * x, x.dtype.type(_EPSILON)) if need[0] else None
            gt = -precise(xp.log, x / (1 - x)) * ga if need[1] else None
            if w is not None:
                gx, gt = (None if gx is None else gx * w), (None if gt is None else gt * w)
            if ctx.reduction == "mean":
                gx, gt = (None if gx is None else gx / x.dtype.type(n)), (None if gt is None else gt / x.dtype.type(n))
        gx, gt = (None if v is None else laid_out(v, x) for v in (gx, gt))  # empty_like(input), logit(input)
        return (None if gx is None else _result(gx, x)), (None if gt is None else _result(gt, x)), None


class _PiecewiseLoss(Function):
    """Smooth L1 and Huber: quadratic for |x - t| < c, linear beyond; ``scale`` weighs the two (1/beta, delta)."""

    half_steps = None  # ``f(x, t, g, norm, c)``: a half type's input gradient where its kernel rounds each step
    saved_names = ("self", "target")
    _saved_reduction = reduction_code()

    @classmethod
    def forward(cls, ctx, input, target, *, reduction, c):
        x, t = input._data, target._data
        xp = xp_of(x)
        with quiet():
            z = xp.abs(x - t)
            loss = xp.where(z < c, cls._inner(z, c), cls._outer(z, c)).astype(x.dtype, copy=False)
            out = _reduced(xp, laid_out(loss, x, t), reduction)  # (a TensorIterator over input, target)
        ctx.reduction, ctx.c = reduction, c
        ctx.save_for_backward(input, target)
        return out

    @classmethod
    def backward(cls, ctx, g):
        input, target = ctx._unpacked
        c, need = ctx.c, ctx.needs_input_grad
        x, t, go = input._data, target._data, g._data
        low = x.dtype if is_reduced(x.dtype) and x.dtype == t.dtype == go.dtype else None
        if low is not None and not recording() and cls.half_steps is not None and type(x) is np.ndarray:
            norm = low.type(1.0 / x.size if ctx.reduction == "mean" else 1.0)
            with quiet():
                gx = contiguous(cls.half_steps(x, t, go, norm, low.type(c)))
            return (Tensor._wrap(gx) if need[0] else None), (Tensor._wrap(-gx) if need[1] else None)
        if low is not None:  # a half type's kernel: the float32 one's arithmetic, rounded once
            x, t, go = x.astype(_F32), t.astype(_F32), go.astype(_F32)
        if (not recording() and x.dtype == t.dtype == go.dtype == _F32 and type(x) is type(t) is np.ndarray
                and type(go) is np.ndarray and x.shape == t.shape and go.shape in ((), x.shape)):
            norm = _F32(1.0 / x.size if ctx.reduction == "mean" else 1.0)  # the kernels' norm, in float32
            forms = cls._vector_form(norm, c), cls._scalar_form(norm, c)
            with quiet():  # the target's gradient is the same kernel with input and target swapped
                gx = vector_loop(x, *forms, t, go, pair=16) if need[0] else None  # (an AVX2 kernel)
                gt = vector_loop(t, *forms, x, go, pair=16) if need[1] else None
            # NOTE: PyTorch's kernels write into C-contiguous zeros_like(input), whatever the layouts
            return tuple(None if a is None else Tensor._wrap(contiguous(a if low is None else a.astype(low)))
                         for a in (gx, gt))
        if recording():
            d = input - target
            edge = cls._edge(c)
            slope = core.where(d <= -c, -edge, core.where(d >= c, edge, cls._ramp(d, c)))
            return _grads(slope * _scale(g, ctx.reduction, input.numel()), need)
        x = input._data
        xp = xp_of(x)
        with quiet():
            d = x - target._data
            gs = _scale(g._data, ctx.reduction, x.size)
            edge = x.dtype.type(cls._edge(c))
            gx = xp.where(d <= -c, -edge * gs, xp.where(d >= c, edge * gs, cls._ramp(d, c) * gs))
            gx = contiguous(gx.astype(x.dtype, copy=False))
        return _grads(_result(gx, x), need)


class SmoothL1Loss(_PiecewiseLoss):
    """0.5 z^2 / beta for z = |x - t| < beta, z - 0.5 beta beyond."""

    node_name = "SmoothL1LossBackward0"
    _saved_beta = kept("c")

    @staticmethod
    def _inner(z, c):
        return 0.5 * z * z / c

    @staticmethod
    def _outer(z, c):
        return z - 0.5 * c

    @staticmethod
    def _edge(c):
        return 1.0

    @staticmethod
    def _ramp(d, c):
        return d / c

    @staticmethod
    def _scalar_form(norm, beta):
        """smooth_l1_backward's scalar form: -norm g, norm g, or norm x g / beta (beta a double)."""
        def f(a, b, go):
            x = a - b
            ramp = ((norm * x * go).astype(np.float64) / beta).astype(_F32)
            return np.where(x <= -beta, -norm * go, np.where(x >= beta, norm * go, ramp))
        return f

    @staticmethod
    def _vector_form(norm, beta):
        """Its vector form: norm * (+-1 where |x| >= beta, else x / beta) * g (beta in float32)."""
        b32 = _F32(beta)

        def f(a, b, go):
            x = a - b
            out = np.where(np.abs(x) >= b32, np.where(x > 0, _F32(1), _F32(-1)), x / b32)
            return norm * out * go
        return f


class HuberLoss(_PiecewiseLoss):
    """0.5 z^2 for z = |x - t| < delta, delta (z - 0.5 delta) beyond."""

    node_name = "HuberLossBackward0"
    _saved_delta = kept("c")

    @staticmethod
    def _inner(z, c):
        return 0.5 * z * z

    @staticmethod
    def _outer(z, c):
        return c * (z - 0.5 * c)

    @staticmethod
    def _edge(c):
        return c

    @staticmethod
    def _ramp(d, c):
        return d

    @staticmethod
    def _scalar_form(norm, delta):
        """huber_backward's scalar form: (-norm g) delta, (norm g) delta (in double: delta is one), or norm x g."""
        def f(a, b, go):
            x = a - b
            lo = ((-norm * go).astype(np.float64) * delta).astype(_F32)
            hi = ((norm * go).astype(np.float64) * delta).astype(_F32)
            return np.where(x <= -delta, lo, np.where(x >= delta, hi, norm * x * go))
        return f

    @staticmethod
    def half_steps(x, t, go, norm, delta):
        """huber_backward's half kernel: its arithmetic in the half type, norm and delta too, each step rounded."""
        d = x - t
        return norm * np.where(np.abs(d) >= delta, np.where(d > 0, delta, -delta), d) * go

    @staticmethod
    def _vector_form(norm, delta):
        """Its vector form: norm * (+-delta where |x| >= delta, else x) * g (delta in float32)."""
        d32 = _F32(delta)

        def f(a, b, go):
            x = a - b
            out = np.where(np.abs(x) >= d32, np.where(x > 0, _F32(1), _F32(-1)) * d32, x)
            return norm * out * go
        return f


class SoftMarginLoss(Function):
    """log(1 + exp(-t x)); d/dx = -t e / (1 + e) g with e = exp(-t x)."""

    node_name = "SoftMarginLossBackward0"

    @staticmethod
    def forward(ctx, input, target, *, reduction):
        x, t = input._data, target._data
        xp = xp_of(x)
        with quiet():
            loss = precise(xp.log1p, precise(xp.exp, -t * x)).astype(x.dtype, copy=False)
            out = _reduced(xp, laid_out(loss, x), reduction)  # (PyTorch's neg(input).mul_(target)...)
        ctx.reduction = reduction
        ctx.save_for_backward(input, target)
        return out

    @staticmethod
    def backward(ctx, g):
        input, target = ctx._unpacked
        need = ctx.needs_input_grad
        if recording():
            e = core.exp(-target * input)
            gs = _scale(g, ctx.reduction, input.numel())
            gx = -target * e / (1 + e) * gs
            gt = -input * e / (1 + e) * gs
            return (gx if need[0] else None), (gt if need[1] else None)
        x, t = input._data, target._data
        xp = xp_of(x)
        with quiet():
            e = precise(xp.exp, -t * x)
            gs = _scale(g._data, ctx.reduction, x.size)
            if x.dtype == t.dtype == g._data.dtype == _F32 and need[0]:  # soft_margin_loss_backward's steps:
                norm = _F32(1.0 / x.size if ctx.reduction == "mean" else 1.0)  # (t z) (-norm) / (z + 1) grad
                gx = (t * e * -norm / (e + 1) * g._data).astype(x.dtype, copy=False)
            else:
                gx = (-t * e / (1 + e) * gs).astype(x.dtype, copy=False) if need[0] else None
            gt = (-x * e / (1 + e) * gs).astype(x.dtype, copy=False) if need[1] else None
        gx = None if gx is None else laid_out(gx, t)  # NOTE: PyTorch's mul_out(grad_input, target, z): the target's
        return (None if gx is None else _result(gx, x)), (None if gt is None else _result(gt, x))
