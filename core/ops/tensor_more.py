"""Tensor methods and top-level ops composed from other ops: ``renorm``, ``sum_to_size``, legacy ``new``,
``new_empty_strided``, the in-place cumulative ops, ``logaddexp2``, ``diagflat``, ``gcd``/``lcm``, ``ldexp``
and the no-op conjugation queries of a real-only library.

Each is built from differentiable ops, so gradients follow without a backward of its own.
"""

from __future__ import annotations

import math

import numpy as np

from core import _dtype, _exp2, _factories
from core._arg_types import require_tensors
from core._tensor import Size, Tensor
from core.autograd.function import Function
from core.ops import (
    comparison,
    cumulative,
    elementwise,
    inplace,
    linalg_more,
    math_binary,
    math_unary,
    rearranging,
    reduction,
    views,
)
from core.ops._recorded import recorded
from core.ops._strided import relaid_row_major
from core.ops.math_unary import not_implemented
from core.ops.scalar_forms import add_s, mul_s

__all__ = ["renorm", "logaddexp2", "diagflat", "gcd", "lcm", "ldexp", "is_same_size", "is_neg",
           "resolve_neg"]


def renorm(input, p, dim, maxnorm):
    """Rescale each slice along ``dim`` whose ``p``-norm exceeds ``maxnorm`` to norm ``maxnorm``."""
    if input.ndim < 2:
        raise RuntimeError(f"renorm: input needs at least 2 dimensions, got {input.ndim} dimensions")
    if p <= 0:
        raise RuntimeError("renorm: non-positive-norm not supported")
    if maxnorm < 0:
        raise RuntimeError(f"renorm: expected maxnorm to be >= 0 but got {maxnorm:g}")
    dim = dim % input.ndim
    others = tuple(d for d in range(input.ndim) if d != dim)
    # NOTE: the norm runs in float32 for half inputs (PyTorch's accumulate type); the factor is cast back
    acc = _dtype.float32 if input.dtype == _dtype.float16 else None
    norm = linalg_more.vector_norm(input, p, others, True, dtype=acc)
    factor = comparison.where(norm > maxnorm, elementwise.div(maxnorm, elementwise.add(norm, 1e-7)), 1.0)
    from core.nn._fused_names import fused_name  # (core.nn builds on the ops)

    # NOTE: torch's renorm writes into a contiguous output whatever the input's layout (its meta gives no strides)
    return fused_name(relaid_row_major(elementwise.mul(input, factor.to(input.dtype))), "RenormBackward0")


def renorm_(input, p, dim, maxnorm):
    """In-place ``renorm`` (as used on weights under ``no_grad``)."""
    return inplace.copy_(input, renorm(input, p, dim, maxnorm))


def sum_to_size(self, *size):
    """Sum ``self`` down to ``size`` (which ``self`` must be expandable from): the reverse of ``expand``."""
    if len(size) == 1 and isinstance(size[0], (tuple, list, Size)):
        size = tuple(size[0])
    size = tuple(int(s) for s in size)
    shape = tuple(self.shape)
    lead = len(shape) - len(size)
    if lead < 0 or any(s != 1 and s != g for s, g in zip(size, shape[lead:])):
        raise RuntimeError(f"size {{{list(size)}}} is not expandable to size {{{list(shape)}}}.")
    if not size:  # (PyTorch's sum_to: an empty size is a full sum, so a bool gives int64)
        return reduction.sum(self)
    if size == shape:
        return self
    dims = list(range(lead)) + [lead + i for i, s in enumerate(size) if s == 1 and shape[lead + i] != 1]
    out = reduction.sum(self, dims, keepdim=True)
    return views.view(out, size) if lead else out


def new(self, *args, device=None, **kwargs):
    """Legacy ``x.new(...)``: a tensor of ``self``'s dtype and device (empty, of a size, or from data).

    ``x.new(other)`` aliases ``other``, which must have ``self``'s dtype."""
    if kwargs:
        raise TypeError(f"new() received an invalid combination of arguments - got an unexpected keyword argument "
                        f"'{next(iter(kwargs))}'")
    device = device if device is not None else self.device
    if len(args) == 1 and isinstance(args[0], Tensor):
        if args[0].dtype != self.dtype:
            raise TypeError(f"expected {self.dtype} (got {args[0].dtype})")
        return args[0].detach()
    if len(args) == 1 and not isinstance(args[0], (int, Size)):
        return _factories.tensor(args[0], dtype=self.dtype, device=device)
    return _factories.empty(*(args or (0,)), dtype=self.dtype, device=device)


def new_empty_strided(self, size, stride, *, dtype=None, device=None, requires_grad=False, **kwargs):
    """An uninitialised tensor with the given size and strides, in ``self``'s dtype and device by default."""
    if "out" in kwargs:
        raise TypeError("new_empty_strided() got an unexpected keyword argument 'out'")
    return _factories.empty_strided(size, stride, dtype=dtype or self.dtype, device=device or self.device,
                                    requires_grad=requires_grad)


def cumsum_(self, dim, *, dtype=None):
    """In-place ``cumsum`` (in ``self``'s dtype: a bool tensor has no kernel)."""
    return inplace.copy_(self, cumulative.cumsum(self, dim, dtype=self.dtype if dtype is None else dtype))


def cumprod_(self, dim, *, dtype=None):
    """In-place ``cumprod`` (in ``self``'s dtype: a bool tensor has no kernel)."""
    return inplace.copy_(self, cumulative.cumprod(self, dim, dtype=self.dtype if dtype is None else dtype))


_INV_LN2 = 1.0 / math.log(2.0)


def _logaddexp2_value(input, other):
    """``log2(2**input + 2**other)``, computed stably around the larger argument (half types in float32, rounded
    once, as PyTorch's kernel)."""
    dt = _dtype.result_type(input, other)
    if dt is _dtype.float16 or dt is _dtype.bfloat16:
        return _logaddexp2_value(input.to(_dtype.float32), other.to(_dtype.float32)).to(dt)
    if dt is _dtype.float64 and type(input._data) is np.ndarray and type(other._data) is np.ndarray:
        # NOTE: the double kernel's SLEEF exp2 and log1p (its vector steps) or glibc's (its tail), fused at the end;
        # NumPy's exp2 and log1p differed from it in the last bit of ~12% of the elements
        return Tensor._wrap(_exp2.logaddexp2_double(*(t._data.astype(np.float64, copy=False) for t in (input, other))))
    big = math_binary.maximum(input, other)
    small = math_binary.minimum(input, other)
    # NOTE: the kernel's m + log1p(exp2(-|a - b|)) * inv_log_2, a product by 1 / ln 2; PyTorch's float32 CPU
    # build contracts it to one fused multiply-add (rounded once: an exact float64 product plus m, then float32)
    tail = math_unary.log1p(math_unary.exp2(elementwise.sub(small, big)))
    if dt is _dtype.float32 and type(tail._data) is np.ndarray:
        fused = tail._data.astype(np.float64) * float(np.float32(_INV_LN2)) + big._data.astype(np.float64)
        out = Tensor._wrap(fused.astype(np.float32))
    else:
        out = elementwise.add(big, elementwise.mul(tail, _INV_LN2))
    # NOTE: equal infinities give themselves (inf - inf would be nan)
    return comparison.where(comparison.isinf(big) & comparison.eq(big, small), big, out)


class Logaddexp2(Function):
    """``logaddexp2`` as one node, PyTorch's ``Logaddexp2Backward0``, with derivatives.yaml's formula."""

    node_name = "Logaddexp2Backward0"

    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return _logaddexp2_value(a, b)

    @staticmethod
    def backward(ctx, g):
        a, b = ctx._unpacked
        # NOTE: grad / (1 + pow(2, other - self)): C++'s Scalar base (PowBackward2) and 1 + t (AddBackward1); the
        # other's gradient first, as torch's generated code (derivatives in the sorted order of their names), so the
        # nodes of a create_graph run run in torch's order at the next backward
        gb = elementwise.div(g, add_s(math_binary.pow(2, elementwise.sub(a, b)), 1)) if ctx.needs_input_grad[1] \
            else None
        ga = elementwise.div(g, add_s(math_binary.pow(2, elementwise.sub(b, a)), 1)) if ctx.needs_input_grad[0] \
            else None
        return ga, gb


def logaddexp2(input, other):
    """``log2(2**input + 2**other)``: floating dtypes only, as PyTorch's kernel."""
    require_tensors("logaddexp2", input=(1, input), other=(2, other))
    dt = _dtype.result_type(input, other)
    if not dt.is_floating_point:
        raise not_implemented("logaddexp2_cpu", dt)
    return Logaddexp2.apply(input, other)


def diagflat(input, offset=0):
    """A 2-D tensor with the flattened input on its ``offset`` diagonal."""
    return rearranging.diag(views.reshape(input, (-1,)), offset)


def _integer_op(name, numpy_fn, input, other):
    require_tensors(name, input=(1, input), other=(2, other))
    out_dtype = _dtype.result_type(input, other)  # (bool with an integer tensor is that integer type)
    if out_dtype.category != 1:
        raise NotImplementedError(f'"{name}_cpu" not implemented for \'{_dtype.SCALAR_NAMES[out_dtype.name]}\'')
    a, b = (np.asarray(t.cpu().numpy()).astype(out_dtype.np) for t in (input, other))
    return _factories.tensor(numpy_fn(a, b), dtype=out_dtype, device=input.device)


@recorded
def gcd(input, other):
    """Elementwise greatest common divisor of integer tensors (non-negative, ``gcd(0, 0) = 0``)."""
    return _integer_op("gcd", np.gcd, input, other)


@recorded
def lcm(input, other):
    """Elementwise least common multiple of integer tensors (non-negative)."""
    return _integer_op("lcm", np.lcm, input, other)


def gcd_(input, other):
    return inplace.copy_(input, gcd(input, other))


def lcm_(input, other):
    return inplace.copy_(input, lcm(input, other))


class Ldexp(Function):
    """``ldexp`` as one node, PyTorch's ``LdexpBackward0``: ``self * pow(2, other)``, its gradients
    derivatives.yaml's (``grad * pow(2, other)``, ``grad * result * ln 2``)."""

    node_name = "LdexpBackward0"

    @staticmethod
    def forward(ctx, a, b, *, dt):
        out = elementwise.mul(a.to(dt), math_unary.exp2(b.to(dt)))
        ctx.save_for_backward(b, out)
        return out

    @staticmethod
    def backward(ctx, g):
        b, out = ctx._unpacked
        # NOTE: pow(2, other) is C++'s Scalar base on the exponent as it is: an integer exponent gives an integer
        # power, so 2**-1 is 0 and the gradient there is 0, as torch's
        gb = mul_s(elementwise.mul(g, out), math.log(2.0)) if ctx.needs_input_grad[1] else None  # (other first)
        ga = elementwise.mul(g, math_binary.pow(2, b)) if ctx.needs_input_grad[0] else None
        return ga, gb


def ldexp(input, other):
    """``input * 2**other`` in the operands' floating dtype (the default dtype for integers), as PyTorch's."""
    require_tensors("ldexp", input=(1, input), other=(2, other))
    dt = _dtype.result_type(input, other)
    if dt.category < 2:
        dt = _dtype.get_default_dtype()
    elif dt.is_floating_point and other.dtype is _dtype.bool:  # (no bool kernel for the exponent)
        raise NotImplementedError("\"ldexp_cpu_exp\" not implemented for 'Bool'")
    return Ldexp.apply(input, other, dt=dt)


def ldexp_(input, other):
    return elementwise.mul_(input, math_unary.exp2(other))


def is_same_size(input, other) -> bool:
    return tuple(input.shape) == tuple(other.shape)


def is_neg(input) -> bool:
    """Always False: ``core`` keeps no lazy negation bit."""
    return False


def resolve_neg(input):
    return input
