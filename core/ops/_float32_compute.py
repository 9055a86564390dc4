"""bfloat16 ops computed as PyTorch's CPU kernels compute them: in float32, rounded to bfloat16 once.

ml_dtypes' elementwise ufuncs already do this (each converts to float32, computes, rounds), so ``a + b``
or ``exp`` on bfloat16 arrays needs nothing here. An op built from several NumPy steps would instead round
after each step (a softmax's exp, sum and divide; a sum's running total; a layer norm's mean and variance),
and NumPy's matmul of bfloat16 arrays returns float32. ``computes_in_float32`` decorates such a
``Function``:

- its bfloat16 tensor arguments reach ``forward`` as float32 copies, a ``bfloat16`` dtype argument (a
  reduction's result dtype) becomes ``float32``, and its float32 results come back rounded to bfloat16;
- ``backward`` gets bfloat16 incoming gradients as float32, and the autograd engine rounds each input's
  gradient to that input's dtype (bfloat16), as it does for any gradient of another dtype.

A call without bfloat16 arguments pays one pass over them and runs the op unchanged.
"""

from __future__ import annotations

import inspect

import ml_dtypes
import numpy as np

from core import _dtype
from core._tensor import Tensor, new_tensor

__all__ = ["computes_in_float32", "log_softmax_bfloat16", "BF16"]

BF16 = np.dtype(ml_dtypes.bfloat16)
_F32 = np.dtype(np.float32)
_bfloat16, _float32 = _dtype.bfloat16, _dtype.float32


def _is_bf16(a) -> bool:
    """A bfloat16 tensor (compared by kind first: a view's dtype may be an equal object, not the same one)."""
    return isinstance(a, Tensor) and a._data.dtype.kind == "V" and a._data.dtype == BF16


def _widened(a):
    if _is_bf16(a):
        return new_tensor(a._data.astype(_F32))
    return _float32 if a is _bfloat16 else a


def _rounded(o):
    """A forward result with its float32 arrays (or tensors) rounded to bfloat16."""
    if type(o) is tuple:
        return tuple([_rounded(x) for x in o])
    if isinstance(o, Tensor):
        return new_tensor(o._data.astype(BF16)) if o._data.dtype == _F32 else o
    if isinstance(o, (np.ndarray, np.generic)) and o.dtype == _F32:
        return np.asarray(o).astype(BF16)
    return o


def _forward_in_float32(forward):
    def forward_in_float32(ctx, *args, **kwargs):
        # NOTE: the float32 route of every decorated op, so one attribute chain: the first argument decides (the
        # decorated ops take their tensors in one dtype, the first a tensor); kind 'V' is ml_dtypes' types
        try:
            if args[0]._data.dtype.kind != "V":
                return forward(ctx, *args, **kwargs)
        except (AttributeError, IndexError):  # no tensor first: look at every argument
            if not any([_is_bf16(a) for a in args]) and not any([_is_bf16(v) for v in kwargs.values()]):
                return forward(ctx, *args, **kwargs)
        if not any([_is_bf16(a) for a in args]) and not any([_is_bf16(v) for v in kwargs.values()]):
            return forward(ctx, *args, **kwargs)  # float8_e4m3fn, also kind 'V': as it is
        wide = tuple([_widened(a) for a in args])
        if any([isinstance(v, _dtype.dtype) and v is not _bfloat16 for v in kwargs.values()]):
            return forward(ctx, *wide, **kwargs)  # a result dtype asked for (``sum(dtype=float32)``): no rounding
        return _rounded(forward(ctx, *wide, **{k: _widened(v) for k, v in kwargs.items()}))

    return forward_in_float32


def _backward_in_float32(backward):
    def backward_in_float32(*args):  # (ctx, *grads), or (cls, ctx, *grads) for a classmethod
        for g in args:
            if isinstance(g, Tensor) and g._data.dtype.kind == "V":
                return backward(*[g.float() if _is_bf16(g) else g for g in args])
        return backward(*args)

    return backward_in_float32


def computes_in_float32(cls=None, *, forward: bool = True):
    """Class decorator for a ``Function``: bfloat16 inputs computed in float32 and rounded once (module doc);
    ``forward=False`` leaves forward alone (it handles bfloat16 itself) and wraps only backward.

    NOTE: it wraps ``_forward`` (what ``apply`` calls) and ``backward``; a subclass that inherits them keeps
    the forward its metaclass captured, so decorate each class whose ``apply`` is called.
    """
    if cls is None:
        return lambda c: computes_in_float32(c, forward=forward)
    if forward:
        cls._forward = staticmethod(_forward_in_float32(cls._forward))
    backward = inspect.getattr_static(cls, "backward")
    if isinstance(backward, classmethod):  # a subclass inheriting it must still get itself as ``cls``
        cls.backward = classmethod(_backward_in_float32(backward.__func__))
    else:
        cls.backward = staticmethod(_backward_in_float32(cls.backward))
    return cls


def _round(arr):
    return arr.astype(BF16).astype(_F32)


def log_softmax_bfloat16(x, dim: int):
    """PyTorch's CPU log_softmax of a bfloat16 array: in float32, but over the last dim its kernel keeps the
    row's sum of exps, and then that sum's log, in bfloat16 before ``x - max - log(sum)`` is rounded."""
    x32 = x.astype(_F32)  # (bfloat16 lives on the CPU only: ml_dtypes is NumPy's)
    if not x32.ndim or not x32.size:
        return (x32 - x32).astype(BF16)
    with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
        shifted = x32 - np.max(x32, axis=dim, keepdims=True)
        total = np.exp(shifted).sum(axis=dim, keepdims=True, dtype=_F32)
        if dim % x32.ndim == x32.ndim - 1:
            return (shifted - _round(np.log(_round(total)))).astype(BF16)
        return (shifted - np.log(total)).astype(BF16)
