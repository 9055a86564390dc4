"""Elementwise arithmetic: binary ops with PyTorch's promotion and broadcasting, and their in-place forms.

Each primitive keeps its forward (on backend arrays) and backward (with differentiable core ops)
together. Broadcast gradients are summed back to each input's shape by the engine.
"""

from __future__ import annotations

import numbers
import sys

import numpy as np

from core import _dtype
from core._alias import alias
from core._arg_types import tp_name
from core._fused import fma
from core._memory_format import _non_overlapping_and_dense, laid_out_like_operands
from core._meta import MetaArray
from core._scalar_fit import check_scalar_fits
from core._sparse_coo import SparseCooTensor, is_scalar_factor, refuse_tensor_divisor
from core._sparse_coo_ops import add as sparse_coo_add
from core._sparse_coo_ops import takes_sum
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.forward_ad import _tangent_sum, linear_jvp, total
from core.autograd.function import Function
from core.autograd.shortcuts import state as _shortcuts
from core.autograd.view_meta import check_direct as check_view_write
from core.ops._fastpath import binary_no_grad
from core.ops._float32_compute import add_scaled_bfloat16, is_reduced, with_number
from core.ops._util import (
    broadcast_shapes,
    operand_arrays,
    quiet_off,
    quiet_on,
    scalar_array,
    xp_of,
)
from core.ops.complex_ops import conj_of
from core.ops.deprecated_overloads import NOT_GIVEN, scalar_first
from core.overrides import _given_out, handle_torch_function, has_torch_function_unary, has_torch_function_variadic

__all__ = ["add", "sub", "subtract", "mul", "multiply", "div", "divide", "true_divide", "neg",
           "negative", "add_", "sub_", "mul_", "div_", "check_inplace"]

_is_grad_enabled = grad_mode.is_grad_enabled
_grad_state = grad_mode._state


def _shape_of(x):
    return x._data.shape if isinstance(x, Tensor) else ()


def _call(ufunc, x, y, a, b):
    """Run a NumPy/CuPy binary ufunc; turn its broadcasting ValueError into PyTorch's error."""
    token = quiet_on()  # inf * 0 is a silent nan in PyTorch
    try:
        res = ufunc(x, y)
        return res if res.ndim < 2 else laid_out_like_operands(res, x, y)  # (TensorIterator's strides)
    except ValueError:
        broadcast_shapes(_shape_of(a), _shape_of(b))
        raise
    finally:
        quiet_off(token)


def _is_bool(x) -> bool:
    return isinstance(x, bool) or (isinstance(x, Tensor) and x._data.dtype == np.bool_)


def _float_result(a, b) -> _dtype.dtype:
    dt = _dtype.result_type(a, b)
    return dt if dt.is_floating_point or dt.is_complex else _dtype.get_default_dtype()


def _scaled(x, y, alpha, dt):
    """``x + alpha * y`` as PyTorch's CPU add computes it: one fused multiply-add (``core._fused``)."""
    broadcast_shapes(x.shape, y.shape)  # PyTorch's message for shapes that don't broadcast
    if is_reduced(x.dtype):  # PyTorch's bfloat16 and float16 kernel (core.ops._float32_compute)
        return add_scaled_bfloat16(x, y, alpha)
    token = quiet_on()
    try:
        res = fma(xp_of(x), scalar_array(alpha, dt, y), y, x)
        return res if res.ndim < 2 else laid_out_like_operands(res, x, y)
    finally:
        quiet_off(token)


def check_alpha(dt, alpha) -> None:
    """PyTorch's ``alpha_check``: add's and sub's ``alpha`` must fit the result dtype."""
    if isinstance(alpha, Tensor):
        alpha = alpha.item()
    if isinstance(alpha, (bool, np.bool_)) and dt is not _dtype.bool:
        raise RuntimeError("Boolean alpha only supported for Boolean results.")
    if not (dt.is_floating_point or dt.is_complex) and not isinstance(alpha, (int, np.integer, np.bool_)):
        raise RuntimeError("For integral input tensors, argument alpha must not be a floating point number.")
    if not dt.is_complex and isinstance(alpha, (complex, np.complexfloating)):
        raise RuntimeError("For non-complex input tensors, argument alpha must not be a complex number.")


class Add(Function):
    node_name = "AddBackward0"

    @staticmethod
    def forward(ctx, a, b, *, alpha=1):
        x, y, dt = operand_arrays(a, b)
        if type(alpha) is not int or alpha != 1:  # (the default: nothing to check)
            check_alpha(dt, alpha)
        ctx.alpha = alpha
        if alpha != 1:
            return _scaled(x, y, alpha, dt)
        return _call(xp_of(x).add, x, y, a, b)

    @staticmethod
    def backward(ctx, g):
        return g, (g if ctx.alpha == 1 else g * ctx.alpha)

    @staticmethod
    def jvp(ctx, ta, tb):
        alpha = ctx.kw.get("alpha", 1)
        return _tangent_sum(ctx.output, (ta, None), (tb if tb is None or alpha == 1 else tb * alpha, None))


class Sub(Function):
    node_name = "SubBackward0"

    @staticmethod
    def forward(ctx, a, b, *, alpha=1):
        x, y, dt = operand_arrays(a, b)
        if dt is _dtype.bool:
            raise RuntimeError("Subtraction, the `-` operator, with two bool tensors is not supported. "
                               "Use the `^` or `logical_xor()` operator instead.")
        if x.dtype == np.bool_ or y.dtype == np.bool_ or _is_bool(a) or _is_bool(b):
            raise RuntimeError("Subtraction, the `-` operator, with a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
        if type(alpha) is not int or alpha != 1:
            check_alpha(dt, alpha)
        ctx.alpha = alpha
        if alpha != 1:
            return _scaled(x, y, -alpha, dt)
        return _call(xp_of(x).subtract, x, y, a, b)

    @staticmethod
    def backward(ctx, g):
        return g, (-g if ctx.alpha == 1 else g * -ctx.alpha)

    @staticmethod
    def jvp(ctx, ta, tb):
        alpha = ctx.kw.get("alpha", 1)
        return _tangent_sum(ctx.output, (ta, None), (tb if tb is None else (-tb if alpha == 1 else tb * -alpha), None))


def _save_operands(ctx, a, b, keep_a: bool, keep_b: bool) -> None:
    """Save the operands a backward needs (``keep_x``: a gradient that will be computed uses x).

    NOTE: numbers go to ``ctx.scalars``, tensors only through ``save_for_backward`` so they are
    version-checked and freed after backward (an unneeded operand is not kept at all).
    """
    ta, tb = isinstance(a, Tensor), isinstance(b, Tensor)
    # NOTE: other before self, PyTorch's order of saved variables (saved-tensor hooks see it)
    ctx.save_for_backward(b if tb and keep_b else None, a if ta and keep_a else None)
    ctx.scalars = (None if tb else b, None if ta else a)


class Mul(Function):
    node_name = "MulBackward0"
    saved_names = ("other", "self")  # grad_fn._saved_other / _saved_self, in PyTorch's order

    @staticmethod
    def forward(ctx, a, b):
        x, y, _ = operand_arrays(a, b)
        needs = ctx.needs_input_grad
        if needs:  # a node is recorded: keep what d(ab)/da = b and d(ab)/db = a need
            _save_operands(ctx, a, b, keep_a=needs[1], keep_b=needs[0])
        if type(b) is float and is_reduced(x.dtype):  # bfloat16/float16 times a number: PyTorch keeps it in float32
            return _call(xp_of(x).multiply, x, np.float32(b), a, b).astype(x.dtype)
        return _call(xp_of(x).multiply, x, y, a, b)

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpacked
        sb, sa = ctx.scalars
        other_b = b if b is not None else sb
        other_a = a if a is not None else sa
        need = ctx.needs_input_grad
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus: d(ab)/da passes back as g * conj(b)
            other_b, other_a = conj_of(other_b), conj_of(other_a)
        if not _grad_state.enabled:  # NOTE: a plain backward records nothing: multiply arrays when it's exact
            token = quiet_on()
            try:
                ga, gb = _raw_mul(g, other_b, need[0]), _raw_mul(g, other_a, need[1])
            finally:
                quiet_off(token)
            if ga is not _NO and gb is not _NO:
                return ga, gb
        ga = g * other_b if need[0] else None
        gb = g * other_a if need[1] else None
        return ga, gb

    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.inputs  # NOTE: PyTorch's self_t * other + other_t * self, a missing tangent an efficient zero
        return _tangent_sum(ctx.output, (None if ta is None else ta * b, b), (None if tb is None else a * tb, a))


_NO = object()


def _raw_mul(g: Tensor, other, needed: bool):
    """``g * other`` on arrays when NumPy's dtype would be core's (same dtype, or a Python number);
    None when not needed, ``_NO`` when only the core op promotes right. The caller silences NumPy's warnings."""
    if not needed:
        return None
    x = g._data
    if isinstance(other, Tensor):
        y = other._data
        if y.dtype != x.dtype or type(y) is not type(x):
            return _NO
    elif type(other) is float and is_reduced(x.dtype):  # a half type times a number: the number in float32
        return new_tensor(with_number(np.multiply, x, other))
    elif type(other) is float or type(other) is int:
        y = other
    else:
        return _NO
    out = x * y
    if type(out) is not type(x):
        out = xp_of(x).asarray(out)
    return new_tensor(out if out.ndim < 2 else laid_out_like_operands(out, x, y))  # grad first: its layout leads


class Div(Function):
    node_name = "DivBackward0"
    saved_names = ("other", "self")  # grad_fn._saved_other / _saved_self, in PyTorch's order

    @staticmethod
    def forward(ctx, a, b):
        x, y, _ = operand_arrays(a, b, _float_result(a, b))
        needs = ctx.needs_input_grad
        if needs:  # a node is recorded: d(a/b)/da = 1/b, d(a/b)/db = -a/b²
            _save_operands(ctx, a, b, keep_a=needs[1], keep_b=needs[0] or needs[1])
        with np.errstate(divide="ignore", invalid="ignore"):
            if type(b) is float and is_reduced(x.dtype):  # a half type over a number: PyTorch keeps it in float32
                return _call(xp_of(x).true_divide, x, np.float32(b), a, b).astype(x.dtype)
            return _call(xp_of(x).true_divide, x, y, a, b)

    @staticmethod
    def backward(ctx, g):
        b, a = ctx._unpacked
        sb, sa = ctx.scalars
        den = b if b is not None else sb
        num = a if a is not None else sa
        if g._data.dtype.kind == "c":  # NOTE: conjugate Wirtinger calculus, as Mul's
            den, num = conj_of(den), conj_of(num)
        # NOTE: PyTorch's order: the other's gradient first (its generated code takes the derivatives in the sorted
        # order of their names), and in -grad * ((self / other) / other) the quotient before -grad (C++ evaluates the
        # operator's operands right to left); it sets the order a second backward runs these nodes in
        gb = None
        if ctx.needs_input_grad[1]:
            q = (num / den) / den
            gb = -g * q
        ga = g / den if ctx.needs_input_grad[0] else None
        return ga, gb

    @staticmethod
    def jvp(ctx, ta, tb):
        a, b = ctx.inputs
        return total(None if ta is None else ta / b, None if tb is None else -tb * ctx.output / b)


class MulByNumber(Mul):
    """``a * number`` recorded as PyTorch's C++ formulas multiply by a Scalar: ``<MulBackward1>``
    (a Python ``a * 2`` is ``MulBackward0``: its number becomes a wrapped tensor)."""

    node_name = "MulBackward1"
    edgeless_inputs = (1,)  # the number

    @staticmethod
    def backward(ctx, g):
        if not _grad_state.enabled:
            return Mul.backward(ctx, g)
        number = ctx.scalars[0]  # NOTE: torch's grad * Scalar: recorded again as MulBackward1
        return MulByNumber.apply(g, number.conjugate() if g._data.dtype.kind == "c" else number), None


class AddByNumber(Add):
    """``a + number`` recorded as PyTorch's C++ formulas add a Scalar: ``<AddBackward1>``."""

    node_name = "AddBackward1"
    edgeless_inputs = (1,)  # the number


class DivByNumber(Div):
    """``a / number`` recorded as PyTorch's C++ formulas divide by a Scalar: ``<DivBackward1>``."""

    node_name = "DivBackward1"
    edgeless_inputs = (1,)  # the number

    @staticmethod
    def backward(ctx, g):
        if not _grad_state.enabled:
            return Div.backward(ctx, g)
        number = ctx.scalars[0]  # NOTE: torch's grad / Scalar: recorded again as DivBackward1
        return DivByNumber.apply(g, number.conjugate() if g._data.dtype.kind == "c" else number), None


class SubByNumber(Sub):
    """``a - number`` recorded as PyTorch's C++ formulas subtract a Scalar: ``<SubBackward1>``."""

    node_name = "SubBackward1"
    edgeless_inputs = (1,)  # the number


class Neg(Function):
    node_name = "NegBackward0"

    @staticmethod
    def forward(ctx, a):
        if a._data.dtype == np.bool_:
            raise RuntimeError("Negation, the `-` operator, on a bool tensor is not supported. If you are "
                               "trying to invert a mask, use the `~` or `logical_not()` operator instead.")
        return xp_of(a._data).negative(a._data)

    @staticmethod
    def backward(ctx, g):
        return -g

    jvp = linear_jvp


_np_add, _np_multiply, _np_bool = np.add, np.multiply, np.dtype(np.bool_)


def _argument_error(name: str, input, other, error: TypeError) -> TypeError:
    """PyTorch's TypeError for an argument that is neither a tensor nor a number (``torch.add(ndarray, t)``: "add():
    argument 'input' (position 1) must be Tensor, not numpy.ndarray"); else the error the op raised."""
    for arg, what in ((input, "'input' (position 1)"), (other, "'other' (position 2)")):
        if not isinstance(arg, (Tensor, numbers.Number, np.generic)):
            return TypeError(f"{name}(): argument {what} must be Tensor, not {tp_name(arg)}")
    return error


def add(input, other, deprecated_other=NOT_GIVEN, *, alpha=1, out=None):
    if deprecated_other is not NOT_GIVEN:  # add(alpha, other)
        other, alpha = scalar_first("add", other, deprecated_other, keyword="alpha", keyword_value=alpha)
    if type(input) is not Tensor and out is None and isinstance(input, SparseCooTensor) and takes_sum(other):
        return sparse_coo_add(input, other, alpha)  # (a dense tensor: one identity test)
    plain = type(alpha) is int and alpha == 1  # (alpha=True or 1.0 is checked against the result dtype)
    if plain and out is None and isinstance(input, Tensor) and isinstance(other, Tensor) and not (
            (input._requires_grad or other._requires_grad) and _grad_state.enabled) and _shortcuts.ok:
        res = binary_no_grad(_np_add, input, other)
        if res is not None:
            return res
    if not plain and isinstance(input, Tensor):
        check_scalar_fits(alpha, _dtype.result_type(input, other))
    try:
        res = Add.apply(input, other) if plain else Add.apply(input, other, alpha=alpha)
    except TypeError as error:  # NOTE: only here, where a non-Tensor argument failed, may a tensor-like take it
        if not has_torch_function_variadic(input, other):
            raise _argument_error("add", input, other, error) from None
        return handle_torch_function(add, (input, other), input, other, alpha=alpha, **_given_out(out))
    return res if out is None else _out(res, out, input, other, deprecated_other)


def sub(input, other, deprecated_other=NOT_GIVEN, *, alpha=1, out=None):
    if deprecated_other is not NOT_GIVEN:  # sub(alpha, other)
        other, alpha = scalar_first("sub", other, deprecated_other, keyword="alpha", keyword_value=alpha)
    if type(input) is not Tensor and out is None and isinstance(input, SparseCooTensor) and takes_sum(other):
        return sparse_coo_add(input, other, alpha, name="sub")  # (a dense tensor: one identity test)
    if isinstance(input, Tensor) and not (type(alpha) is int and alpha == 1):
        check_scalar_fits(alpha, _dtype.result_type(input, other))
    try:
        return _out(Sub.apply(input, other, alpha=alpha), out, input, other, deprecated_other)
    except TypeError as error:
        if not has_torch_function_variadic(input, other):
            raise _argument_error("sub", input, other, error) from None
        return handle_torch_function(sub, (input, other), input, other, alpha=alpha, **_given_out(out))


subtract = alias(sub, "subtract")


def mul(input, other, *, out=None):
    plain = type(input) is Tensor  # NOTE: the sparse check costs a dense tensor nothing: this test replaces an
    if not plain and out is None:  # isinstance call of the shortcut's
        res = _on_sparse_coo(input, other, SparseCooTensor.__mul__, SparseCooTensor.__rmul__, tensors=True)
        if res is not None:
            return res
    if out is None and (plain or isinstance(input, Tensor)) and isinstance(other, Tensor) and not (
            (input._requires_grad or other._requires_grad) and _grad_state.enabled) and _shortcuts.ok:
        if input._data.dtype is not _np_bool:
            res = binary_no_grad(_np_multiply, input, other)
            if res is not None:
                return res
    try:
        res = Mul.apply(input, other)
    except TypeError as error:
        if not has_torch_function_variadic(input, other):
            raise _argument_error("mul", input, other, error) from None
        return handle_torch_function(mul, (input, other), input, other, **_given_out(out))
    return res if out is None else _out(res, out, input, other)


multiply = alias(mul, "multiply")


def div(input, other, *, rounding_mode=None, out=None):
    if type(input) is not Tensor and out is None and rounding_mode in _SPARSE_ROUNDING:  # (dense: one identity test)
        res = _on_sparse_coo(input, other, lambda s, x: s.div(x, rounding_mode=rounding_mode))
        if res is not None:
            return res
        if isinstance(input, SparseCooTensor):
            refuse_tensor_divisor(other)
    if rounding_mode is not None:
        from core.ops import math as _math  # floor/trunc division live there; the math modules import this one

        if rounding_mode in ("floor", "trunc"):
            return _out(_math.div_rounding(input, other, rounding_mode), out, input, other)
        raise ValueError("div expected rounding_mode to be one of None, 'trunc', or 'floor' "
                         f"but found '{rounding_mode}'")
    try:
        return _out(Div.apply(input, other), out, input, other)
    except TypeError as error:
        if not has_torch_function_variadic(input, other):
            raise _argument_error("div", input, other, error) from None
        return handle_torch_function(div, (input, other), input, other, **_given_out(out))


divide, true_divide = alias(div, "divide"), alias(div, "true_divide")


def neg(input, *, out=None):
    if type(input) is not Tensor and out is None and isinstance(input, SparseCooTensor):  # (dense: one identity test)
        return input.__neg__()
    try:
        return _out(Neg.apply(input), out, input)
    except AttributeError:
        if not has_torch_function_unary(input):
            raise
        return handle_torch_function(neg, (input,), input, **_given_out(out))


negative = alias(neg, "negative")


_SPARSE_ROUNDING = (None, "floor", "trunc")


def _on_sparse_coo(input, other, op, rop=None, tensors: bool = False):
    """``torch.mul(s, 2)``, ``torch.mul(2, s)``, ``torch.div(s, t0)`` of a COO tensor and a scalar factor (a number
    or a 0-d dense tensor): ``op(s, factor)`` (``rop`` with the factor first), the COO tensor's own operator, a
    sparse result with torch's node; None for the dense op. ``tensors``: ``op`` takes any tensor ``other`` too
    (``torch.mul(s, dense)``: the operator picks the sparse product or the dense op)."""
    if isinstance(input, SparseCooTensor):
        return op(input, other) if is_scalar_factor(other) or (tensors and isinstance(other, Tensor)) else None
    if rop is not None and isinstance(other, SparseCooTensor) and is_scalar_factor(input):
        return rop(other, input)
    return None


def _out(result, out, *inputs):
    """Write an elementwise op's ``result`` into ``out=``: refused as torch refuses it when ``out`` takes part of
    the memory of one of the op's ``inputs`` (``torch.add(x[:-1], 1, out=x[1:])``; all of it is fine)."""
    if out is None:
        return result
    from core.ops.inplace import copy_  # inplace imports this module

    if isinstance(out, Tensor):
        for src in inputs:
            check_no_partial_overlap(out, src)
    if isinstance(result, Tensor) and result.requires_grad or (  # recorded: an input requires grad (or out does:
            isinstance(out, Tensor) and out.requires_grad and _grad_state.enabled):  # torch's check comes first)
        raise RuntimeError(f"{_out_op_name()}(): functions with out=... arguments don't support automatic "
                           "differentiation, but one of the arguments requires grad.")

    if isinstance(out, Tensor) and isinstance(result, Tensor):
        _check_cast(result.dtype, out.dtype)  # "result type Float can't be cast to the desired output type Long"
    if out.shape != result.shape:
        if isinstance(out, Tensor) and out.numel():
            from core.ops.out_arg import resize_warning  # (out_arg imports this module)

            resize_warning(out, result.shape)
        out.resize_(result.shape) if hasattr(out, "resize_") else None
    copy_(out, result)
    return out


def _out_op_name() -> str:
    """The public op that was given ``out=`` (the caller of ``_out``; a factory-made op keeps its ``name``)."""
    frame = sys._getframe(2)
    while frame.f_back is not None and frame.f_code.co_name.startswith("_"):  # helpers (_out, _cat...)
        frame = frame.f_back
    name = frame.f_code.co_name
    return frame.f_locals.get("name", name) if name == "op" else name


# ----- in-place forms ------------------------------------------------------------------------

def check_inplace(self: Tensor, overlap: bool = True) -> None:
    """Refuse what PyTorch refuses before any data is written (``overlap=False``: zero_/fill_ may
    write a tensor whose elements share memory, as PyTorch lets them)."""
    if _grad_state.enabled:  # recording (inside inference mode nothing records, even under enable_grad)
        if self._creation is not None:  # a multi-output or no-grad view (PyTorch checks it first)
            check_view_write(self)
        if self.grad_fn is None and self._requires_grad:
            raise RuntimeError("a leaf Variable that requires grad is being used in an in-place operation.")
        base = self._base
        if base is not None and base.grad_fn is None and self._requires_grad:  # (PyTorch: even if the base no
            # longer requires grad, a view that does, of a leaf, is refused)
            raise RuntimeError("a view of a leaf Variable that requires grad is being used in an in-place operation.")
    arr = self._data
    if type(arr) is MetaArray or arr.size == 0:  # no memory at all, or no element: nothing overlaps (an empty
        return  # array from NumPy has strides (0, 0, ...), which PyTorch's empty tensors keep too)
    for size, stride in zip(arr.shape, arr.strides if overlap else ()):
        if stride == 0 and size > 1:
            raise RuntimeError("unsupported operation: more than one element of the written-to tensor refers "
                               "to a single memory location. Please clone() the tensor before performing the "
                               "operation.")


def check_no_partial_overlap(self: Tensor, src, same_is_fine: bool = True) -> None:
    """PyTorch's ``assert_no_partial_overlap`` between a written tensor and an input: refuse when the two take part
    of the same memory (``x[1:] += x[:-1]``, ``x.add_(x.t())``, ``x.copy_(x.t())``). As torch, only tensors that are
    each non-overlapping and dense are compared (others are too hard to tell), and the very same memory with the
    same strides is fine, but where ``same_is_fine=False`` (``assert_no_overlap``: index_copy_, index_add_...)."""
    if not isinstance(src, Tensor) or src._root is not self._root or (src is self and same_is_fine):
        return
    a, b = self._data, src._data
    if a.size == 0 or b.size == 0 or type(a) is MetaArray or type(b) is MetaArray:
        return
    sa, sb = self.stride(), src.stride()
    if not (_non_overlapping_and_dense(a.shape, sa) and _non_overlapping_and_dense(b.shape, sb)):
        return
    pa, pb = self.data_ptr(), src.data_ptr()
    ea, eb = pa + a.size * a.itemsize, pb + b.size * b.itemsize
    if (pa, ea) == (pb, eb) and sa == sb and same_is_fine:
        return
    if pa < eb and pb < ea:
        raise RuntimeError("unsupported operation: some elements of the input tensor and the written-to tensor "
                           "refer to a single memory location. Please clone() the tensor before performing the "
                           "operation.")


def _check_cast(result: _dtype.dtype, out: _dtype.dtype) -> None:
    if not _dtype.can_cast(result, out):
        raise RuntimeError(f"result type {_TYPE_NAMES[result.name]} can't be cast to the desired output "
                           f"type {_TYPE_NAMES[out.name]}")


_TYPE_NAMES = _dtype.SCALAR_NAMES


# the in-place forms, re-exported (defined after the primitives they import from here)
from core.ops.elementwise_inplace import (  # noqa: E402, F401
    AddInplace,
    DivInplace,
    MulInplace,
    SubInplace,
    _inplace_class,
    _InplaceBinary,
    add_,
    div_,
    inplace_binary,
    mul_,
    sub_,
    write_inplace,
)
