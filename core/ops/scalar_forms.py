"""Arithmetic with a number as PyTorch's C++ derivative formulas record it, for gradients built with
``create_graph=True`` that walk like torch's.

In C++, ``t * 2``, ``2 * t``, ``t + 1``, ``1 + t``, ``t - 1`` and ``t / 2`` call the Scalar overloads and record
``MulBackward1``, ``AddBackward1``, ``SubBackward1`` and ``DivBackward1`` with one edge; ``1 - t`` and ``1 / t`` fill a
fresh tensor with the number and subtract or divide in place, recording ``SubBackward0``/``DivBackward0`` with an
empty first edge. A Python ``t * 2`` instead wraps the number in a tensor (``MulBackward0`` with two edges), which is
what core's operators record, so a formula written from ``derivatives.yaml`` uses these functions where its C++ has a
Scalar. Each gives the value the plain operator gives (the number in the tensor's dtype).
"""

from __future__ import annotations

from core._factories import full_like
from core._tensor import Tensor
from core.ops.elementwise import AddByNumber, Div, DivByNumber, MulByNumber, Sub, SubByNumber

__all__ = ["mul_s", "add_s", "sub_s", "div_s", "rsub_s", "rdiv_s"]


def mul_s(t: Tensor, number) -> Tensor:
    """C++ ``t * number`` or ``number * t``: ``MulBackward1``."""
    return MulByNumber.apply(t, number)


def add_s(t: Tensor, number) -> Tensor:
    """C++ ``t + number`` or ``number + t``: ``AddBackward1``."""
    return AddByNumber.apply(t, number)


def sub_s(t: Tensor, number) -> Tensor:
    """C++ ``t - number``: ``SubBackward1``."""
    return SubByNumber.apply(t, number)


def div_s(t: Tensor, number) -> Tensor:
    """C++ ``t / number``: ``DivBackward1``."""
    return DivByNumber.apply(t, number)


def rsub_s(number, t: Tensor) -> Tensor:
    """C++ ``number - t``: ``empty_like(t).fill_(number).sub_(t)``, a ``SubBackward0`` whose first edge is empty."""
    return Sub.apply(full_like(t, number), t)


def rdiv_s(number, t: Tensor) -> Tensor:
    """C++ ``number / t``: ``empty_like(t).fill_(number).div_(t)``, a ``DivBackward0`` whose first edge is empty."""
    return Div.apply(full_like(t, number), t)
