"""The layout contract of a leaf's ``.grad`` and ``torch.autograd.enforce_grad_layout_policy``.

PyTorch's AccumulateGrad gives a new ``.grad`` the strides of its leaf when the leaf is dense and
non-overlapping (a permuted or channels-last parameter gets a gradient laid out the same), else contiguous
strides (``clone_obey_contract``). ``enforce_grad_layout_policy(False)`` relaxes that: the gradient keeps the
incoming gradient's layout. The flag is process-wide here (PyTorch's is thread-local).
"""

from __future__ import annotations

from core._backend import xp_of
from core._memory_format import _non_overlapping_and_dense, copy_preserving, empty_strided_array

__all__ = ["enforce_grad_layout_policy", "is_grad_layout_enforcement_enabled", "grad_copy"]

_enabled = [True]


def is_grad_layout_enforcement_enabled() -> bool:
    return _enabled[0]


class enforce_grad_layout_policy:
    """Enforce (True, the default) or relax (False) the layout contract of accumulated gradients; a context
    manager or a decorator, set when it is made and put back on exit (PyTorch's semantics)."""

    __module__ = "core.autograd.grad_mode"  # PyTorch's module for it

    def __init__(self, enable: bool = True) -> None:
        self.prev = _enabled[0]
        _enabled[0] = bool(enable)
        self.mode = bool(enable)

    def __enter__(self) -> None:
        pass

    def __exit__(self, *exc) -> None:
        _enabled[0] = self.prev

    def __call__(self, func):
        _enabled[0] = self.prev

        def wrapper(*args, **kwargs):
            with self.clone():
                return func(*args, **kwargs)
        return wrapper

    def clone(self):
        return self.__class__(self.mode)


def grad_copy(grad, variable):
    """A fresh array of ``grad`` laid out as the leaf's ``.grad`` must be (``variable``: the leaf's array)."""
    if not _enabled[0]:
        return copy_preserving(grad)
    if variable.flags.c_contiguous:  # the common case: a contiguous leaf, a contiguous copy
        return grad.copy()
    isz = variable.itemsize
    strides = tuple(st // isz for st in variable.strides)
    if not _non_overlapping_and_dense(variable.shape, strides):
        return grad.copy()
    out = empty_strided_array(xp_of(grad), grad.shape, strides, grad.dtype)
    out[...] = grad
    return out
