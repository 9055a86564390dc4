"""Tensor's remaining Python protocol methods, as PyTorch defines them: unary ``+``, ``in``, ``<<``/``>>`` (and their
reflected and in-place forms), the in-place ``&=``/``|=``/``^=``, ``reversed()``, Python 2's names that PyTorch still
has (``__div__``, ``__idiv__``, ``__rdiv__``, ``__nonzero__``, ``__long__``), and the devices a CPU build of PyTorch
refuses (``xpu``, ``mtia``, ``ipu``) with its exceptions and messages.

``x in t`` is ``(x == t).any()`` over every element (not a walk over the rows, which Python would do without it), and
accepts only a tensor or a number, as PyTorch does.

Every binary operator (``+``, ``-``, ``*``, ``/``, ``//``, ``%``, ``**``, ``@``, ``&``, ``|``, ``^``, ``<<``, ``>>``,
``<``, ``<=``, ``>``, ``>=``, their reflected and in-place forms) answers ``NotImplemented`` when its operand is of a
type it cannot take (a TypeError inside), as PyTorch's do, so Python raises its own error (``unsupported operand
type(s) for +: 'Tensor' and 'list'``) or lets the other operand answer (``[1] + t``: the list's message).
``install`` wraps the table's entries; ``fast_operator`` builds ``a + b``'s and ``a * b``'s hot path with the
wrapper on its general route only.
"""

from __future__ import annotations

from numbers import Number

from core._tensor import Tensor
from core.ops import comparison, elementwise, math_unary
from core.ops._fastpath import binary_operator

__all__ = ["TENSOR_METHODS", "fast_operator", "install"]

BINARY = ("__radd__", "__iadd__", "__sub__", "__rsub__", "__isub__", "__rmul__", "__imul__", "__truediv__",
          "__rtruediv__", "__itruediv__", "__floordiv__", "__rfloordiv__", "__ifloordiv__", "__mod__", "__rmod__",
          "__imod__", "__pow__", "__rpow__", "__ipow__", "__matmul__", "__rmatmul__", "__and__", "__rand__", "__or__",
          "__ror__", "__xor__", "__rxor__", "__lt__", "__le__", "__gt__", "__ge__", "__lshift__", "__rshift__",
          "__rlshift__", "__rrshift__", "__ilshift__", "__irshift__", "__iand__", "__ior__", "__ixor__", "__div__",
          "__idiv__", "__rdiv__")


# the reflected operators that are C methods in PyTorch: called unbound on a non-tensor (``Tensor.__radd__(2, t)``)
# they raise its descriptor TypeError (its Python-level ones, ``__rsub__``..., answer NotImplemented)
_C_LEVEL = frozenset(("__radd__", "__rmul__", "__rand__", "__ror__", "__rxor__"))


def returns_not_implemented(fn, name: str | None = None):
    """``fn`` as an operator: ``NotImplemented`` where ``fn`` raises TypeError (an operand of a type it cannot take)."""
    def operator(self, other, *args, **kwargs):
        if name in _C_LEVEL and not isinstance(self, Tensor):
            raise TypeError(f"descriptor '{name}' for 'torch._C.TensorBase' objects doesn't apply to a "
                            f"'{type(self).__name__}' object")
        try:
            return fn(self, other, *args, **kwargs)
        except TypeError:
            return NotImplemented

    operator.__name__ = operator.__qualname__ = fn.__name__
    operator.__module__, operator.__doc__ = fn.__module__, fn.__doc__
    operator.__wrapped__ = getattr(fn, "__wrapped__", fn)  # the op it computes, for code that names ops
    return operator


def fast_operator(ufunc, general, record):
    """``binary_operator``'s hot path for ``ufunc`` (``record``: the op's ``Function.apply``), whose general route
    answers ``NotImplemented`` on a TypeError."""
    operator = binary_operator(ufunc, returns_not_implemented(general), record)
    operator.__wrapped__ = general
    return operator


def install(table: dict) -> None:
    """Wraps the table's binary operators (all but the hot ``__add__``/``__mul__``, see ``fast_operator``); as
    torch/_tensor.py, ``__rtruediv__`` is ``__rdiv__`` and ``__itruediv__`` is ``__idiv__`` (one function each)."""
    for name in BINARY:
        table[name] = returns_not_implemented(table[name], name)
    for alias, name in (("__rtruediv__", "__rdiv__"), ("__itruediv__", "__idiv__")):
        table[name].__name__, table[name].__qualname__ = name, f"Tensor.{name}"
        table[alias] = table[name]


def _contains(self, element) -> bool:
    if isinstance(element, (Tensor, Number)):
        return bool((element == self).any().item())
    raise RuntimeError(f"Tensor.__contains__ only supports Tensor or scalar, but you passed in a {type(element)}.")


def _reversed(self) -> Tensor:
    """``reversed(t)``: ``t`` flipped along dim 0 (a 0-d tensor is returned as it is)."""
    return self if self.dim() == 0 else self.flip(0)


def _reflected(op):
    def reflected(self, other):
        try:
            return op(other, self)
        except TypeError:  # as PyTorch's wrapper does, so Python tries the other operand's method
            return NotImplemented
    return reflected


def _rdiv(self, other):
    """``other / t``: PyTorch's ``t.reciprocal() * other`` (two roundings; an array ``other`` too)."""
    return self.reciprocal() * other


def _long(self) -> int:
    return int(self)


def _xpu(self, device=None, non_blocking: bool = False, memory_format=None):
    raise AssertionError("Torch not compiled with XPU enabled")


def _mtia(self, device=None, non_blocking: bool = False, memory_format=None):
    raise AssertionError("Torch not compiled with MTIA enabled. Ensure you have `import "
                         "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
                         "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")


def __nonzero__(self) -> bool:
    """Python 2's name for ``__bool__``: a method of its own, as torch's (a table keyed by methods tells them apart)."""
    return Tensor.__bool__(self)


def _ipu(self, device=None, non_blocking: bool = False, memory_format=None):
    raise RuntimeError("PyTorch is not linked with support for ipu devices")


TENSOR_METHODS = {
    "__pos__": math_unary.positive, "__contains__": _contains, "__reversed__": _reversed,
    "__lshift__": comparison.bitwise_left_shift, "__rshift__": comparison.bitwise_right_shift,
    "__rlshift__": _reflected(comparison.bitwise_left_shift), "__rrshift__": _reflected(comparison.bitwise_right_shift),
    "__ilshift__": comparison.bitwise_left_shift_, "__irshift__": comparison.bitwise_right_shift_,
    "__iand__": comparison.bitwise_and_, "__ior__": comparison.bitwise_or_, "__ixor__": comparison.bitwise_xor_,
    "__div__": elementwise.div, "__idiv__": elementwise.div_, "__rdiv__": _rdiv, "__rtruediv__": _rdiv,
    "__nonzero__": __nonzero__, "__long__": _long,
    "xpu": _xpu, "mtia": _mtia, "ipu": _ipu,
}
