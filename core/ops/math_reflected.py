"""Python's reflected operators (``2 - t``, ``2 / t``, ``2 ** t``...) recorded as PyTorch records them.

PyTorch runs ``number + t`` as ``t.add(number)`` and ``number * t`` as ``t.mul(number)`` (so the
tensor's edge comes first in ``next_functions``), ``number - t`` as ``rsub(t, number)``
(``RsubBackward1``, one edge), ``number / t`` as ``t.reciprocal() * number`` (``MulBackward0`` over
``ReciprocalBackward0``, and the same rounding), and ``number ** t``, ``number // t``, ``number % t``
through their scalar-first overloads, whose nodes have one edge: the tensor's.
"""

from __future__ import annotations

from core._arg_types import require_tensor_input
from core._dtype import result_type as _result_dtype
from core._scalar_fit import check_scalar_fits
from core._tensor import Tensor
from core.autograd.forward_ad import total
from core.autograd.function import Function
from core.ops.elementwise import Sub, _out, add, div, mul, sub
from core.ops.math_unary import reciprocal

__all__ = ["rsub"]


class Rsub(Function):
    """``rsub(input, other, alpha)`` = ``other - alpha * input`` for two tensors."""

    node_name = "RsubBackward0"

    @staticmethod
    def forward(ctx, a, b, *, alpha=1):
        return Sub.forward(ctx, b, a, alpha=alpha)

    @staticmethod
    def backward(ctx, g):
        return (-g if ctx.alpha == 1 else g * -ctx.alpha), g

    @staticmethod
    def jvp(ctx, ta, tb):
        alpha = ctx.kw.get("alpha", 1)
        return total(None if ta is None else (-ta if alpha == 1 else ta * -alpha), tb)


class RsubScalar(Function):
    """``rsub(input, number)``: the number is no input of the node (PyTorch's ``RsubBackward1``)."""

    node_name = "RsubBackward1"

    @staticmethod
    def forward(ctx, a, *, other, alpha=1):
        return Sub.forward(ctx, other, a, alpha=alpha)

    @staticmethod
    def backward(ctx, g):
        return -g if ctx.alpha == 1 else g * -ctx.alpha

    @staticmethod
    def jvp(ctx, t):
        alpha = ctx.kw.get("alpha", 1)
        return -t if alpha == 1 else t * -alpha


def rsub(input, other, *, alpha=1):
    """``other - alpha * input`` (``torch.rsub``: no ``out=``, as PyTorch's has none; ATen's ``rsub.Tensor_out``
    is ``rsub_out``)."""
    require_tensor_input("rsub", input, other, (" * (Tensor input, Tensor other, *, Number alpha = 1)",
                                                " * (Tensor input, Number other, Number alpha = 1)"))
    if isinstance(other, Tensor):
        check_scalar_fits(alpha, _result_dtype(input, other))
        return Rsub.apply(input, other, alpha=alpha)
    return RsubScalar.apply(input, other=other, alpha=alpha)


def rsub_out(input, other, alpha=1, *, out=None):
    """``torch.ops.aten.rsub``'s overloads (``rsub.Scalar`` takes ``alpha`` by position), whose ``*_out`` forms write
    into ``out``."""
    return _out(rsub(input, other, alpha=alpha), out, input, other)


def _is_number(x) -> bool:
    return not isinstance(x, Tensor) and hasattr(x, "__float__") and not hasattr(x, "__len__")


def radd(self, other):
    return add(self, other) if _is_number(other) else add(other, self)


def rmul(self, other):
    return mul(self, other) if _is_number(other) else mul(other, self)


def rsub_op(self, other):
    if _is_number(other):
        return RsubScalar.apply(self, other=other)
    return sub(other, self)  # a non-number left operand (rare)


def rtruediv(self, other):
    if _is_number(other):
        return mul(reciprocal(self), other)
    return div(other, self)
