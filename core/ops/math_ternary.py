"""Elementwise ops of three tensors: ``lerp``, ``addcmul`` and ``addcdiv`` (broadcast together)."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._arg_types import require_tensors
from core._fused import fma
from core._memory_format import laid_out_like_operands
from core._scalar_fit import check_scalar_fits
from core._tensor import Tensor
from core.autograd.function import Function
from core.autograd.node_api import SavedFromCtx
from core.ops._float32_compute import computes_in_float32, is_reduced
from core.ops._util import as_array, broadcast_shapes, check_same_device, scalar_array, xp_of
from core.ops.deprecated_overloads import NOT_GIVEN, scalar_first
from core.ops.elementwise import _out
from core.ops.math_unary import not_implemented
from core.ops.scalar_forms import mul_s, rdiv_s, rsub_s

__all__ = ["lerp", "addcmul", "addcdiv"]


def _shape(x):
    return x._data.shape if isinstance(x, Tensor) else ()


def _arrays(dt, *operands):
    broadcast_shapes(*(_shape(v) for v in operands))
    check_same_device(*operands)
    like = next(v._data for v in operands if isinstance(v, Tensor))
    return [as_array(v, dt, like) for v in operands]


# C++'s names of the element types, which lerp's dtype error prints
_C_NAMES = {"float16": "c10::Half", "bfloat16": "c10::BFloat16", "float32": "float", "float64": "double",
            "int8": "signed char", "int16": "short int", "int32": "int", "int64": "long int", "uint8": "unsigned char",
            "bool": "bool", "complex64": "c10::complex<float>", "complex128": "c10::complex<double>"}


def _check_lerp(start, end, weight):
    """PyTorch's order: ``end`` a tensor (its argument parser), the dtypes equal, then a floating kernel."""
    if not isinstance(end, Tensor):
        raise TypeError(f"lerp() received an invalid combination of arguments - got (Tensor, {type(end).__name__}, "
                        f"{'Tensor' if isinstance(weight, Tensor) else type(weight).__name__}), but expected one of: "
                        "(Tensor input, Tensor end, Tensor weight) or (Tensor input, Tensor end, Number weight)")
    for what, t in (("end", end), ("weight", weight)):
        if isinstance(t, Tensor) and t.dtype is not start.dtype:
            raise RuntimeError(f"expected dtype {_C_NAMES[start.dtype.name]} for `{what}` but got dtype "
                               f"{_C_NAMES[t.dtype.name]}")
    if not (start.dtype.is_floating_point or start.dtype.is_complex):
        raise not_implemented("lerp_kernel_scalar" if not isinstance(weight, Tensor) else "lerp_kernel_tensor",
                              start.dtype)


def _lerp_values(xp, s, e, w):
    """PyTorch's CPU lerp: ``fma(w, e - s, s)`` for ``|w| < 0.5``, else ``fma(w - 1, e - s, e)`` (core._fused)."""
    d = e - s
    small = xp.abs(w) < 0.5
    return fma(xp, xp.where(small, w, w - 1), d, xp.where(small, s, e))


def _laid_out(res, *operands):
    """``res`` in the strides PyTorch's TensorIterator gives it from the operands (self, then the others)."""
    return res if res.ndim < 2 else laid_out_like_operands(res, *operands)


@computes_in_float32
class Lerp(Function):
    """``start + weight * (end - start)``, computed from the nearer end like PyTorch."""

    node_name = "LerpBackward0"
    edgeless_inputs = (2,)  # a number weight (LerpBackward0 is torch's Scalar-weight node)
    saves = ""  # (lerp_ keeps no clone of the old self: a number weight's backward reads no tensor)
    _saved_weight = SavedFromCtx(lambda c: c["weight"])  # (the number as the call gave it: an int stays an int)

    @staticmethod
    def forward(ctx, start, end, weight):
        dt = start.dtype
        s, e, w = _arrays(dt, start, end, weight)
        xp = xp_of(s)
        with np.errstate(all="ignore"):
            res = _lerp_values(xp, s, e, w)
        if isinstance(weight, Tensor):  # NOTE: a number weight saves no tensor (torch's LerpBackward0 keeps only
            ctx.save_for_backward(start, end, weight)  # the number), so a second backward through it is allowed
        ctx.weight = weight
        return _laid_out(xp.asarray(res.astype(dt.np)), s, e, w)

    @staticmethod
    def backward(ctx, g):
        w = ctx.weight
        if isinstance(w, Tensor):
            start, end, w = ctx._unpacked
        need = ctx.needs_input_grad
        # NOTE: derivatives.yaml's formulas in its generated code's order (end, self, weight: sorted by name), a
        # number weight as C++'s Scalar (MulBackward1) and 1 - weight as C++'s fill-and-sub (SubBackward0)
        scalar = not isinstance(w, Tensor)
        ge = (mul_s(g, w) if scalar else g * w) if need[1] else None
        gs = (mul_s(g, 1 - w) if scalar else g * rsub_s(1, w)) if need[0] else None
        gw = g * (end - start) if len(need) > 2 and need[2] else None
        return gs, ge, gw


class LerpTensor(Lerp):
    node_name = "LerpBackward1"
    edgeless_inputs = ()
    saved_names = ("self", "end", "weight")
    _saved_weight = None  # (the tensor saved in slot 2 instead)
    saves = "x"  # (its weight's gradient reads the old self: lerp_ clones it when the weight requires grad)

    @staticmethod
    def needs_old(end, weight) -> bool:
        return weight.requires_grad


def lerp(input, end, weight, *, out=None):
    _check_lerp(input, end, weight)
    if not isinstance(weight, Tensor):
        check_scalar_fits(weight, input.dtype, opmath=True)
    return _out((LerpTensor if isinstance(weight, Tensor) else Lerp).apply(input, end, weight), out, input, end, weight)


@computes_in_float32
class Addcmul(Function):
    """``input + value * tensor1 * tensor2``; value is cast to the result dtype (ints truncate)."""

    node_name = "AddcmulBackward0"
    divide = False
    saved_names = ("tensor1", "tensor2")
    _saved_value = SavedFromCtx(lambda c: c["value"])
    saves = ""  # (addcmul_/addcdiv_ keep no clone of the old self: the backward reads tensor1 and tensor2 only)

    @classmethod
    def forward(cls, ctx, a, t1, t2, *, value=1):
        dt = _dtype.result_type(a, t1, t2)
        x, y, z = _arrays(dt, a, t1, t2)
        xp = xp_of(x)
        v = scalar_array(value if dt.category >= 2 else int(value), dt, x)  # (complex keeps a fraction too)
        with np.errstate(all="ignore"):  # PyTorch's CPU kernels: self + (v * t1) / t2, and fma(v * t1, t2, self)
            res = x + (v * y) / z if cls.divide else fma(xp, v * y, z, x)
        need = ctx.needs_input_grad or (False,) * 3  # (as PyTorch's: tensor1 for tensor2's gradient, tensor2 for
        ctx.save_for_backward(t1 if need[2] else None,  # tensor1's, and for tensor2's too where it divides)
                              t2 if need[1] or (need[2] and cls.divide) else None)
        ctx.value = value
        return _laid_out(xp.asarray(res.astype(dt.np)), x, y, z)

    @classmethod
    def backward(cls, ctx, g):
        t1, t2 = ctx._unpacked
        v = ctx.value
        need = ctx.needs_input_grad
        # NOTE: derivatives.yaml's formulas as C++ records them: value a Scalar (value * t: MulBackward1; value / t:
        # a fill-and-div, DivBackward0 with an empty first edge), a binary operator's right operand evaluated first
        g1 = g2 = None
        if cls.divide:
            if need[1]:
                g1 = g * rdiv_s(v, t2)
            if need[2]:
                square = t2 * t2
                g2 = -g * (mul_s(t1, v) / square)
        else:
            g1 = g * mul_s(t2, v) if need[1] else None
            g2 = g * mul_s(t1, v) if need[2] else None
        return (g if need[0] else None), g1, g2


@computes_in_float32
class Addcdiv(Addcmul):
    node_name = "AddcdivBackward0"
    divide = True


_ADDCDIV_INT = ("Integer division with addcdiv is no longer supported, and in a future  release addcdiv will "
                "perform a true division of tensor1 and tensor2. The historic addcdiv behavior can be implemented "
                "as (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer inputs and as "
                "(input + value * tensor1 / tensor2) for float inputs. The future addcdiv behavior is just the "
                "latter implementation: (input + value * tensor1 / tensor2), for all dtypes.")


def _half_widened(*tensors):
    """The operands, a half-type one cast to the result dtype when that is wider (float16 ``input`` with float32
    tensors gives float32, as PyTorch's kernel computes it); the float32 route rounds to the first operand's
    half type, so it only sees operands of one half type."""
    dt = _dtype.result_type(*tensors)
    if dt.is_floating_point and not is_reduced(dt.np):
        return [t.to(dt) if isinstance(t, Tensor) and is_reduced(t._data.dtype) else t for t in tensors]
    return tensors


def addcmul(input, tensor1, tensor2, deprecated_tensor2=NOT_GIVEN, *, value=1, out=None):
    if deprecated_tensor2 is not NOT_GIVEN:  # addcmul(value, tensor1, tensor2)
        tensor1, tensor2, value = scalar_first("addcmul", tensor1, tensor2, deprecated_tensor2, keyword="value",
                                               keyword_value=value)
    require_tensors("addcmul", input=(1, input), tensor1=(2, tensor1), tensor2=(3, tensor2))
    if _dtype.result_type(input, tensor1, tensor2) is _dtype.bool:
        raise NotImplementedError("\"addcmul_cpu_out\" not implemented for 'Bool'")
    check_scalar_fits(value, _dtype.result_type(input, tensor1, tensor2), opmath=True)
    return _out(Addcmul.apply(*_half_widened(input, tensor1, tensor2), value=value), out,
                input, tensor1, tensor2)


def addcdiv(input, tensor1, tensor2, deprecated_tensor2=NOT_GIVEN, *, value=1, out=None):
    if deprecated_tensor2 is not NOT_GIVEN:  # addcdiv(value, tensor1, tensor2)
        tensor1, tensor2, value = scalar_first("addcdiv", tensor1, tensor2, deprecated_tensor2, keyword="value",
                                               keyword_value=value)
    require_tensors("addcdiv", input=(1, input), tensor1=(2, tensor1), tensor2=(3, tensor2))
    if tensor1.dtype.category < 2 and tensor2.dtype.category < 2:  # (bool or integer: complex divides)
        raise RuntimeError(_ADDCDIV_INT)
    check_scalar_fits(value, _dtype.result_type(input, tensor1, tensor2), opmath=True)
    return _out(Addcdiv.apply(*_half_widened(input, tensor1, tensor2), value=value), out,
                input, tensor1, tensor2)
