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

from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._float32_compute import is_reduced
from core.ops._util import quiet_off, quiet_on, xp_of

__all__ = ["tanh_backward", "tanh_grad_arrays"]


def tanh_grad_arrays(xp, g, o):
    """``g * (1 - o²)`` with ``1 - o²`` rounded once, as PyTorch's fused multiply-add kernel does (float32)."""
    if o.dtype == np.float32:  # NOTE: o² is exact in float64, so one rounding to float32 is the FMA's
        return g * (1 - xp.square(o, dtype=np.float64)).astype(np.float32)
    if is_reduced(o.dtype) and g.dtype == o.dtype:  # bfloat16/float16: the kernel computes in float32, rounds once
        return tanh_grad_arrays(xp, g.astype(np.float32), o.astype(np.float32)).astype(o.dtype)
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
        g, out = ctx.saved_tensors
        # NOTE: PyTorch's formulas: d/d grad_output is tanh_backward itself, d/d output is gg * (-2 * out * g)
        return tanh_backward(gg, out), gg * (-2 * out * g)

    @staticmethod
    def jvp(ctx, tg, tout):
        g, out = ctx.inputs
        total = None if tg is None else tanh_backward(tg, out)
        if tout is not None:
            extra = g * (-2 * out * tout)
            total = extra if total is None else total + extra
        return total


def tanh_backward(grad_output: Tensor, output: Tensor) -> Tensor:
    """``torch.ops.aten.tanh_backward``: ``grad_output * (1 - output²)``, differentiable again."""
    if grad_output.dtype != output.dtype or grad_output.shape != output.shape:
        return grad_output * (1 - output * output)  # mixed dtypes or broadcasting: the composite rule
    return TanhBackward.apply(grad_output, output)
