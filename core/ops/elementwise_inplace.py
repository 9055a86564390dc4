"""The in-place forms of the elementwise arithmetic: ``add_``, ``sub_``, ``mul_``, ``div_`` (``x += y``...).

Apart from ``core.ops.elementwise`` (the out-of-place primitives and the checks an in-place write or ``out=``
needs: ``check_inplace``, ``check_no_partial_overlap``) because an in-place op is a different recording: the
out-of-place primitive's backward with ``self`` marked dirty, the result cast and written into ``self``'s memory
and its version bumped (``write_inplace``). ``elementwise`` re-exports these names.
"""

from __future__ import annotations

import numpy as np

from core import _dtype
from core._scalar_fit import check_scalar_fits
from core._tensor import Tensor
from core.autograd import grad_mode
from core.autograd.function import Function, capturing, note_untracked
from core.autograd.function import _modified_message as modified_message
from core.ops._util import broadcast_shapes, check_same_device, needs_grad, xp_of
from core.ops.deprecated_overloads import NOT_GIVEN, scalar_first
from core.ops.elementwise import (
    Add,
    Div,
    Mul,
    Sub,
    _check_cast,
    _float_result,
    _is_grad_enabled,
    _shape_of,
    check_inplace,
    check_no_partial_overlap,
)
from core.ops.views import clone

__all__ = ["add_", "sub_", "mul_", "div_", "write_inplace", "inplace_binary"]


def write_inplace(self: Tensor, result_arr) -> None:
    """Store ``result_arr`` into ``self``'s memory (casting like PyTorch) and bump the version."""
    note_untracked("it changes a tensor in place outside an op")
    xp = xp_of(self._data)
    try:
        xp.copyto(self._data, result_arr, casting="unsafe")
    except ValueError:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                           f"{list(np.broadcast_shapes(self._data.shape, np.shape(result_arr)))}") from None
    self._vc[0] += 1


class _InplaceBinary(Function):
    """``self.op_(other)``: the out-of-place primitive's backward, with ``self`` marked dirty."""

    outplace = None
    writes_self = True  # (the profiler's name: aten::add_)

    @classmethod
    def forward(cls, ctx, self, other, **extra):
        res = cls.outplace.forward(ctx, self, other, **extra)
        saved = ctx._saved
        if saved is not None and isinstance(other, Tensor) and other._vc is self._vc and any(s is other for s in saved):
            # NOTE: other is self (or a view of it): PyTorch saves it as it is, so its backward sees this write
            ctx.stale_operand = (other, self._vc[0])
        if saved is not None and any(s is self for s in saved):
            # NOTE: the old value of self is needed: save a clone recorded on self's old history
            # (grad mode on), so double backward still reaches what self depended on, as PyTorch.
            with grad_mode.enable_grad():
                old = clone(self)
            ctx._saved = tuple(old if s is self else s for s in saved)
        write = res if not isinstance(res, Tensor) else res._data
        xp_of(self._data).copyto(self._data, write, casting="unsafe")
        ctx.mark_dirty(self)
        return self

    @classmethod
    def backward(cls, ctx, g):
        stale = getattr(ctx, "stale_operand", None)
        if stale is not None:
            raise RuntimeError(modified_message(ctx, stale[0], stale[1], -1))
        return cls.outplace.backward(ctx, g)


def _inplace_class(outplace, name):
    return type(name, (_InplaceBinary,), {"outplace": outplace, "node_name": outplace.node_name})


AddInplace = _inplace_class(Add, "AddInplace")
SubInplace = _inplace_class(Sub, "SubInplace")
MulInplace = _inplace_class(Mul, "MulInplace")
DivInplace = _inplace_class(Div, "DivInplace")


def inplace_binary(cls, self: Tensor, other, result_dtype, **extra) -> Tensor:
    """Shared driver of ``add_``/``mul_``/...: checks, then records or writes directly."""
    check_inplace(self)
    check_same_device(self, other)
    check_no_partial_overlap(self, other)
    _check_cast(result_dtype, self.dtype)
    out_shape = broadcast_shapes(self._data.shape, _shape_of(other))
    if out_shape != self._data.shape:
        raise RuntimeError(f"output with shape {list(self.shape)} doesn't match the broadcast shape "
                           f"{list(out_shape)}")
    if needs_grad(self, other) or capturing():  # the recorded route: core.compile's capture sees the write
        return cls.apply(self, other, **extra)
    ctx = cls._backward_cls()
    prev = _is_grad_enabled()
    grad_mode._set(False)
    try:
        res = cls.outplace.forward(ctx, self, other, **extra)
    finally:
        grad_mode._set(prev)
    write_inplace(self, res)
    return self


def add_(self, other, deprecated_other=NOT_GIVEN, *, alpha=1):
    if deprecated_other is not NOT_GIVEN:  # add_(alpha, other): ``p.data.add_(-lr, p.grad.data)``
        other, alpha = scalar_first("add_", other, deprecated_other, keyword="alpha", keyword_value=alpha)
    dt = _dtype.result_type(self, other)
    if type(alpha) is not int or alpha != 1:
        check_scalar_fits(alpha, dt)
    return inplace_binary(AddInplace, self, other, dt, alpha=alpha)


def sub_(self, other, deprecated_other=NOT_GIVEN, *, alpha=1):
    if deprecated_other is not NOT_GIVEN:  # sub_(alpha, other)
        other, alpha = scalar_first("sub_", other, deprecated_other, keyword="alpha", keyword_value=alpha)
    dt = _dtype.result_type(self, other)
    if type(alpha) is not int or alpha != 1:
        check_scalar_fits(alpha, dt)
    return inplace_binary(SubInplace, self, other, dt, alpha=alpha)


def mul_(self, other):
    return inplace_binary(MulInplace, self, other, _dtype.result_type(self, other))


def div_(self, other, *, rounding_mode=None):
    if rounding_mode is not None:
        from core.ops import math as _math  # the math modules import this one

        if rounding_mode not in ("floor", "trunc"):
            raise ValueError("div_ expected rounding_mode to be one of None, 'trunc', or 'floor' but found "
                             f"'{rounding_mode}'")
        return _math.div_rounding_(self, other, rounding_mode)
    return inplace_binary(DivInplace, self, other, _float_result(self, other))
