"""Backward formulas as the ATen operators torch's autograd runs, for a ``backward()`` inside a ``TorchDispatchMode``.

core's nodes compute their gradients on arrays (or with core ops), which a dispatch mode would not see, or would see
as other operators than torch's. While a mode is entered, the engine asks ``backward`` here first: for the nodes
simple programs make (sums, means, products, activations, ``addmm``/``mm``/``t``, the MSE loss) it computes the
gradients with the ATen operators torch's ``derivatives.yaml`` formulas call, in their order (``SumBackward0``:
``expand``; ``ReluBackward0``: the saved result unpacked (``detach``) then ``threshold_backward``;
``AddmmBackward0``: ``t`` and ``mm`` per matrix, then ``sum``/``view`` down to the bias's shape). Any other node
runs core's own formula (the operators it calls reach the mode, under their own names). The engine's seed is
``ones_like`` and a leaf's first gradient is ``detach``ed (or copied, for the seed itself), as torch's.
"""

from __future__ import annotations

import threading

from core import _torch_dispatch
from core._aten_ops import aten

__all__ = ["accumulated", "backward", "seed"]


class _Seeds(threading.local):
    """The last seed this thread made (held, so that no other tensor can be taken for it)."""

    def __init__(self):
        self.current = None


_seeds = _Seeds()


def _mode_on() -> bool:
    return bool(_torch_dispatch.mode_stack()) and not _torch_dispatch._state.below


def _wrapper(t) -> bool:
    return type(t).__module__ != "core" and _torch_dispatch.is_dispatch_type(type(t))


def seed(t):
    """The implicit gradient of a scalar root: ``aten.ones_like`` through the mode (or the root's subclass), or
    None with neither."""
    if not _mode_on() and not _wrapper(t):
        return None
    import core

    out = aten.ones_like.default(t, pin_memory=False, memory_format=core.preserve_format)
    _seeds.current = out
    return out


def _same_layout(g, leaf) -> bool:
    """torch's ``obeys_layout_contract``: the gradient's strides are the leaf's (size-1 dims aside)."""
    return all(n == 1 or a == b for n, a, b in zip(leaf.shape, g.stride(), leaf.stride()))


def accumulated(g, leaf):
    """A leaf's first ``.grad`` from ``g``: torch detaches it, or copies it laid out as the leaf when it is the
    engine's seed (others hold it) or laid out otherwise (an expanded gradient)."""
    if not _mode_on() and not _wrapper(g):
        return g
    if g is _seeds.current or not _same_layout(g, leaf):
        _seeds.current = None
        copy = aten.new_empty_strided.default(g, list(leaf.shape), list(leaf.stride()), dtype=g.dtype,
                                              layout=g.layout, device=g.device)
        return aten.copy_.default(copy, g)
    return aten.detach.default(g)


def backward(node, grad_outputs):
    """The node's gradients through ATen operators (one per edge), or None where core's own formula runs."""
    if not _mode_on():
        return None
    formula = _FORMULAS.get(node.name())
    if formula is None or len(grad_outputs) != 1 or grad_outputs[0] is None:
        return None
    grads = formula(node, grad_outputs[0])
    if grads is None:
        return None
    return tuple(_sum_to(g, meta) if g is not None and meta is not None else g
                 for g, meta in zip(grads, node._in_meta))


def _sum_to(g, meta):
    """torch's ``sum_to`` in ``validate_outputs``: a broadcast gradient summed back to its input's shape."""
    shape = tuple(meta[0])
    if tuple(g.shape) == shape:
        return g
    lead = g.dim() - len(shape)
    dims = list(range(lead)) + [lead + i for i, s in enumerate(shape) if s == 1 and g.shape[lead + i] != 1]
    out = aten.sum.dim_IntList(g, dims, True)
    return aten.view.default(out, list(shape)) if lead else out


def _saved(node):
    return node._unpacked


def _unpacked_output(node):
    """The saved result: torch unpacks a saved output as a detached alias, which the mode sees."""
    out = _saved(node)[1]
    _torch_dispatch.call_with_types(aten.detach.default, (out,), {}, (type(out),))
    return out


def _expanded(g, node):
    shape = list(node.in_shape)
    dims = node.dims
    if node.name().endswith("1") and not node.keepdim and g.dim() != len(shape):  # (the dim overloads)
        for d in sorted(d % len(shape) for d in dims):
            g = aten.unsqueeze.default(g, d)
    return aten.expand.default(g, shape)


def _sum(node, g):
    return (_expanded(g, node),)


def _mean(node, g):
    return (aten.div.Scalar(_expanded(g, node), node.count),)


def _operands(node):
    """Mul/Div keep ``other`` before ``self`` (torch's order); numbers are in ``scalars``."""
    b, a = _saved(node)
    sb, sa = node.scalars
    return (a if a is not None else sa), (b if b is not None else sb)


def _mul(node, g):
    a, b = _operands(node)
    need = node.needs_input_grad
    ga = aten.mul.Tensor(g, b) if need[0] else None
    gb = aten.mul.Tensor(g, a) if len(need) > 1 and need[1] else None
    return ga, gb


def _div(node, g):
    need = node.needs_input_grad
    if len(need) > 1 and need[1]:
        return None  # (a tensor divisor's gradient: core's formula)
    a, b = _operands(node)
    return (aten.div.Tensor(g, b),) + ((None,) if len(need) > 1 else ())


def _add(node, g):
    need = node.needs_input_grad
    alpha = getattr(node, "alpha", 1)
    if alpha != 1 and len(need) > 1 and need[1]:
        return None
    return tuple(g if n else None for n in need)


def _sub(node, g):
    need = node.needs_input_grad
    if getattr(node, "alpha", 1) != 1:
        return None
    return (g if need[0] else None,) + tuple(aten.neg.default(g) if n else None for n in need[1:])


def _pow(node, g):
    need = node.needs_input_grad
    a, b = _saved(node)
    sa, sb = node.scalars
    if a is None or b is not None or isinstance(sb, complex) or (len(need) > 1 and need[1]):
        return None  # (a tensor exponent: core's formula)
    exponent = float(sb)
    if exponent == 0.0:
        return None
    grad = aten.mul.Tensor(g, aten.mul.Scalar(aten.pow.Tensor_Scalar(a, exponent - 1.0), exponent))
    return (grad,) + (None,) * (len(need) - 1)


def _unary_of_result(aten_backward):
    def formula(node, g):
        out = _unpacked_output(node)
        if aten_backward is None:
            return (aten.mul.Tensor(g, out),)
        if aten_backward == "threshold_backward":
            return (aten.threshold_backward.default(g, out, 0),)
        return (getattr(aten, aten_backward).default(g, out),)
    return formula


def _column_major(t) -> bool:
    return t.dim() == 2 and t.stride(0) == 1 and t.stride(1) == t.shape[0] and t.shape[0] != 1


def _mat1_grad(g, mat2, mat1):
    if _column_major(mat1):
        return aten.t.default(aten.mm.default(mat2, aten.t.default(g)))
    return aten.mm.default(g, aten.t.default(mat2))


def _mat2_grad(g, mat1, mat2):
    if _column_major(mat2):
        return aten.t.default(aten.mm.default(aten.t.default(g), mat1))
    return aten.mm.default(aten.t.default(mat1), g)


def _addmm(node, g):
    if getattr(node, "alpha", 1) != 1 or getattr(node, "beta", 1) != 1:
        return None
    mat1, mat2 = _saved(node)
    need = node.needs_input_grad
    g1 = _mat1_grad(g, mat2, mat1) if need[1] else None
    g2 = _mat2_grad(g, mat1, mat2) if need[2] else None
    return (g if need[0] else None), g1, g2


def _mm(node, g):
    mat1, mat2 = _saved(node)
    need = node.needs_input_grad
    g2 = _mat2_grad(g, mat1, mat2) if need[1] else None  # (torch's generated code computes mat2's first)
    g1 = _mat1_grad(g, mat2, mat1) if need[0] else None
    return g1, g2


def _t(node, g):
    return (aten.t.default(g),)


_REDUCTION_CODES = {"none": 0, "mean": 1, "sum": 2}


def _mse(node, g):
    x, target = _saved(node)
    need = node.needs_input_grad
    if len(need) > 1 and need[1]:
        return None
    return aten.mse_loss_backward.default(g, x, target, _REDUCTION_CODES[node.reduction]), None


def _log_softmax(node, g):
    (out,) = _saved(node)
    _torch_dispatch.call_with_types(aten.detach.default, (out,), {}, (type(out),))
    return (aten._log_softmax_backward_data.default(g, out, node.dim, out.dtype),)


def _nll_loss(node, g):
    args = getattr(node, "aten_args", None)
    if args is None or args[0].dim() != 2 or (len(node.needs_input_grad) > 2 and node.needs_input_grad[2]):
        return None
    import core

    logp, target, weight, ignore_index = args
    total = _torch_dispatch.run_below(core.tensor, float(node.total), dtype=logp.dtype)
    grad = aten.nll_loss_backward.default(g, logp, target, weight, _REDUCTION_CODES[node.reduction], ignore_index,
                                          total)
    return grad, None, None


_INT64_MAX = 9223372036854775807  # torch's end of a slice without a stop


def _select(node, g):
    args = node.args
    if isinstance(args, dict):  # (Tensor.select(dim, index))
        shape, dim, index = node.in_shape, args["dim"], args["index"]
    else:
        shape, dim, index = args
    return (aten.select_backward.default(g, list(shape), dim, index),)


def _slice(node, g):
    args = node.args
    if isinstance(args, dict):  # (narrow(dim, start, length))
        shape, dim, start = node.in_shape, args["dim"], args["start"]
        end, step = start + args["length"], 1
    else:
        shape, dim, start, end, step = args
    if end >= shape[dim]:  # (a slice to the end: torch keeps its forward's INT64_MAX stop)
        end = _INT64_MAX
    return (aten.slice_backward.default(g, list(shape), dim, start, end, step),)


_FORMULAS = {
    "SumBackward0": _sum, "SumBackward1": _sum, "MeanBackward0": _mean, "MeanBackward1": _mean,
    "MulBackward0": _mul, "DivBackward0": _div, "AddBackward0": _add, "SubBackward0": _sub, "PowBackward0": _pow,
    "ReluBackward0": _unary_of_result("threshold_backward"), "TanhBackward0": _unary_of_result("tanh_backward"),
    "SigmoidBackward0": _unary_of_result("sigmoid_backward"), "ExpBackward0": _unary_of_result(None),
    "AddmmBackward0": _addmm, "MmBackward0": _mm, "TBackward0": _t, "MseLossBackward0": _mse,
    "LogSoftmaxBackward0": _log_softmax, "NllLossBackward0": _nll_loss, "SelectBackward0": _select,
    "SliceBackward0": _slice,
}
