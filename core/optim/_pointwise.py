"""PyTorch's in-place pointwise kernels that the optimizers call (``addcmul_``, ``addcdiv_``, ``sqrt``) on backend
arrays, rounding where ATen's CPU kernels round, so a float32 update equals torch's bit for bit.

- ``addcmul_(t, a, b, value)``: ``t + value * a * b`` as ATen's vectorised kernel computes it, ``value * a``
  rounded, then one fused multiply-add with ``b`` and ``t`` (``core._fused.fma_``);
- ``addcdiv_(t, a, b, value)``: ``t + value * a / b``, each of the three operations rounded (no fused form:
  a quotient comes between);
- ``sqrt``: torch's ``sqrt``, MKL's vector kernel where core reproduces it (``core._mkl_vml``).

``value`` is taken in ``t``'s dtype, as ATen converts its Scalar; the arrays are float32 or float64 (the half
types take ``core.ops._float32_compute``'s step functions).
"""

from __future__ import annotations

from core import _mkl_vml
from core._fused import fma_

__all__ = ["addcmul_", "addcdiv_", "sqrt"]


def addcmul_(xp, t, a, b, value=1.0) -> None:
    """``t.addcmul_(a, b, value=value)`` on arrays, in place."""
    fma_(xp, t, a if value == 1 else a * t.dtype.type(value), b)


def addcdiv_(xp, t, a, b, value=1.0) -> None:
    """``t.addcdiv_(a, b, value=value)`` on arrays, in place."""
    q = a * t.dtype.type(value) if value != 1 else a.copy()
    q /= b
    t += q


def sqrt(xp, x):
    """``x.sqrt()`` of an array as torch computes it here (``core._mkl_vml.sqrt``)."""
    return _mkl_vml.sqrt(xp, x)
