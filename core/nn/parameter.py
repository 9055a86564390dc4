"""``nn.Parameter`` and ``nn.Buffer``: tensors that a ``Module`` registers when they are assigned to it.

A Parameter is a leaf ``Tensor`` subclass sharing the storage of the tensor it wraps; results of ops
on it are plain tensors, as in PyTorch.
"""

from __future__ import annotations

from core._factories import empty
from core._tensor import Tensor, cache_slotnames

__all__ = ["Parameter", "Buffer", "is_lazy"]


def _share(cls, data: Tensor):
    """A ``cls`` instance over ``data``'s storage (the same array and version counter)."""
    out = object.__new__(cls)
    out._data = data._data
    out._root = data._root
    out._vc = data._vc
    return out


class Parameter(Tensor):
    """A tensor that is a module's parameter; ``requires_grad=True`` unless said otherwise."""

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            data = empty(0)
        if not isinstance(data, Tensor):
            raise TypeError(f"Parameter(): argument 'data' must be Tensor, not {type(data).__name__}")
        out = _share(cls, data)
        out._set_requires_grad(bool(requires_grad))
        return out

    def __init__(self, data=None, requires_grad=True):
        """All the work is done in ``__new__`` (Tensor's legacy ``__init__`` must not run)."""

    def __repr__(self) -> str:
        return "Parameter containing:\n" + super().__repr__()

    __str__ = __repr__

    def __deepcopy__(self, memo):
        if id(self) in memo:
            return memo[id(self)]
        out = Parameter(self.detach().clone(), self.requires_grad)
        if self._grad is not None:
            out._grad = self._grad.clone()
        memo[id(self)] = out
        return out

    def __reduce_ex__(self, protocol):
        cache_slotnames(self)
        return (_rebuild_parameter, (self.detach(), self.requires_grad))


def _rebuild_parameter(data, requires_grad):
    return Parameter(data, requires_grad)


class Buffer(Tensor):
    """``nn.Buffer(data, persistent=True)``: assigning it to a module registers a buffer."""

    def __new__(cls, data=None, *, persistent=True):
        if data is None:
            data = empty(0)
        out = _share(cls, data.detach())
        out.persistent = persistent
        out._is_buffer = True  # (PyTorch's mark of a buffer, which its instance check reads)
        return out

    def __init__(self, data=None, *, persistent=True):
        """Built in ``__new__``."""


def is_lazy(param) -> bool:
    """Core has no lazy modules: no parameter is ever uninitialised."""
    return False
