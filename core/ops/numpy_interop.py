"""NumPy arrays meeting tensors as PyTorch's do: ``np.sqrt(t)``, ``np.transpose(t, axes)`` and ``t - array`` give
tensors.

PyTorch's ``Tensor.__array_wrap__`` turns what a NumPy function computed on a tensor (through ``__array__``) back
into a tensor sharing its memory, with bool results as ``uint8`` (its old workaround, kept). Its arithmetic
operators return ``NotImplemented`` for an ndarray operand, so Python hands ``t - a`` to NumPy, which computes with
NumPy's promotion (``float32 - float64 array`` is float64) and wraps the result the same way; the reflected
``a - t`` then fails with Python's ``TypeError``, and a tensor that requires grad refuses ``__array__``.
``Tensor.__array_wrap__`` is in ``core/_tensor_python.py``; ``install`` wraps the operators in ``Tensor``'s method
table.
"""

from __future__ import annotations

import functools

import numpy as np

from core._factories import as_tensor

__all__ = ["install"]

_ndarray = np.ndarray

# NOTE: ``__add__`` and ``__mul__`` (``_fastpath.binary_operator``) make the same check on their general route. The
# reflected operators need none: NumPy handles ``array - t`` first (and defers: the reflected op's TypeError is
# torch's answer too); ``@`` stays unwrapped, as the per-op hot path of matrix products (``t @ array`` raises).
_OPERATORS = ("__sub__", "__truediv__", "__floordiv__", "__mod__", "__pow__", "__and__", "__or__", "__xor__")


def _defers_to_numpy(op):
    """``op`` as an operator that returns ``NotImplemented`` for an ndarray operand (NumPy then computes it)."""

    @functools.wraps(op)
    def operator(self, other, *args, **kwargs):
        if type(other) is _ndarray:
            return NotImplemented
        return op(self, other, *args, **kwargs)

    return operator


def _compares_arrays(eq):
    """``t == array`` as PyTorch's: the array as a tensor of its dtype, compared elementwise (a bool tensor)."""

    @functools.wraps(eq)
    def __eq__(self, other):
        if type(other) is _ndarray:
            other = as_tensor(other)
        return eq(self, other)

    return __eq__


def install(methods: dict) -> None:
    """Give ``Tensor``'s method table operators that defer ndarray operands to NumPy, and ``==`` that compares
    them (``!=`` and ``<`` fall back to Python's identity and ``TypeError``, as PyTorch's do)."""
    methods["__eq__"] = _compares_arrays(methods["__eq__"])
    for name in _OPERATORS:
        if name in methods:
            methods[name] = _defers_to_numpy(methods[name])
