"""Tensor's remaining Python protocol methods, as PyTorch defines them: unary ``+``, ``in``, ``<<``/``>>`` (and their
reflected and in-place forms), the in-place ``&=``/``|=``/``^=``, ``reversed()``, Python 2's names that PyTorch still
has (``__div__``, ``__idiv__``, ``__rdiv__``, ``__nonzero__``, ``__long__``), and the devices a CPU build of PyTorch
refuses (``xpu``, ``mtia``, ``ipu``) with its exceptions and messages.

``x in t`` is ``(x == t).any()`` over every element (not a walk over the rows, which Python would do without it), and
accepts only a tensor or a number, as PyTorch does.
"""

from __future__ import annotations

from numbers import Number

from core._tensor import Tensor
from core.ops import comparison, elementwise, math_reflected, math_unary

__all__ = ["TENSOR_METHODS"]


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


def _long(self) -> int:
    return int(self)


def _xpu(self, device=None, non_blocking: bool = False, memory_format=None):
    raise AssertionError("Torch not compiled with XPU enabled")


def _mtia(self, device=None, non_blocking: bool = False, memory_format=None):
    raise AssertionError("Torch not compiled with MTIA enabled. Ensure you have `import "
                         "mtia.host_runtime.torch_mtia.dynamic_library` in your python src file and include "
                         "`//mtia/host_runtime/torch_mtia:torch_mtia` as your target dependency!")


def _ipu(self, device=None, non_blocking: bool = False, memory_format=None):
    raise RuntimeError("PyTorch is not linked with support for ipu devices")


TENSOR_METHODS = {
    "__pos__": math_unary.positive, "__contains__": _contains, "__reversed__": _reversed,
    "__lshift__": comparison.bitwise_left_shift, "__rshift__": comparison.bitwise_right_shift,
    "__rlshift__": _reflected(comparison.bitwise_left_shift), "__rrshift__": _reflected(comparison.bitwise_right_shift),
    "__ilshift__": comparison.bitwise_left_shift_, "__irshift__": comparison.bitwise_right_shift_,
    "__iand__": comparison.bitwise_and_, "__ior__": comparison.bitwise_or_, "__ixor__": comparison.bitwise_xor_,
    "__div__": elementwise.div, "__idiv__": elementwise.div_, "__rdiv__": math_reflected.rtruediv,
    "__nonzero__": Tensor.__bool__, "__long__": _long,
    "xpu": _xpu, "mtia": _mtia, "ipu": _ipu,
}
