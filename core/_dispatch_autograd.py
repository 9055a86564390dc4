"""Autograd for ``__torch_dispatch__`` wrapper subclasses: a graph node per ATen operator, as torch records one.

In torch, autograd sits above the Python dispatch key: ``x * 2`` on a wrapper that requires grad records a
``MulBackward0`` node, then hands ``aten.mul.Tensor`` to the subclass's handler with autograd off; the backward's
operators run on the wrapper gradients, so they reach the handler too. Core does the same here: for an operator
whose tensor arguments need a gradient, the handler's result becomes the output of a node (named as torch's)
whose backward is torch's formula written with ATen operators (``core._aten_derivatives``' helpers). An operator
without a formula here raises NotImplementedError naming it, rather than give a result without a gradient.
"""

from __future__ import annotations

from core import _torch_dispatch
from core._aten_ops import aten
from core.autograd.function import Function

__all__ = ["apply", "needs_grad"]


def needs_grad(args, kwargs) -> bool:
    """Grad mode is on and a tensor argument requires grad."""
    from core._tensor import Tensor
    from core.autograd import grad_mode

    if not grad_mode.is_grad_enabled():
        return False
    return any(isinstance(a, Tensor) and a.requires_grad for a in (*args, *kwargs.values()))


class _Dispatched(Function):
    """One ATen operator on wrapper tensors: forward is the subclass's handler, backward torch's formula."""

    rule = None

    @staticmethod
    def forward(ctx, handler, op, types, *args, **kwargs):
        out = handler(op, types, args, kwargs)
        if out is NotImplemented:
            listed = "".join(f"\n  - tensor subclass {t}" for t in types)
            raise TypeError(f"Multiple dispatch failed for '{op.__module__}.{op.__name__}'; all __torch_dispatch__ "
                            f"handlers returned NotImplemented:\n{listed}\n\nFor more information, try re-running "
                            "with TORCH_LOGS=not_implemented")
        ctx.args, ctx.kwargs, ctx.out = args, kwargs, out
        return out

    @classmethod
    def backward(cls, ctx, *grads):
        grads_in = tuple(cls.rule(ctx, *grads))
        grads_in += (None,) * (len(ctx.args) - len(grads_in))
        shapes = [tuple(a.shape) if _tensor(a) else None for a in ctx.args]
        return (None, None, None, *[_sum_to(g, s) if g is not None and s is not None else None
                                    for g, s in zip(grads_in, shapes)])


_CLASSES: dict = {}
# operators whose results never require grad (torch's autograd records nothing for them)
_NOT_DIFFERENTIABLE = frozenset({
    "ones_like", "zeros_like", "empty_like", "full_like", "rand_like", "randn_like", "randint_like",
    "new_empty_strided", "new_empty", "new_zeros", "new_ones", "new_full", "detach", "_local_scalar_dense",
    "argmax", "argmin", "eq", "ne", "lt", "le", "gt", "ge", "isnan", "isinf", "isfinite", "sign", "logical_not",
    "logical_and", "logical_or", "bitwise_not", "is_nonzero", "equal", "allclose", "isclose", "nonzero",
    "lift_fresh"})


def apply(op, handler, types, args, kwargs):
    """``handler(op, types, args, kwargs)`` recorded as a graph node with torch's backward for ``op``."""
    if op.overloadpacket.__name__ in _NOT_DIFFERENTIABLE:
        return handler(op, types, args, kwargs)
    found = _RULES.get(op.__name__)
    if found is None:
        raise NotImplementedError(f"autograd of {op} on a __torch_dispatch__ subclass: core has no backward formula "
                                  "for it (run it under torch.no_grad() or on tensors that do not require grad)")
    node_name, rule = found
    cls = _CLASSES.get(op.__name__)
    if cls is None:
        cls = _CLASSES[op.__name__] = type(node_name, (_Dispatched,), {
            "node_name": node_name, "rule": staticmethod(rule), "__module__": __name__})
    out = cls.apply(handler, op, types, *args, **kwargs)
    if node_name in _torch_dispatch.SAVES_RESULT:  # torch's autograd saves the result detached: the handler sees it
        aten.detach.default(out)
    return out


def _sum_to(g, shape):
    if tuple(g.shape) == tuple(shape):
        return g
    lead = g.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1]
    out = aten.sum.dim_IntList(g, dims, True)
    return aten.view.default(out, list(shape)) if lead else out


def _tensor(value) -> bool:
    from core._tensor import Tensor

    return isinstance(value, Tensor)


def _need(ctx, i) -> bool:
    return ctx.needs_input_grad[3 + i] if 3 + i < len(ctx.needs_input_grad) else False


def _add(ctx, g):
    alpha = ctx.kwargs.get("alpha", 1)
    return g, (g if alpha == 1 else aten.mul.Tensor(g, alpha)) if _need(ctx, 1) else None


def _sub(ctx, g):
    alpha = ctx.kwargs.get("alpha", 1)
    other = aten.neg.default(g) if alpha == 1 else aten.mul.Tensor(g, -alpha)
    return g, other if _need(ctx, 1) else None


def _mul(ctx, g):
    a, b = ctx.args[:2]
    return (aten.mul.Tensor(g, b) if _need(ctx, 0) else None), (aten.mul.Tensor(g, a) if _need(ctx, 1) else None)


def _div(ctx, g):
    a, b = ctx.args[:2]
    ga = aten.div.Tensor(g, b) if _need(ctx, 0) else None
    gb = aten.neg.default(aten.mul.Tensor(g, aten.div.Tensor(aten.div.Tensor(a, b), b))) if _need(ctx, 1) else None
    return ga, gb


def _expand_back(ctx, g, dims=None, keepdim=False):
    shape = list(ctx.args[0].shape)
    if dims is not None and not keepdim:
        for d in sorted(d % len(shape) for d in dims):
            g = aten.unsqueeze.default(g, d)
    return aten.expand.default(g, shape)


def _sum(ctx, g):
    dims = ctx.args[1] if len(ctx.args) > 1 else None
    keepdim = ctx.args[2] if len(ctx.args) > 2 else False
    return (_expand_back(ctx, g, dims, keepdim),)


def _mean(ctx, g):
    x = ctx.args[0]
    dims = ctx.args[1] if len(ctx.args) > 1 else None
    keepdim = ctx.args[2] if len(ctx.args) > 2 else False
    count = x.numel() if dims is None else _count(x.shape, dims)
    return (aten.div.Scalar(_expand_back(ctx, g, dims, keepdim), count),)


def _count(shape, dims) -> int:
    n = 1
    for d in dims:
        n *= shape[d]
    return n


def _of_result(aten_backward):
    def rule(ctx, g):
        out = ctx.out
        aten.detach.default(out)  # (unpacking the saved result, as torch's)
        if aten_backward is None:
            return (aten.mul.Tensor(g, out),)
        if aten_backward == "threshold_backward":
            return (aten.threshold_backward.default(g, out, 0),)
        return (getattr(aten, aten_backward).default(g, out),)
    return rule


def _mm(ctx, g):
    from core._aten_derivatives import _mat1_grad, _mat2_grad

    a, b = ctx.args[:2]
    g2 = _mat2_grad(g, a, b) if _need(ctx, 1) else None
    g1 = _mat1_grad(g, b, a) if _need(ctx, 0) else None
    return g1, g2


def _addmm(ctx, g):
    from core._aten_derivatives import _mat1_grad, _mat2_grad

    bias, a, b = ctx.args[:3]
    if ctx.kwargs.get("alpha", 1) != 1 or ctx.kwargs.get("beta", 1) != 1:
        raise NotImplementedError("autograd of aten.addmm with alpha or beta on a __torch_dispatch__ subclass")
    g1 = _mat1_grad(g, b, a) if _need(ctx, 1) else None
    g2 = _mat2_grad(g, a, b) if _need(ctx, 2) else None
    return (g if _need(ctx, 0) else None), g1, g2


def _view(ctx, g):
    from core._aten_plan import _reshape

    return (_reshape(g, tuple(ctx.args[0].shape)),)


def _pow(ctx, g):
    x, exponent = ctx.args[:2]
    if exponent == 0:
        return (aten.mul.Tensor(g, 0),)
    return (aten.mul.Tensor(g, aten.mul.Scalar(aten.pow.Tensor_Scalar(x, exponent - 1.0), float(exponent))),)


def _permute(ctx, g):
    dims = [d % ctx.args[0].dim() for d in ctx.args[1]]
    inverse = [dims.index(i) for i in range(len(dims))]
    return (aten.permute.default(g, inverse),)


def _log_softmax(ctx, g):
    out = ctx.out
    aten.detach.default(out)  # (unpacking the saved result, as torch's)
    return (aten._log_softmax_backward_data.default(g, out, ctx.args[1], out.dtype),)


def _nll_loss_forward(ctx, g, g_total=None):
    logp, target, weight, reduction, ignore_index = ctx.args[:5]
    total = ctx.out[1]
    return aten.nll_loss_backward.default(g, logp, target, weight, reduction, ignore_index, total), None, None


def _mse_loss(ctx, g):
    x, target = ctx.args[:2]
    reduction = ctx.args[2] if len(ctx.args) > 2 else 1
    grad = aten.mse_loss_backward.default(g, x, target, reduction)
    return grad, (aten.neg.default(grad) if _need(ctx, 1) else None)


def _select(ctx, g):
    x, dim, index = ctx.args[:3]
    return (aten.select_backward.default(g, list(x.shape), dim, index),)


def _slice(ctx, g):
    x = ctx.args[0]
    dim, start, end, step = (list(ctx.args[1:]) + [0, 0, None, 1][len(ctx.args) - 1:])[:4]
    start = 0 if start is None else start
    end = 9223372036854775807 if end is None else end
    return (aten.slice_backward.default(g, list(x.shape), dim, start, end, step),)


_RULES = {
    "add.Tensor": ("AddBackward0", _add), "sub.Tensor": ("SubBackward0", _sub), "mul.Tensor": ("MulBackward0", _mul),
    "div.Tensor": ("DivBackward0", _div), "neg.default": ("NegBackward0", lambda ctx, g: (aten.neg.default(g),)),
    "sum.default": ("SumBackward0", _sum), "sum.dim_IntList": ("SumBackward1", _sum),
    "mean.default": ("MeanBackward0", _mean), "mean.dim": ("MeanBackward1", _mean),
    "relu.default": ("ReluBackward0", _of_result("threshold_backward")),
    "tanh.default": ("TanhBackward0", _of_result("tanh_backward")),
    "sigmoid.default": ("SigmoidBackward0", _of_result("sigmoid_backward")),
    "exp.default": ("ExpBackward0", _of_result(None)), "pow.Tensor_Scalar": ("PowBackward0", _pow),
    "mm.default": ("MmBackward0", _mm), "addmm.default": ("AddmmBackward0", _addmm),
    "t.default": ("TBackward0", lambda ctx, g: (aten.t.default(g),)),
    "view.default": ("ViewBackward0", _view), "_unsafe_view.default": ("UnsafeViewBackward0", _view),
    "clone.default": ("CloneBackward0", lambda ctx, g: (g,)),
    "unsqueeze.default": ("UnsqueezeBackward0", lambda ctx, g: (aten.squeeze.dim(g, ctx.args[1]),)),
    "squeeze.dim": ("SqueezeBackward1", lambda ctx, g: (aten.unsqueeze.default(g, ctx.args[1]),)),
    "transpose.int": ("TransposeBackward0", lambda ctx, g: (aten.transpose.int(g, ctx.args[1], ctx.args[2]),)),
    "permute.default": ("PermuteBackward0", _permute),
    "expand.default": ("ExpandBackward0", lambda ctx, g: (_sum_to(g, tuple(ctx.args[0].shape)),)),
    "_log_softmax.default": ("LogSoftmaxBackward0", _log_softmax),
    "nll_loss_forward.default": ("NllLossBackward0", _nll_loss_forward),
    "mse_loss.default": ("MseLossBackward0", _mse_loss),
    "select.int": ("SelectBackward0", _select), "slice.Tensor": ("SliceBackward0", _slice),
}
