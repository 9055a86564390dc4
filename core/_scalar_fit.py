"""torch's ``checked_convert`` for an op's scalar arguments: a Python number the kernel converts to its compute type
must fit that type.

``F.elu(x_f32, alpha=1e308)`` or ``x.add(y, alpha=1e39)`` in PyTorch raise "value cannot be converted to type float
without overflow": the kernel converts the scalar to a C++ type first. Ops differ in the type they convert to: the
tensor's own (``c10::Half`` for a half tensor: add's alpha, hardtanh, hardshrink, index_fill) or its "opmath" type
(float for half and bfloat16: elu, threshold, leaky_relu, softplus, addcmul/addcdiv, lerp). The range test is
``core._from_data.check_scalar_fits`` (fill_'s and full's); a float given to an integer op is left to the op's own
refusal ("alpha must not be a floating point number").
"""

from __future__ import annotations

import numbers

from core import _dtype
from core._from_data import check_scalar_fits as _fits

__all__ = ["check_scalar_fits"]


def check_scalar_fits(value, dtype, opmath: bool = False) -> None:
    """Raise torch's RuntimeError when the number ``value`` overflows ``dtype`` (its opmath type if ``opmath``)."""
    if not isinstance(value, numbers.Number) or isinstance(value, bool):
        return
    if opmath and dtype in (_dtype.float16, _dtype.bfloat16):
        dtype = _dtype.float32
    if dtype.category < 2 and not isinstance(value, numbers.Integral):
        return
    _fits(value, dtype)
