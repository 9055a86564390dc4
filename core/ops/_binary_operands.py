"""The operand plumbing the elementwise binary ops share (``math_binary``, ``math_clamp``, ``math_pairwise``): both
operands broadcast-checked and cast to their promoted dtype, the result in the layout PyTorch's TensorIterator gives
it, the operands saved for a backward, and PyTorch's dtype refusals (float-only kernels, no bool, integer division
by zero)."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._memory_format import laid_out_like_operands
from core._tensor import Tensor
from core.ops._util import broadcast_shapes, operand_arrays, xp_of
from core.ops.math_unary import not_implemented

__all__ = ["_arrays", "_check_int_zero", "_float_of", "_floats_only", "_no_bool", "_operands", "_result", "_save",
           "_shape"]


def _shape(x):
    return x._data.shape if isinstance(x, Tensor) else ()


def _arrays(a, b, dt=None):
    """Both operands broadcast-checked, on one device, cast to ``dt`` (default: their promotion)."""
    broadcast_shapes(_shape(a), _shape(b))
    x, y, dt = operand_arrays(a, b, dt)
    return x, y, dt, xp_of(x)


def _result(res, dt, *operands):
    """``res`` as an array of ``dt``; given the operand arrays, in the strides PyTorch's TensorIterator gives it."""
    res = xp_of(res).asarray(res) if not isinstance(res, np.generic) else np.asarray(res)
    if operands and res.ndim > 1:
        res = laid_out_like_operands(res, *operands)
    return res if res.dtype == dt.np else res.astype(dt.np)


def _save(ctx, a, b):
    ctx.save_for_backward(a if isinstance(a, Tensor) else None, b if isinstance(b, Tensor) else None)
    ctx.scalars = (a, b)


def _operands(ctx):
    a, b = ctx._unpacked[:2]
    sa, sb = ctx.scalars
    return (a if a is not None else sa), (b if b is not None else sb)


def _float_of(a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    return dt if dt.is_floating_point else _dtype.get_default_dtype()


def _floats_only(kernel, a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    if not dt.is_floating_point:
        raise not_implemented(kernel, dt)
    return dt


def _no_bool(kernel, dt):
    """PyTorch's rounding divisions and remainders have no bool (and no complex) kernel."""
    if dt is _dtype.bool or dt.is_complex:
        raise not_implemented(kernel, dt)


def _check_int_zero(x, y, dt):
    if not dt.is_floating_point and x.size and bool((y == 0).any()):
        raise RuntimeError("ZeroDivisionError")
