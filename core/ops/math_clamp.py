"""clamp, clip, clamp_min and clamp_max (split from ``math_binary``, which still exports them): by numbers or by
tensors, with PyTorch's argument errors, dtype checks, tie rules (a bound equal to the input keeps the input, so
``-0.`` clamped at ``0.`` stays ``-0.``) and gradient masks (inclusive bounds; tensor bounds take PyTorch's
``clamp_backward_min_max``)."""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._arg_types import require_tensor_input, tp_name
from core._from_data import check_scalar_fits
from core._tensor import Tensor
from core.autograd.function import Function
from core.ops._binary_operands import _result, _shape
from core.ops._saved_attrs import kept
from core.ops._util import broadcast_shapes, check_same_device, operand_arrays, xp_of
from core.ops.comparison import ge, gt, le, lt, where
from core.ops.complex_ops import refuse_complex
from core.ops.elementwise import _out
from core.overrides import _given_out, handle_torch_function, has_torch_function_unary

__all__ = ["clamp", "clip", "clamp_min", "clamp_max"]


def _bounds_dtype(a, lo, hi) -> _dtype.dtype:
    return _dtype.result_type(a, *(v for v in (lo, hi) if v is not None))


def _refuse_bool_clamp(lo, hi) -> None:
    """PyTorch's clamp kernels have no bool version; only a lone tensor bound (``maximum``/``minimum``) takes one."""
    tensors = isinstance(lo, Tensor) + isinstance(hi, Tensor)
    if lo is not None and hi is not None:
        name = "clamp_cpu" if tensors == 2 else "clamp_scalar_cpu"
    elif tensors:
        return
    else:
        name = "clamp_min_scalar_cpu" if lo is not None else "clamp_max_scalar_cpu"
    raise NotImplementedError(f'"{name}" not implemented for \'Bool\'')


def _clamp_arrays(a, lo, hi):
    dt = _bounds_dtype(a, lo, hi)
    if dt is _dtype.bool:
        _refuse_bool_clamp(lo, hi)
    for bound in (lo, hi):  # a number bound must fit the result dtype (c10's overflow error: clamp(min=1e300))
        if bound is not None and not isinstance(bound, Tensor) and not dt.is_complex:
            check_scalar_fits(bound, dt)
    shapes = [_shape(v) for v in (a, lo, hi) if v is not None]
    broadcast_shapes(*shapes)
    check_same_device(a, lo, hi)
    x, _, _ = operand_arrays(a, a, dt)
    xp = xp_of(x)
    bounds = [operand_arrays(v, a, dt)[0] for v in (lo, hi) if v is not None]
    res = x
    if _clips(x, lo, hi):  # (NumPy's clip: maximum then minimum in one pass, the same bits)
        with np.errstate(all="ignore"):
            return _result(np.clip(x, bounds[0], bounds[1]), dt, x, *bounds)
    with np.errstate(all="ignore"):
        if lo is not None:
            res = _keep_ties(xp, res, xp.maximum(res, bounds[0]), lo)
        if hi is not None:
            res = _keep_ties(xp, res, xp.minimum(res, bounds[-1]), hi)
    return _result(res, dt, x, *bounds)


def _clips(x, lo, hi) -> bool:
    """Both bounds numbers other than 0 (no ties to keep) and NaN (whose payload clip gives where x is NaN too) on a
    float32/float64 NumPy array: ``np.clip``'s one pass gives ``minimum(maximum(x, lo), hi)``'s bits."""
    return (type(x) is np.ndarray and x.dtype in (np.float32, np.float64) and lo is not None and hi is not None
            and not isinstance(lo, Tensor) and not isinstance(hi, Tensor) and lo != 0 and hi != 0
            and lo == lo and hi == hi)


def _keep_ties(xp, before, after, bound):
    """PyTorch's clamp keeps the input where it equals a bound, so ``-0.`` clamped at ``0.`` stays ``-0.``
    (NumPy's maximum may give the bound's zero); only a zero bound of a float dtype can tie with another value."""
    if after.dtype.kind != "f" or (not isinstance(bound, Tensor) and bound != 0):
        return after
    return xp.where(after == before, before, after)  # (self, min, max: TensorIterator's operand order)


class Clamp(Function):
    """Clamp by numbers: gradient passes where ``min <= x <= max`` (inclusive)."""

    node_name = "ClampBackward1"
    saved_names = ("self",)
    _saved_min, _saved_max = kept("bounds", 0), kept("bounds", 1)

    @staticmethod
    def forward(ctx, a, lo=None, hi=None):
        ctx.bounds = (lo, hi)
        ctx.save_for_backward(a)
        return _clamp_arrays(a, lo, hi)

    @staticmethod
    def backward(ctx, g):
        (x,) = ctx._unpacked
        lo, hi = ctx.bounds
        keep = ge(x, lo) if lo is not None else None
        if hi is not None:
            keep = le(x, hi) if keep is None else keep & le(x, hi)
        return (where(keep, g, 0),) + (None,) * (len(ctx.needs_input_grad) - 1)

    @staticmethod
    def jvp(ctx, t, *bounds):
        x = ctx.inputs[0]
        lo, hi = ctx.bounds
        keep = ge(x, lo) if lo is not None else None
        if hi is not None:
            keep = le(x, hi) if keep is None else keep & le(x, hi)
        return where(keep, t, 0)  # NOTE: PyTorch's clamp jvp: the tangent where x lies within the bounds


class ClampMin(Clamp):
    node_name = "ClampMinBackward0"
    _saved_max = None


class ClampMax(Clamp):
    node_name = "ClampMaxBackward0"
    _saved_min = None


class ClampTensor(Function):
    """Clamp by tensors (PyTorch's clamp_backward_min_max masks)."""

    node_name = "ClampBackward0"
    saved_names = ("self", "min", "max")

    @staticmethod
    def forward(ctx, a, lo, hi):
        ctx.save_for_backward(a, lo, hi)
        return _clamp_arrays(a, lo, hi)

    @staticmethod
    def backward(ctx, g):
        x, lo, hi = ctx._unpacked
        need = ctx.needs_input_grad
        gx = glo = ghi = None
        if lo is not None and hi is not None:
            gx = where(ge(x, lo) & le(x, hi), g, 0) if need[0] else None
            glo = where(lt(x, lo) & lt(lo, hi), g, 0) if need[1] else None
            ghi = where(gt(x, hi) | gt(lo, hi), g, 0) if need[2] else None
        elif lo is not None:
            gx = where(ge(x, lo), g, 0) if need[0] else None
            glo = where(lt(x, lo), g, 0) if need[1] else None
        else:
            gx = where(le(x, hi), g, 0) if need[0] else None
            ghi = where(gt(x, hi), g, 0) if need[2] else None
        return gx, glo, ghi


class ClampMinTensor(ClampTensor):
    node_name = "ClampMinBackward1"
    saved_names = ("self", "min")
    edgeless_inputs = (2,)  # (the absent max: torch's node has two edges)


class ClampMaxTensor(ClampTensor):
    node_name = "ClampMaxBackward1"
    saved_names = ("self", "", "max")
    edgeless_inputs = (1,)  # (the absent min)


def check_bounds(name, lo, hi):
    """PyTorch's clamp takes two numbers or two tensors (or None), never one of each."""
    if (lo is not None and not isinstance(lo, Tensor)) or (hi is not None and not isinstance(hi, Tensor)):
        refuse_bounds(name, lo, hi, always=True)


def refuse_bounds(name, lo, hi, always=False) -> None:
    """PyTorch's parser error for bounds neither overload of clamp takes (a str, a list; with ``always``, any mix
    the caller found): both overloads listed, the bounds given named by type (a trailing None is no bound given).
    A method's and a keyword's form come from ``method_args.translating`` on the way out."""
    bounds = [lo, hi] if hi is not None else [lo]
    if not always and all(v is None or isinstance(v, (Tensor, bool, int, float, complex, np.generic)) for v in bounds):
        return
    got = ", ".join("Tensor" if isinstance(v, Tensor) else tp_name(v) for v in bounds)
    raise TypeError(f"{name}() received an invalid combination of arguments - got (Tensor, {got}), but expected one "
                    "of:\n" + "\n".join(_CLAMP_OVERLOADS) + "\n")


def number_bounds(lo, hi):
    """The bounds, a 0-d tensor read as a number when the other bound is a number (PyTorch's argument parser
    takes a 0-d tensor for a Number, so ``clamp(torch.tensor(0.), 1)`` is the numbers overload)."""
    if lo is not None and hi is not None and isinstance(lo, Tensor) != isinstance(hi, Tensor):
        lo, hi = (v.item() if isinstance(v, Tensor) and not v._data.ndim else v for v in (lo, hi))
    return lo, hi


_CLAMP_OVERLOADS = (" * (Tensor input, Tensor min = None, Tensor max = None, *, Tensor out = None)",
                    " * (Tensor input, Number min = None, Number max = None, *, Tensor out = None)")


def clamp(input, min=None, max=None, *, out=None):  # PyTorch's names
    require_tensor_input("clamp", input, min if min is not None else max, _CLAMP_OVERLOADS)
    if min is None and max is None:
        raise RuntimeError("torch.clamp: At least one of 'min' or 'max' must not be None")
    lo, hi = number_bounds(min, max)
    refuse_complex(input, NotImplementedError, "clamp is not supported for complex types")
    if isinstance(lo, Tensor) or isinstance(hi, Tensor):
        check_bounds("clamp", min, max)
        return _out(ClampTensor.apply(input, lo, hi), out, input, lo, hi)
    try:
        return _out(Clamp.apply(input, lo=lo, hi=hi), out, input, lo, hi)
    except TypeError:  # NOTE: a tensor-like (MaskedTensor) takes the call only where a plain one failed
        if not has_torch_function_unary(input):
            refuse_bounds("clamp", min, max)  # (a str bound: the parser's words)
            raise
        return handle_torch_function(clamp, (input,), input, lo, hi, **_given_out(out))


def clip(input, min=None, max=None, *, out=None):
    """``clamp`` under NumPy's name (an argument error names ``clip``)."""
    try:
        return clamp(input, min, max, out=out)
    except TypeError as error:
        raise renamed(error, "clamp", "clip") from None


def renamed(error: TypeError, name: str, alias_name: str) -> TypeError:
    """``error`` raised by op ``name``, its message naming ``alias_name`` (the op the user called) instead."""
    message = str(error)
    return TypeError(alias_name + message[len(name):]) if message.startswith(name + "()") else error


def clamp_min(input, min, *, out=None):
    require_tensor_input("clamp_min", input, min, (" * (Tensor input, Tensor min, *, Tensor out = None)",
                                                   " * (Tensor input, Number min, *, Tensor out = None)"))
    if isinstance(min, Tensor):
        return _out(ClampMinTensor.apply(input, min, None), out, input, min)
    return _out(ClampMin.apply(input, lo=min), out, input, min)


def clamp_max(input, max, *, out=None):
    require_tensor_input("clamp_max", input, max, (" * (Tensor input, Tensor max, *, Tensor out = None)",
                                                   " * (Tensor input, Number max, *, Tensor out = None)"))
    if isinstance(max, Tensor):
        return _out(ClampMaxTensor.apply(input, None, max), out, input, max)
    return _out(ClampMax.apply(input, hi=max), out, input, max)
