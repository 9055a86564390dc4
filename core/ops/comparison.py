"""Comparisons, logical and bitwise ops, float classification, ``where`` and ``masked_fill``.

Comparisons promote both operands with ``torch.result_type`` and return bool; they are not
differentiable. ``where`` and ``masked_fill`` are, towards their value operands. In-place forms
write the result cast to ``self``'s dtype, as PyTorch does (``float_t.lt_(x)`` holds 0./1.).
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._alias import alias
from core._arg_types import require_one_tensor, require_tensor_input, require_tensors
from core._factories import zeros_like
from core._from_data import check_scalar_fits
from core._memory_format import laid_out_like_operands
from core._select import where as select
from core._sparse_coo_ops import sparse_function
from core._tensor import Tensor, new_tensor
from core._warn_once import warn_once
from core.autograd.function import Function
from core.ops._recorded import recorded
from core.ops._util import as_array, broadcast_shapes, check_same_device, needs_grad, operand_arrays, xp_of
from core.ops.complex_ops import refuse_complex
from core.ops.elementwise import _TYPE_NAMES, _out, check_inplace, write_inplace
from core.ops.indexing import masked_select, nonzero
from core.ops.reduction import sum as _sum
from core.overrides import handle_torch_function, has_torch_function_variadic

__all__ = ["eq", "ne", "lt", "le", "gt", "ge", "greater", "less", "greater_equal", "less_equal", "not_equal",
           "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "less_", "greater_equal_", "less_equal_",
           "not_equal_", "logical_and", "logical_or", "logical_xor", "logical_not", "logical_and_",
           "logical_or_", "logical_xor_", "logical_not_", "bitwise_and", "bitwise_or", "bitwise_xor",
           "bitwise_not", "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_", "bitwise_left_shift",
           "bitwise_right_shift", "bitwise_left_shift_", "bitwise_right_shift_", "isnan", "isinf", "isfinite",
           "isposinf", "isneginf", "isreal", "isclose", "allclose", "equal", "where", "masked_fill",
           "masked_fill_"]


def _shape(x):
    return x._data.shape if isinstance(x, Tensor) else ()


def _binary(ufunc_name, a, b, dt=None):
    """``xp.<ufunc>(a, b)`` on the operands cast to their promoted dtype, as a 0-d-safe array."""
    if not isinstance(a, Tensor) and not isinstance(b, Tensor):
        raise TypeError(f"{ufunc_name}(): argument 'input' must be Tensor, not {type(a).__name__}")
    broadcast_shapes(_shape(a), _shape(b))
    x, y, dt = operand_arrays(a, b, dt)
    xp = xp_of(x)
    with np.errstate(all="ignore"):
        res = xp.asarray(getattr(xp, ufunc_name)(x, y))
    return (res if res.ndim < 2 else laid_out_like_operands(res, x, y)), dt  # (TensorIterator's strides)


def _write(self: Tensor, res) -> Tensor:
    """Store a non-differentiable result into ``self`` (cast to its dtype) and bump its version."""
    check_inplace(self)
    out_shape = broadcast_shapes(self._data.shape, res.shape)
    if out_shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                           f"{list(out_shape)}")
    if needs_grad(self):
        return _ZeroGradInplace.apply(self, res)
    write_inplace(self, res)
    return self


class _ZeroGradInplace(Function):
    """An in-place comparison on a tensor that requires grad: the old values get zero gradient."""

    node_name = "EqBackward0"

    @staticmethod
    def forward(ctx, self, res):
        xp_of(self._data).copyto(self._data, res, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return zeros_like(g), None


def _comparison(name, ufunc_name, ordered=True):
    def check(a, b):
        if ordered:  # complex numbers have no order: PyTorch's kernel error
            for t in (a, b):
                refuse_complex(t, NotImplementedError, f'"{name}_cpu" not implemented for \'{{dtype}}\'')
            if type(b) is complex or type(a) is complex:  # (a NumPy complex scalar is read as a number)
                dt = _dtype.result_type(a, b)  # a complex number makes the comparison a complex one
                raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_dtype.SCALAR_NAMES[dt.name]}\'')

    def op(input, other, *, out=None):
        require_tensor_input(name, input, other)
        check(input, other)
        return _out(new_tensor(_binary(ufunc_name, input, other)[0]), out, input, other)

    def op_(self, other):
        check(self, other)
        return _write(self, _binary(ufunc_name, self, other)[0])

    op.__name__, op_.__name__ = name, name + "_"
    op.__doc__ = f"``torch.{name}``: elementwise, after PyTorch's type promotion; a bool tensor."
    return recorded(op), op_


eq, eq_ = _comparison("eq", "equal", ordered=False)
ne, ne_ = _comparison("ne", "not_equal", ordered=False)
lt, lt_ = _comparison("lt", "less")
le, le_ = _comparison("le", "less_equal")
gt, gt_ = _comparison("gt", "greater")
ge, ge_ = _comparison("ge", "greater_equal")
greater, greater_ = alias(gt, "greater"), alias(gt_, "greater_")  # PyTorch's aliases are functions of their own
less, less_ = alias(lt, "less"), alias(lt_, "less_")
greater_equal, greater_equal_ = alias(ge, "greater_equal"), alias(ge_, "greater_equal_")
less_equal, less_equal_ = alias(le, "less_equal"), alias(le_, "less_equal_")
not_equal, not_equal_ = alias(ne, "not_equal"), alias(ne_, "not_equal_")


def _tensor_other(name, other, position):
    if not isinstance(other, Tensor):
        raise TypeError(f"{name}(): argument 'other' (position {position}) must be Tensor, not {type(other).__name__}")


def _logical(name, ufunc_name):
    def op(input, other, *, out=None):
        require_tensors(name, input=(1, input))
        _tensor_other(name, other, 2)
        return _out(new_tensor(_binary(ufunc_name, input, other, _dtype.bool)[0]), out, input, other)

    def op_(self, other):
        _tensor_other(name + "_", other, 1)
        return _write(self, _binary(ufunc_name, self, other, _dtype.bool)[0])

    op.__name__, op_.__name__ = name, name + "_"
    return recorded(op), op_


logical_and, logical_and_ = _logical("logical_and", "logical_and")
logical_or, logical_or_ = _logical("logical_or", "logical_or")
logical_xor, logical_xor_ = _logical("logical_xor", "logical_xor")


@recorded
def logical_not(input, *, out=None):
    if type(input) is not Tensor and out is None and (res := sparse_function("logical_not", input)) is not None:
        return res  # (a COO tensor: torch's NotImplementedError)
    return _out(new_tensor(xp_of(input._data).asarray(input._data == 0)), out, input)


def logical_not_(self):
    return _write(self, self._data == 0)


def _int_operands(name, a, b):
    dt = _dtype.result_type(a, b)
    if dt.is_floating_point or dt.is_complex or (dt is _dtype.bool and name.endswith("shift")):
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_TYPE_NAMES[dt.name]}\'')
    return dt


def _inplace_int_operands(name, self, other):
    """The dtype of an in-place bitwise op: first whether its result type casts to ``self``'s (torch's
    TensorIterator checks that before the kernel's dtype), then ``_int_operands``' refusals."""
    dt = _dtype.result_type(self, other)
    if dt is not self.dtype and not _dtype.can_cast(dt, self.dtype):
        raise RuntimeError(f"result type {_TYPE_NAMES[dt.name]} can't be cast to the desired output type "
                           f"{_TYPE_NAMES[self.dtype.name]}")
    return _int_operands(name, self, other)


def _bitwise(name, ufunc_name):
    def op(input, other, *, out=None):
        result = new_tensor(_binary(ufunc_name, input, other, _int_operands(name, input, other))[0])
        return _out(result, out, input, other)

    def op_(self, other):
        return _write(self, _binary(ufunc_name, self, other, _inplace_int_operands(name, self, other))[0])

    op.__name__, op_.__name__ = name, name + "_"
    return recorded(op), op_


bitwise_and, bitwise_and_ = _bitwise("bitwise_and", "bitwise_and")
bitwise_or, bitwise_or_ = _bitwise("bitwise_or", "bitwise_or")
bitwise_xor, bitwise_xor_ = _bitwise("bitwise_xor", "bitwise_xor")


def _invert(input):
    if input.dtype.is_floating_point:
        raise NotImplementedError(f'"bitwise_not_cpu" not implemented for \'{_TYPE_NAMES[input.dtype.name]}\'')
    return xp_of(input._data).invert(input._data)


@recorded
def bitwise_not(input, *, out=None):
    if type(input) is not Tensor and out is None and (res := sparse_function("bitwise_not", input)) is not None:
        return res  # (a COO tensor: torch's NotImplementedError)
    return _out(new_tensor(xp_of(input._data).asarray(_invert(input))), out, input)


def bitwise_not_(self):
    return _write(self, _invert(self))


def _shift(name, a, b, left: bool):
    """Shifts by a negative amount or by the width or more give 0 (or -1 for a negative right shift)."""
    dt = _int_operands(name, a, b)
    broadcast_shapes(_shape(a), _shape(b))
    x, s, dt = operand_arrays(a, b, dt)
    xp = xp_of(x)
    bits = dt.itemsize * 8
    bad = (s < 0) | (s >= bits)
    safe = xp.where(bad, 0, s).astype(dt.np)
    with np.errstate(all="ignore"):
        if left:
            res = xp.where(bad, 0, xp.left_shift(x, safe))
        else:
            res = xp.where(bad, xp.where(x < 0, -1, 0), xp.right_shift(x, safe))
    res = xp.asarray(res.astype(dt.np))
    return res if res.ndim < 2 else laid_out_like_operands(res, x, s)  # (TensorIterator's strides)


@recorded
def bitwise_left_shift(input, other, *, out=None):
    require_one_tensor("bitwise_left_shift", input, other)
    return _out(new_tensor(_shift("lshift", input, other, True)), out, input, other)


@recorded
def bitwise_right_shift(input, other, *, out=None):
    require_one_tensor("bitwise_right_shift", input, other)
    return _out(new_tensor(_shift("rshift", input, other, False)), out, input, other)


def bitwise_left_shift_(self, other):
    _inplace_int_operands("lshift", self, other)
    return _write(self, _shift("lshift", self, other, True))


def bitwise_right_shift_(self, other):
    _inplace_int_operands("rshift", self, other)
    return _write(self, _shift("rshift", self, other, False))


# ----- float classification ----------------------------------------------------------------------
def _classify(input, fn_name, int_value: bool):
    if type(input) is not Tensor and (res := sparse_function(fn_name, input)) is not None:  # (dense: one identity test)
        return res  # a COO tensor's method: sparse, as torch's (isfinite: torch's NotImplementedError)
    x = input._data
    xp = xp_of(x)
    if x.dtype.kind != "f":
        return new_tensor(xp.full(x.shape, int_value, dtype=np.bool_))
    if fn_name == "isposinf":  # written out: not every backend has isposinf/isneginf
        return new_tensor(xp.asarray(x == np.inf))
    if fn_name == "isneginf":
        return new_tensor(xp.asarray(x == -np.inf))
    return new_tensor(xp.asarray(getattr(xp, fn_name)(x)))


@recorded
def isnan(input):
    return _classify(input, "isnan", False)


@recorded
def isinf(input):
    return _classify(input, "isinf", False)


@recorded
def isfinite(input):
    return _classify(input, "isfinite", True)


@recorded
def isposinf(input, *, out=None):
    return _out(_classify(input, "isposinf", False), out, input)


@recorded
def isneginf(input, *, out=None):
    return _out(_classify(input, "isneginf", False), out, input)


@recorded
def isreal(input):
    """True where the imaginary part is 0 (everywhere for a real tensor)."""
    x = input._data
    return new_tensor(x.imag == 0 if x.dtype.kind == "c" else xp_of(x).ones(x.shape, dtype=np.bool_))


# ----- closeness -----------------------------------------------------------------------------------
@recorded
def isclose(input, other, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False):
    """``|a - b| <= atol + rtol * |b|`` (or equal, or both NaN with ``equal_nan``), in a's dtype."""
    require_tensors("isclose", input=(1, input), other=(2, other))
    rtol, atol = _tolerance("isclose", "rtol", rtol), _tolerance("isclose", "atol", atol)
    if input.dtype is not other.dtype:
        raise RuntimeError(f"{_TYPE_NAMES[input.dtype.name]} did not match {_TYPE_NAMES[other.dtype.name]}")
    if rtol < 0 or atol < 0:
        raise RuntimeError(f"{'rtol' if rtol < 0 else 'atol'} must be greater than or equal to zero, "
                           f"but got {rtol if rtol < 0 else atol}")
    close, dt = _binary("equal", input, other, input.dtype)
    inexact = dt.is_floating_point or dt.is_complex  # (a complex tensor keeps its imaginary parts)
    x, y, _ = operand_arrays(input, other, dt if inexact else _dtype.get_default_dtype())
    xp = xp_of(x)
    if equal_nan and inexact:
        close = close | (xp.isnan(x) & xp.isnan(y))
    if rtol or atol:
        with np.errstate(all="ignore"):
            err = xp.abs(x - y)
            close = close | (xp.isfinite(err) & (err <= atol + xp.abs(rtol * y)))
    close = xp.asarray(close)
    return new_tensor(close if close.ndim < 2 else laid_out_like_operands(close, x, y))


def _tolerance(name, argument, value) -> float:
    """``rtol``/``atol`` as a Python float: torch's argument parser takes a 0-dim tensor for a float (e3nn's tests
    pass ``atol=torch.tensor(1e-3)``) and refuses any other tensor."""
    if isinstance(value, Tensor):
        if value.dim() != 0:
            raise TypeError(f"{name}(): argument '{argument}' must be float, not Tensor")
        return float(value.item().real if value.is_complex() else value.item())
    return value


def allclose(input, other, rtol: float = 1e-05, atol: float = 1e-08, equal_nan: bool = False) -> bool:
    require_tensors("allclose", input=(1, input), other=(2, other))
    rtol, atol = _tolerance("allclose", "rtol", rtol), _tolerance("allclose", "atol", atol)
    return bool(isclose(input, other, rtol, atol, equal_nan)._data.all())


def equal(input, other) -> bool:
    """True when both have the same shape and equal elements (after promotion)."""
    require_tensors("equal", input=(1, input), other=(2, other))
    if input._data.shape != other._data.shape:
        return False
    return bool(_binary("equal", input, other)[0].all())


# ----- where / masked_fill ---------------------------------------------------------------------------
class Where(Function):
    """``where(cond, a, b)``: the condition is no input of the node (two edges, as in PyTorch)."""

    node_name = "WhereBackward0"
    saved_names = ("condition",)

    @staticmethod
    def forward(ctx, a, b, *, cond):
        broadcast_shapes(cond._data.shape, _shape(a), _shape(b))
        check_same_device(cond, a, b)
        dt = _dtype.result_type(a, b)
        like = next((t._data for t in (a, b) if isinstance(t, Tensor) and t._data.ndim), cond._data)
        x, y, c = as_array(a, dt, like), as_array(b, dt, like), as_array(cond, _dtype.bool, like)
        ctx.save_for_backward(cond)
        xp = xp_of(like)
        res = xp.asarray((select if xp is np else xp.where)(c, x, y))  # (branch-free on a random mask, same bits)
        return res if res.ndim < 2 else laid_out_like_operands(res, c, x, y)  # (condition, self, other: torch's order)

    @staticmethod
    def backward(ctx, g):
        (cond,) = ctx._unpacked
        ga = where(cond, g, 0) if ctx.needs_input_grad[0] else None
        gb = where(cond, 0, g) if ctx.needs_input_grad[1] else None
        return ga, gb

    @staticmethod
    def jvp(ctx, ta, tb):
        return where(ctx.kw["cond"], 0 if ta is None else ta, 0 if tb is None else tb)


def where(condition, input=None, other=None, *, out=None):
    """``condition ? input : other`` with promotion and broadcasting; ``where(c)`` is ``nonzero(c, as_tuple=True)``."""
    if input is None and other is None:
        return nonzero(condition, as_tuple=True)
    if condition.dtype is _dtype.uint8:  # NOTE: deprecated, still taken (pytorch-crf 0.7.2 masks with uint8)
        warn_once("where uint8", "where received a uint8 condition tensor. This behavior is deprecated and will be "
                  "removed in a future version of PyTorch. Use a boolean condition instead.")
        condition = condition.bool()
    elif condition.dtype is not _dtype.bool:
        raise RuntimeError("where expected condition to be a boolean tensor, but got a tensor with dtype "
                           f"{_TYPE_NAMES[condition.dtype.name]}")
    _numbers_fit(input, other)
    try:
        return _out(Where.apply(input, other, cond=condition), out, condition, input, other)
    except TypeError:  # NOTE: a tensor-like (MaskedTensor) takes the call only where plain arguments failed
        if not has_torch_function_variadic(input, other):
            raise
        return handle_torch_function(where, (input, other), condition, input, other)


def _numbers_fit(input, other) -> None:
    """A Python number beside a tensor becomes a 0-d tensor of the result dtype in PyTorch, range-checked as c10
    checks it (``where(c, x, 1e300)`` of float32: a RuntimeError, not inf; the half types take inf, as in torch)."""
    numbers = [v for v in (input, other) if isinstance(v, (int, float)) and not isinstance(v, bool)]
    if any(isinstance(v, int) and not -2**63 <= v < 2**64 for v in numbers):
        raise OverflowError("int too big to convert")  # (PyTorch's argument parser: an int64 or a uint64)
    if numbers and all(isinstance(v, (Tensor, int, float, bool)) for v in (input, other)):
        dt = _dtype.result_type(input, other)
        if not (dt is _dtype.float16 or dt is _dtype.bfloat16):
            for v in numbers:
                check_scalar_fits(v, dt)


def _check_mask(mask, value):
    if mask.dtype is not _dtype.bool:
        from core.ops._linalg_checks import _C_NAMES  # torch names the mask's C type (``unsigned char`` for uint8)

        raise RuntimeError("masked_fill_ only supports boolean masks, but got mask with dtype "
                           f"{_C_NAMES.get(mask.dtype.name, mask.dtype.name)}")
    if isinstance(value, Tensor) and value._data.ndim:
        raise RuntimeError("masked_fill_ only supports a 0-dimensional value tensor, but got tensor with "
                           f"{value._data.ndim} dimension(s).")


class MaskedFill(Function):
    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)
    edgeless_inputs = (1, 2)  # the mask and the number

    @classmethod
    def forward(cls, ctx, a, mask, value):
        shape = broadcast_shapes(a._data.shape, mask._data.shape)
        x = a._data
        xp = xp_of(x)
        v = value._data if isinstance(value, Tensor) else value
        fill = xp.asarray(v).astype(x.dtype) if isinstance(value, Tensor) else _fill_scalar(v, x.dtype, xp)
        ctx.save_for_backward(mask)
        # NOTE: PyTorch's masked_fill clones into a C-contiguous tensor, then fills: a transposed input gives a
        # contiguous result (ascontiguousarray would make a 0-d result 1-d)
        res = xp.where(xp.broadcast_to(mask._data, shape), fill, x)
        return xp.ascontiguousarray(res) if res.ndim else res

    @staticmethod
    def backward(ctx, g):
        (mask,) = ctx._unpacked
        ga = masked_fill(g, mask, 0) if ctx.needs_input_grad[0] else None  # (torch's grad.masked_fill(mask, 0))
        if len(ctx.needs_input_grad) > 2 and ctx.needs_input_grad[2]:
            # NOTE: FunctionsManual's masked_fill_backward, grad.masked_select(mask).sum(): its graph (SumBackward0 on
            # MaskedSelectBackward0) and its sum's order over the selected elements (a where's 0s summed in place
            # changed float32 and float64 bits)
            return ga, None, _sum(masked_select(g, mask))
        return ga, None, None


class MaskedFillTensor(MaskedFill):
    node_name = "MaskedFillBackward1"
    edgeless_inputs = (1,)  # the mask


def _fill_scalar(v, np_dtype, xp):
    with np.errstate(all="ignore"):
        try:
            return xp.asarray(v, dtype=np_dtype)
        except (OverflowError, ValueError):
            return xp.asarray(np.asarray(v).astype(np_dtype))


def _check_fill_number(input, value) -> None:
    """A number value must fit the input's dtype, as fill_'s (torch's RuntimeError: -1e9 into float16, 300 into
    uint8, a complex number into a real tensor); a 0-d tensor's too (torch reads its number: 1e30 into int64)."""
    if isinstance(value, Tensor) and isinstance(input, Tensor) and value.ndim == 0 and value.device.type != "meta":
        value = value.item()
    if not isinstance(value, Tensor) and isinstance(input, Tensor) and isinstance(value, (int, float, complex)):
        check_scalar_fits(value, input.dtype)


def masked_fill(input, mask, value):
    _check_mask(mask, value)
    check_same_device(input, mask)
    _check_fill_number(input, value)
    broadcast_shapes(mask._data.shape, input._data.shape)  # torch expands (mask, self): its message's "a" is the mask
    cls = MaskedFillTensor if isinstance(value, Tensor) else MaskedFill
    return cls.apply(input, mask, value)


class MaskedFillInplace(Function):
    node_name = "MaskedFillBackward0"
    saved_names = ("mask",)
    writes_self = True  # (the profiler's name: aten::masked_fill_)
    edgeless_inputs = (1, 2)

    @staticmethod
    def forward(ctx, self, mask, value, outplace=MaskedFill):
        res = outplace.forward(ctx, self, mask, value)
        xp_of(self._data).copyto(self._data, res, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @staticmethod
    def backward(ctx, g):
        return MaskedFill.backward(ctx, g)


class MaskedFillTensorInplace(MaskedFillInplace):
    node_name = "MaskedFillBackward1"
    edgeless_inputs = (1,)


def masked_fill_(self, mask, value):
    _check_mask(mask, value)
    check_inplace(self)
    _check_fill_number(self, value)
    shape = broadcast_shapes(self._data.shape, mask._data.shape)
    if shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape {list(shape)}")
    tensor_value = isinstance(value, Tensor)
    if needs_grad(self, value):
        cls = MaskedFillTensorInplace if tensor_value else MaskedFillInplace
        return cls.apply(self, mask, value, outplace=MaskedFillTensor if tensor_value else MaskedFill)
    ctx = MaskedFill._backward_cls()
    write_inplace(self, MaskedFill.forward(ctx, self, mask, value))
    return self
