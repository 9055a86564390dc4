"""The per-op hot path's shortcuts, in one place: what each skips, and why it gives the same result.

Ops call these on their busiest routes; each has a general route in its op file that it must match
value for value (the op's oracle tests run both). Kept here so a reader finds every trick at once:

- ``binary_no_grad(ufunc, a, b)``: two CPU tensors of one dtype when nothing records a graph
  (``a + b``, ``a * b`` under ``no_grad`` or on constants). It calls the ufunc on the arrays and wraps
  the result: no ``Function``, no node, no promotion (one dtype promotes to itself). ~0.3 µs of the
  ~0.8 µs a tiny add costs is the ufunc itself.
- ``binary_operator(ufunc, general, record)``: ``Tensor.__add__`` / ``__mul__`` themselves: ``binary_no_grad``'s route
  inlined into the operator (no keyword arguments to parse, no second call, the tensor built in place), and
  ``general`` (the op's public function) for everything else. ``a + b`` on shape (4,): 0.72 -> ~0.64 µs, of
  which the ufunc is 0.24 and making the result tensor 0.18 (a Parameter operand takes the general route).
  With a graph to record, two tensors go to ``core.autograd.function.apply_pair`` (the op's ``Function.apply``
  unrolled for two tensors) directly: what ``add`` and ``mul`` record then, without the general route's two
  calls in between or ``apply``'s loops over its argument tuples.
- ``whole_sum(general, function)``: ``Tensor.sum`` itself: ``t.sum()`` without arguments on a plain float CPU
  tensor goes to the op's ``Function.apply`` (``Sum``) with the dims, keepdim and dtype ``core.sum`` would pass,
  without the method's two wrappers (``out=`` refusal, NumPy's keyword names) and the op's argument checks;
  anything else takes ``general``, the wrapped method. ``(x * w).sum()`` with grad ~25% less. With a graph to
  record, ``core.autograd.function.apply_single`` (``apply`` unrolled for one tensor, as ``apply_pair`` for two).
- ``transposed_no_grad(a)``: ``a.t()`` of a 2-d CPU tensor when nothing records a graph (TBackward0's backward in
  every Linear layer's backward, ``linear`` under ``no_grad``). NumPy's transposed view of the same memory, made
  into the view tensor ``T.apply`` makes (the same ``_alias``, ``_base`` and version counter), without the
  ``Function`` machinery: ``g.t()`` under ``no_grad`` 2.3 -> 0.7 µs.
- ``relu_grad(xp, g, out)``: ReLU's gradient on arrays, +0 where ``out <= 0`` else ``g`` itself (a -0, an inf or
  a nan passes as it is). ``where`` on a data-dependent mask is a branch per element in NumPy (~7x slower than a
  multiply on a 64x256 layer's fresh gradient: 40 µs vs 6 µs), so it ands ``g``'s bits with a mask of all ones
  or all zeros made from the comparison: three SIMD passes, no finiteness check (a multiply by a 0/1 mask made
  -0 from a negative ``g`` and nan from an inf, and its +0 fix-up turned a passing -0 into +0).
"""

from __future__ import annotations

import functools

import numpy as np

from core._dtype import _BY_NP
from core._memory_format import laid_out_like_operands
from core._tensor import Tensor, new_tensor
from core.autograd import grad_mode
from core.autograd.function import apply_pair, apply_single
from core.autograd.shortcuts import state as _shortcuts
from core.ops._util import broadcast_shapes

__all__ = ["binary_no_grad", "binary_operator", "whole_sum", "transposed_no_grad", "relu_grad"]

_ndarray = np.ndarray
_object_new = object.__new__
_grad_state = grad_mode._state
_UNSET = object()


def binary_no_grad(ufunc, a, b):
    """``ufunc`` on two CPU tensors of one dtype, as a fresh tensor; None when the operands need the general op.

    NOTE: the per-op hot path: module-level aliases instead of attribute lookups, identity checks first.
    """
    x = a._data
    y = b._data
    if type(x) is _ndarray and type(y) is _ndarray and x.dtype is y.dtype:
        try:
            out = ufunc(x, y)
        except ValueError:
            broadcast_shapes(x.shape, y.shape)  # PyTorch's message for shapes that don't broadcast
            raise
        if type(out) is not _ndarray:
            out = np.asarray(out)
        elif out.ndim > 1 and not (x.flags.c_contiguous and y.flags.c_contiguous  # NOTE: TensorIterator's
                                   and 1 not in x.shape and 1 not in y.shape):  # (a size-1 dim's stride counts)
            out = laid_out_like_operands(out, x, y)  # layout: a permuted or channels-last operand lays it out as it
        return new_tensor(out)  # NOTE: new_tensor gives empty results contiguous strides, as PyTorch does
    return None


def binary_operator(ufunc, general, record=None):
    """A Python operator (``__add__``) for ``ufunc`` that takes ``binary_no_grad``'s route inline, ``record`` (the op's
    ``Function.apply``) when two tensors record a graph, else ``general``.

    NOTE: the per-op hot path: the same conditions as the op's own no-grad route (two CPU tensors of one
    dtype, nothing recording a graph, no dual tensors), checked cheapest first; a result with no elements
    takes ``new_tensor`` (contiguous strides for empty results, as PyTorch gives). Two tensors that record a
    graph (no ``alpha`` or ``out``) go to ``apply_pair`` with ``record``'s class straight away: the general
    route's wrapper and the op function's checks would end in the same call (``x * w`` with grad: ~1 µs of ~6
    less, and ``apply_pair`` ~25% of the rest).
    """
    function = getattr(record, "__self__", None)  # the op's Function class (``record`` is its bound ``apply``)

    def operator(self, other, *, alpha=_UNSET, out=None):  # add's alpha and out (mul refuses alpha, as torch's)
        if type(other) is Tensor and _shortcuts.ok and alpha is _UNSET and out is None:
            if (self._requires_grad or other._requires_grad) and _grad_state.enabled:
                if record is not None:
                    try:
                        return apply_pair(function, self, other)
                    except TypeError:  # as the general route's wrapper: Python then asks the other operand
                        return NotImplemented
            else:
                x = self._data
                y = other._data
                if type(x) is _ndarray and x.dtype is y.dtype:  # (CuPy would answer the ufunc: on the GPU, twice)
                    try:
                        res = ufunc(x, y)
                    except (ValueError, TypeError):  # no broadcast, or a CUDA operand: the general route's error
                        return general(self, other)
                    if type(res) is _ndarray and res.size:  # NOTE: 0-d (NumPy scalars) and empty go general
                        if res.ndim > 1 and not (x.flags.c_contiguous and y.flags.c_contiguous
                                                 and 1 not in x.shape and 1 not in y.shape):
                            res = laid_out_like_operands(res, x, y)  # NOTE: TensorIterator's strides
                        t = _object_new(Tensor)
                        t._data = t._root = res
                        t._vc = [0]
                        return t
        if type(other) is _ndarray or out is not None:  # NumPy computes ``t + array`` (core.ops.numpy_interop);
            return NotImplemented  # PyTorch's operator refuses out= (a TypeError it turns into NotImplemented)
        return general(self, other) if alpha is _UNSET else general(self, other, alpha=alpha)

    operator.__name__ = operator.__qualname__ = general.__name__
    operator.__doc__ = general.__doc__
    operator.__wrapped__ = general  # what the operator computes, for code that names ops (code-to-graph)
    return operator


_ALL_DIMS = tuple(tuple(range(n)) for n in range(65))  # every dim of an n-d array (NumPy has at most 64)


def whole_sum(general, function):
    """``Tensor.sum`` that sends ``t.sum()`` of a float ``Tensor`` (not a subclass) on the CPU to ``function.apply``
    as ``core.sum`` does (every dim, no keepdim, its own dtype); any argument, another tensor type or dtype takes
    ``general`` (the method as the table wraps it: ``out=`` refusal, NumPy's keyword names, the op's checks).

    NOTE: the per-op hot path (every loss's and the chapter's ``.sum()``)."""
    def sum(self, *args, **kwargs):
        if not args and not kwargs and type(self) is Tensor:
            x = self._data
            if type(x) is _ndarray and x.dtype.kind == "f":
                return apply_single(function, self, dims=_ALL_DIMS[x.ndim], keepdim=False, dt=_BY_NP[x.dtype])
        return general(self, *args, **kwargs)

    return functools.wraps(general)(sum)


def transposed_no_grad(a):
    """``a.t()`` for a non-empty, writable 2-d CPU tensor when nothing records a graph; None otherwise (the
    general route, ``T.apply``, whose no-grad result this is: ``views._permuted``'s alias of NumPy's transpose)."""
    x = a._data
    if type(x) is _ndarray and x.ndim == 2 and _shortcuts.ok and not (a._requires_grad and _grad_state.enabled) \
            and x.size and x.flags.writeable:
        return a._alias(x.T)
    return None


_SIGNED_BITS = {2: np.int16, 4: np.int32, 8: np.int64}  # an integer of each float's size (an int8 mask widens to it
# sign-extended)
_ONE_BYTE = np.array(1, np.int8)


def relu_grad(xp, g, out):
    """+0 where ``out <= 0``, else ``g`` bit for bit (PyTorch's ``threshold_backward``: ``relu'(0) = 0``, a nan
    input, which is not ``<= 0``, passes ``g``, and so does a -0, an inf or a nan in ``g``), on arrays.

    NOTE: a hot path (every ReLU layer's backward): for C-contiguous NumPy arrays of one float dtype, ``g``'s bits
    anded with a mask that is 0 where ``out <= 0`` and all ones elsewhere (``le`` as 1/0 bytes, minus 1: 0 or -1,
    which the and widens to 0 or all ones) is the selection ``where`` makes, in three SIMD passes instead of a
    branch per element (the byte mask widened inside the and, not in a pass of its own: ~10% less)."""
    le = out <= 0
    bits = _SIGNED_BITS.get(g.itemsize)
    if xp is np and bits is not None and g.ndim and g.dtype == out.dtype and g.dtype.kind in "fV" \
            and g.shape == out.shape and g.flags.c_contiguous and out.flags.c_contiguous:  # (0-d: NumPy scalars)
        mask = le.view(np.int8)
        mask -= _ONE_BYTE  # 1 - 1 = 0 where the gradient stops, 0 - 1 = -1 (all ones) where it passes
        return np.bitwise_and(g.view(bits), mask, dtype=bits).view(g.dtype)
    return xp.where(le, xp.zeros((), g.dtype), g)
