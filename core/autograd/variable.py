"""``Variable``: PyTorch's pre-0.4 wrapper, kept as it is today: a name whose calls return tensors.

``Variable(t, requires_grad=True)`` is a leaf sharing ``t``'s storage (``t.detach()`` with the flag
set), and ``isinstance(x, Variable)`` holds for every tensor, as in PyTorch; ``volatile=True`` warns that it was
removed and does nothing, as PyTorch's does (a tensor's own ``volatile`` is in ``core._removed_attrs``).
"""

from __future__ import annotations

import warnings

from core._factories import empty
from core._tensor import Tensor
from core.autograd._transform_guard import set_requires_grad as _set_requires_grad

__all__ = ["Variable"]


class _VariableMeta(type):
    def __instancecheck__(cls, obj) -> bool:
        return isinstance(obj, Tensor)

    def __call__(cls, data=None, requires_grad: bool = False, volatile: bool = False):
        if volatile:
            warnings.warn("volatile was removed and now has no effect. Use `with torch.no_grad():` instead.",
                          UserWarning, stacklevel=2)
        if data is None:
            return empty(0, requires_grad=requires_grad)
        if not isinstance(data, Tensor):
            raise TypeError(f"Variable data has to be a tensor, but got {type(data).__name__}")
        out = data.detach()
        return _set_requires_grad(out) if requires_grad else out


class Variable(metaclass=_VariableMeta):
    """Calling it returns a tensor; every tensor is an instance of it."""

    __module__ = "core.autograd.variable"

